#!/usr/bin/env node
// Prints the size of what the package ships, so no document has to state a figure that goes
// stale: each entry point as a bundler ships it (minified, with everything it imports), raw and
// gzip, and the core against its budget. `npm run size` builds dist/ first.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { CORE_BUDGET_GZIP } from '../examples/cloudflare/scripts/bundle.mjs';

const root = resolve(import.meta.dirname, '..');
const ENTRIES = [
  ['agentvfs', 'dist/index.js'],
  ['agentvfs/client', 'dist/client.js'],
  ['agentvfs/worker', 'dist/worker.js'],
  ['agentvfs/persist', 'dist/persist.js'],
];
// A self-contained script with no exports, shipped as it is: measured as the file.
const WORKER_SCRIPT = ['agentvfs/backend-worker', 'dist/backend-worker.js'];
if (!existsSync(join(root, 'dist/index.js'))) {
  console.error('dist/index.js is missing: run `npm run build` first.');
  process.exit(1);
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
const row = (...cells) => console.log(`${cells[0].padEnd(26)} ${cells[1].padStart(10)} ${cells[2].padStart(10)}`);

/** One entry bundled as an app's bundler would ship it: minified, every import inlined. */
async function bundled(file) {
  const r = await build({
    stdin: { contents: `export * from './${file}';`, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  });
  const code = r.outputFiles[0].contents;
  return { bytes: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

row('entry (minified bundle)', 'raw', 'gzip');
let core;
for (const [name, file] of ENTRIES) {
  const size = await bundled(file);
  if (name === 'agentvfs') core = size;
  row(name, kB(size.bytes), kB(size.gzip));
}
const script = readFileSync(join(root, WORKER_SCRIPT[1]));
row(WORKER_SCRIPT[0], kB(script.byteLength), kB(gzipSync(script, { level: 9 }).byteLength));
console.log(
  `\nThe core (agentvfs) is ${kB(core.gzip)} gzip; budget ${kB(CORE_BUDGET_GZIP)} (test/package/size.test.ts): ${core.gzip <= CORE_BUDGET_GZIP ? 'within' : 'OVER'}.`,
);
console.log('agentvfs/client embeds the backend worker (createWorkerBackend); a bundler drops it when only connect() is used.');
