// Builds dist/: one self-contained ESM bundle per public entry, with memfs's
// Node built-ins replaced by small browser-safe modules, plus .d.ts files.
// Then checks that no entry still imports a Node built-in.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { bundledPackages, writeLicenses } from './third-party-licenses.mjs';

const minify = process.env.AGENTVFS_NO_MINIFY !== '1';

const root = fileURLToPath(new URL('..', import.meta.url));
const shim = (name) => fileURLToPath(new URL(`./shims/${name}`, import.meta.url));

export const ENTRIES = {
  index: 'src/index.ts',
  worker: 'src/worker/index.ts',
  client: 'src/client/index.ts',
  persist: 'src/persist/index.ts',
  ai: 'src/ai/index.ts',
  langchain: 'src/langchain/index.ts',
  mcp: 'src/mcp/index.ts',
};
// Node's builds of the persistence entries (agentvfs/persist under the "node" export condition, and
// agentvfs/persist/node): built with the entries above, so they share their chunks (one VfsError,
// one backend class for a program that imports both), importing Node built-ins from their own files.
const NODE_PERSIST_ENTRIES = { 'persist.node': 'src/persist/node/persist.ts', 'persist-node': 'src/persist/node/index.ts' };
// The `agentvfs` command: imports Node built-ins, left as imports. Built on its own.
const NODE_ENTRIES = { cli: 'src/cli/index.ts' };
// Built first and alone, so it is one self-contained file: createWorkerBackend() embeds it
// (a Blob URL needs no bundler support), and it can also be served as is.
const WORKER_SCRIPT = { 'backend-worker': 'src/worker/backend-worker.ts' };
const WORKER_SOURCE_ID = 'virtual:agentvfs/backend-worker-source';

const builtins = {
  buffer: shim('buffer.js'),
  process: shim('process.js'),
};
const alias = Object.entries(builtins).flatMap(([name, target]) => [{ find: new RegExp(`^(node:)?${name}$`), replacement: target }]);

// memfs asks the host `process` for uid/gid on every file it creates (a syscall each in Node) and
// for its cwd: make it use its built-in defaults everywhere, so behaviour and speed never depend on the host.
const hostIndependentMemfs = {
  name: 'agentvfs-host-independent-memfs',
  transform(code, id) {
    if (!/fs-core[\\/]lib[\\/]process\.js$/.test(id)) return null;
    // Same length, so every other position (and the source map) is unchanged.
    const check = "typeof process !== 'undefined'";
    return { code: code.replace(check, 'false'.padEnd(check.length)), map: null };
  },
};

// memfs's Node and Link (all the storage uses) read only the S_IF* mode constants from
// @jsonjoy.com/fs-node-utils, whose index also pulls in path, glob and tslib (~12 kB gzip):
// give those two files the constants module alone.
const memfsConstantsOnly = {
  name: 'agentvfs-memfs-constants-only',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (source !== '@jsonjoy.com/fs-node-utils' || !importer || !/fs-core[\\/]lib[\\/](Node|Link)\.js$/.test(importer)) return null;
    return this.resolve('@jsonjoy.com/fs-node-utils/lib/constants.js', importer, { skipSelf: true });
  },
};

// Comlink makes each request id from four Math.random() numbers printed in hex: ~10 µs a call,
// the largest JavaScript cost of a round trip in Node. Ids only need to be unique among the
// requests pending on one endpoint: a counter behind a random per-realm prefix is, and costs
// one concatenation. (The prefix keeps two Comlink copies sharing an endpoint apart.)
const cheapComlinkIds = {
  name: 'agentvfs-cheap-comlink-ids',
  transform(code, id) {
    if (!/comlink[\\/]dist[\\/]esm[\\/]comlink\.mjs$/.test(id)) return null;
    const original = /function generateUUID\(\) \{[^}]*\}/;
    if (!original.test(code)) throw new Error('comlink changed: generateUUID() not found; update scripts/build.mjs');
    const replacement =
      'const idPrefix = Math.floor(Math.random() * Number.MAX_SAFE_INTEGER).toString(36) + "-";\n' +
      'let idCounter = 0;\n' +
      'function generateUUID() { return idPrefix + (++idCounter).toString(36); }';
    return { code: code.replace(original, replacement), map: null };
  },
};

