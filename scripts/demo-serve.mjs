// Serves the built playground (demo/dist) for `npm run demo`: on port 4317, or on the next
// free port when that one is taken, and prints the URL it serves either way.
// Usage: node scripts/demo-serve.mjs [--port N] [--outDir DIR]
//   (npm run demo builds first, then runs this; --outDir serves another build, as the e2e tests do)
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';

const DEFAULT_PORT = 4317;
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

function fail(message, code = 1) {
  console.error(`\n  agentvfs playground: ${message}\n`);
  process.exit(code);
}

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
for (let i = 0; i < args.length; i += 2) {
  if (args[i] !== '--port' && args[i] !== '--outDir')
    fail(`unknown option ${JSON.stringify(args[i])}. Options: --port N (default ${DEFAULT_PORT}), --outDir DIR (default demo/dist).`, 2);
}
const asked = option('--port', String(DEFAULT_PORT));
const port = Number(asked);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port must be a whole number from 1 to 65535 (got ${JSON.stringify(asked ?? '')}).`, 2);
const outDir = resolve(option('--outDir', here('../demo/dist')) ?? '');
if (!existsSync(resolve(outDir, 'index.html')))
  fail(`${outDir} holds no built playground. Run \`npm run demo\`: it builds the package and the playground, then serves it.`);

let server;
try {
  // logLevel warn: Vite's own "Port N is in use, trying another one..." lines are replaced by the summary below.
  server = await preview({ configFile: here('../demo/vite.config.ts'), logLevel: 'warn', preview: { port, strictPort: false }, build: { outDir } });
} catch (e) {
  fail(`could not start the server: ${e instanceof Error ? e.message : String(e)}`);
}
const served = server.httpServer.address().port;
const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${served}/`;
console.log(`\n  agentvfs playground: ${url}`);
if (served !== port) console.log(`  (port ${port} is in use, so it is served on port ${served} instead)`);
console.log('  Press Ctrl+C to stop it.\n');