// The frameworks an adapter plugs into are the user's own (optional peer dependencies): never bundled.
const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const peers = Object.keys(pkg.peerDependencies ?? {});
const isPeer = (id) => peers.some((name) => id === name || id.startsWith(`${name}/`));

// Except those the core gets as shims (above), so that it behaves in the CLI as everywhere else.
const isNodeBuiltin = (id) => id.startsWith('node:') && !Object.keys(builtins).includes(id.slice('node:'.length));

// Every package a bundle takes code from, for dist/THIRD-PARTY-LICENSES.md.
const bundled = new Set();

const bundle = (entry, plugins = [], external = isPeer) =>
  build({
    root,
    configFile: false,
    logLevel: 'warn',
    resolve: { alias },
    plugins: [hostIndependentMemfs, memfsConstantsOnly, cheapComlinkIds, bundledPackages(bundled), ...plugins],
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      target: 'es2022',
      minify, // AGENTVFS_NO_MINIFY=1 for readable profiles
      sourcemap: true,
      lib: { entry, formats: ['es'], fileName: (_format, name) => `${name}.js` },
      rolldownOptions: { external, output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
    },
  });

const embedWorker = {
  name: 'agentvfs-embed-worker',
  resolveId: (id) => (id === WORKER_SOURCE_ID ? `\0${id}` : null),
  load: (id) =>
    id === `\0${WORKER_SOURCE_ID}`
      ? `export default ${JSON.stringify(readFileSync(`${root}/dist/backend-worker.js`, 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/, ''))};`
      : null,
};

rmSync(`${root}/dist`, { recursive: true, force: true });
await bundle(WORKER_SCRIPT);
// A module script (a module worker runs it) with no import or export of its own: say so, or tools
// such as publint read it as CommonJS. Before the source map comment, so no mapped line moves.
const workerFile = `${root}/dist/backend-worker.js`;
writeFileSync(workerFile, readFileSync(workerFile, 'utf8').replace(/\n(\/\/# sourceMappingURL=[^\n]*\n?)$/, '\nexport {};\n$1'));
await bundle({ ...ENTRIES, ...NODE_PERSIST_ENTRIES }, [embedWorker], (id) => isPeer(id) || isNodeBuiltin(id));
await bundle(NODE_ENTRIES, [], (id) => isPeer(id) || isNodeBuiltin(id));
const licensed = writeLicenses(bundled, `${root}/dist/THIRD-PARTY-LICENSES.md`);

// The Node-only entries' own types come from a second pass that knows Node's (tsconfig.node.json).
for (const project of ['tsconfig.json', 'tsconfig.node.json']) {
  execFileSync(process.execPath, [fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)), '-p', project, '--emitDeclarationOnly'], {
    cwd: root,
    stdio: 'inherit',
  });
}

// The core must load in browsers and workerd untouched: no Node built-in may remain (the chunks
// they import too: test/package/runtime-neutral.test.ts).
const BUILTIN_IMPORT = /(?:from\s*|import\s*\(?\s*|require\s*\(\s*)["'](node:[^"']+|buffer|events|path|stream|url|util|fs|process|crypto|os)["']/;
for (const name of [...Object.keys(ENTRIES), ...Object.keys(WORKER_SCRIPT)]) {
  let code = readFileSync(`${root}/dist/${name}.js`, 'utf8');
  // An unminified build (for profiling) keeps comments, and some quote imports as examples.
  if (!minify) code = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const hit = code.match(BUILTIN_IMPORT);
  if (hit) throw new Error(`dist/${name}.js still imports the Node built-in "${hit[1]}"`);
}
console.log(`dist/THIRD-PARTY-LICENSES.md: ${licensed} bundled packages`);
console.log(
  'built dist/ for',
  [...Object.keys(ENTRIES), ...Object.keys(WORKER_SCRIPT), ...Object.keys(NODE_PERSIST_ENTRIES), ...Object.keys(NODE_ENTRIES)].join(', '),
);
