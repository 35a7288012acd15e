// Packs the package as npm would publish it, installs the tarball into an empty
// project and uses it from plain Node and from a TypeScript consumer.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { default?: string } | string>;
  peerDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
};
let consumer = '';
let tarball = '';

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * tsc's report on `dir`'s lib.ts ('' when it type-checks) for a consumer as strict as they come:
 * strict, exactOptionalPropertyTypes, no ambient types but the DOM's, and `options`.
 */
function strictTsc(dir: string, options: Record<string, unknown>): string {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['ES2022', 'DOM'],
        exactOptionalPropertyTypes: true,
        types: [],
        ...options,
      },
      files: ['lib.ts'],
    }),
  );
  try {
    run('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir);
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

let out = '';
beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'agentvfs-pack-'));
  const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], root)) as Array<{ filename: string }>;
  tarball = join(out, packed[0]!.filename);
  consumer = join(out, 'consumer');
  run('mkdir', ['-p', consumer], out);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], consumer);
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The frameworks (peer dependencies) a subpath's built module imports, itself or through its chunks. */
function peersOf(subpath: string): string[] {
  const entry = pkg.exports[subpath];
  const file = typeof entry === 'string' ? entry : entry?.default;
  if (!file?.endsWith('.js')) return [];
  let code = '';
  const seen = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(path, 'utf8');
    code += text;
    for (const [, relative] of text.matchAll(/["'](\.\.?\/[^"']+\.js)["']/g)) visit(join(dirname(path), relative!));
  };
  visit(join(root, file));
  return Object.keys(pkg.peerDependencies ?? {}).filter((name) => new RegExp(`["']${escapeRegExp(name)}(/[^"']*)?["']`).test(code));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Imports a subpath in a fresh Node process in `dir`: "loaded N" (its export count) or "failed: message". */
function load(subpath: string, dir: string): string {
  const specifier = subpath === '.' ? 'agentvfs' : `agentvfs/${subpath.slice(2)}`;
  // The prebuilt worker script runs only inside a Web Worker: resolve it, check it is self-contained.
  const script = subpath.endsWith('.json')
    ? `import(${JSON.stringify(specifier)}, { with: { type: 'json' } }).then((m) => console.log('loaded', Object.keys(m).length))`
    : subpath === './backend-worker'
      ? `import { readFileSync } from 'node:fs'; const code = readFileSync(new URL(import.meta.resolve(${JSON.stringify(specifier)})), 'utf8'); console.log('loaded', /\\bimport\\s*[{("'*]/.test(code) ? 0 : code.length)`
      : `import(${JSON.stringify(specifier)}).then((m) => console.log('loaded', Object.keys(m).length), (e) => console.log('failed: ' + e.message))`;
  return run('node', ['--input-type=module', '-e', script], dir).trim();
}

describe('the packed package', () => {
  it('has no runtime dependencies to install: everything it needs is bundled', () => {
    const installed = JSON.parse(readFileSync(join(consumer, 'node_modules/agentvfs/package.json'), 'utf8')) as Record<string, unknown>;
    expect(installed.dependencies ?? {}).toEqual({});
  });

  it('ships the licence notice of every package it bundles (dist/THIRD-PARTY-LICENSES.md)', () => {
    const notices = readFileSync(join(consumer, 'node_modules/agentvfs/dist/THIRD-PARTY-LICENSES.md'), 'utf8');
    // What the source maps say the bundles hold, from whichever node_modules folder.
    const bundled = new Set<string>();
    for (const map of readdirSync(join(root, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js.map'))) {
      for (const source of (JSON.parse(readFileSync(join(root, 'dist', map), 'utf8')) as { sources: string[] }).sources) {
        const hit = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)?.at(-1);
        if (hit) bundled.add(hit.slice('node_modules/'.length, -1));
      }
    }
    expect(bundled.size).toBeGreaterThan(5);
    for (const name of bundled) expect(notices, name).toContain(`## ${name}@`);
    expect(notices).toMatch(/## comlink@[\d.]+ \(Apache-2\.0\)\n\n```\n\s*Apache License/);
  });

  it('imports from plain Node and runs a tool session', () => {
    writeFileSync(
      join(consumer, 'smoke.mjs'),
      `import { createStateBackend, createTools, isVfsError, VfsError } from 'agentvfs';
import { RemoteBackend, WorkerGoneError } from 'agentvfs/client';
import { inspect } from 'node:util';
const b = createStateBackend({ files: { '/a.txt': 'hello\\nworld\\n' } });
const t = createTools(b);
const out = [await t.call('read_file', { path: '/a.txt' }), await t.call('edit_file', { path: '/a.txt', old_string: 'world', new_string: 'there' }), await t.call('grep', { pattern: 'the', output_mode: 'content' })];
let err; try { await b.readFile('/nope'); } catch (e) { err = e; }
const snap = await b.snapshot();
const names = [VfsError.name, WorkerGoneError.name, RemoteBackend.name, inspect(err).split(':')[0]];
console.log(JSON.stringify({ out, isErr: isVfsError(err), code: err.code, snap: snap.length, names }));`,
    );
    const result = JSON.parse(run('node', ['smoke.mjs'], consumer)) as { out: string[]; isErr: boolean; code: string; snap: number; names: string[] };
    // The build is minified: the classes keep their names for stack traces, inspect and devtools.
    expect(result.names).toEqual(['VfsError', 'WorkerGoneError', 'RemoteBackend', 'VfsError']);
    expect(result.out[0]).toBe('     1\thello\n     2\tworld');
    expect(result.out[1]).toMatch(/^Edited \/a\.txt: 1 replacement/);
    expect(result.out[2]).toBe('/a.txt:2:there');
    expect(result.isErr).toBe(true);
    expect(result.code).toBe('ENOENT');
    expect(result.snap).toBeGreaterThan(0);
  });

  it("in Node, agentvfs/persist has every store SPEC §12 lists, the file store included; the portable build's says it needs Node", () => {
    writeFileSync(
      join(consumer, 'persist.mjs'),
      `import { createStateBackend } from 'agentvfs';
import { createFileStore, createIndexedDBStore, createDurableObjectStore, createMemoryStore, openPersistent } from 'agentvfs/persist';
import * as fromNode from 'agentvfs/persist/node';
const file = new URL('./ws.log', import.meta.url).pathname;
const first = await openPersistent(createStateBackend(), createFileStore(file), { durability: 'immediate' });
await first.backend.writeFile('/a.txt', 'kept');
await first.backend.close();
const again = await openPersistent(createStateBackend(), fromNode.createFileStore(file));
const text = await again.backend.readText('/a.txt');
const portable = await import(new URL('./node_modules/agentvfs/dist/persist.js', import.meta.url).href);
let refused = ''; try { portable.createFileStore(file); } catch (e) { refused = e.message; }
console.log(JSON.stringify({ status: again.restored.status, text, stores: [createIndexedDBStore, createDurableObjectStore, createMemoryStore].map((f) => typeof f), refused }));`,
    );
    const result = JSON.parse(run('node', ['persist.mjs'], consumer)) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'restored', text: 'kept', stores: ['function', 'function', 'function'] });
    expect(result.refused).toMatch(/^agentvfs\/persist: createFileStore\(".*ws\.log"\) needs Node's file system.*createIndexedDBStore\(\)/);
  });

  it('every exports entry resolves and loads; an adapter without its framework says what to install', () => {
    for (const subpath of Object.keys(pkg.exports)) {
      const needs = peersOf(subpath);
      const outcome = load(subpath, consumer);
      if (needs.length === 0) expect(outcome, subpath).toMatch(/^loaded [1-9]/);
      else expect(outcome, subpath).toMatch(new RegExp(`^failed: .*npm install (${needs.map(escapeRegExp).join('|')})\\b`));
    }
  });

  it('require() loads every entry Node can load synchronously; one with top-level await says to use import()', () => {
    const script = `const out = {};
for (const s of ${JSON.stringify(Object.keys(pkg.exports).filter((s) => !s.endsWith('.json')))}) {
  try { out[s] = 'loaded ' + Object.keys(require(s === '.' ? 'agentvfs' : 'agentvfs/' + s.slice(2))).length; } catch (e) { out[s] = e.code + ': ' + e.message; }
}
console.log(JSON.stringify(out));`;
    const outcome = JSON.parse(run('node', ['--no-warnings', '-e', script], consumer)) as Record<string, string>;
    for (const [subpath, result] of Object.entries(outcome)) {
      if (peersOf(subpath).length > 0) expect(result, subpath).toMatch(/^ERR_REQUIRE_ASYNC_MODULE: .*import\(\)/);
      else if (subpath === './backend-worker')
        expect(result, subpath).toBe('loaded 0'); // a worker script: on the main thread, nothing
      else expect(result, subpath).toMatch(/^loaded [1-9]/);
    }
  });

  it('the prebuilt worker script serves a worker_threads worker (docs/worker.md)', () => {
    writeFileSync(
      join(consumer, 'thread.mjs'),
      `import { Worker } from 'node:worker_threads';
import { createTools } from 'agentvfs';
import { connect } from 'agentvfs/client';
const backend = connect(new Worker(new URL(import.meta.resolve('agentvfs/backend-worker'))), { backend: { files: { '/README.md': 'hi there' } } });
const tools = createTools(backend);
const found = await tools.call('grep', { pattern: 'there', output_mode: 'content' });
await backend.writeFile('/b.txt', 'written in the thread');
console.log(JSON.stringify({ found, text: await backend.readText('/b.txt') }));
backend.close();`,
    );
    expect(JSON.parse(run('node', ['thread.mjs'], consumer))).toEqual({ found: '/README.md:1:hi there', text: 'written in the thread' });
  });

  it('every adapter loads once its framework is installed (the pinned versions)', () => {
    const adapters = Object.keys(pkg.exports).filter((subpath) => peersOf(subpath).length > 0);
    const peers = [...new Set(adapters.flatMap(peersOf))].map((name) => `${name}@${pkg.devDependencies[name]}`);
    expect(adapters.length).toBeGreaterThan(0);
    const withPeers = join(consumer, '..', 'with-peers');
    run('mkdir', ['-p', withPeers], consumer);
    writeFileSync(join(withPeers, 'package.json'), JSON.stringify({ name: 'with-peers', private: true, type: 'module' }));
    // The registry, not only the cache: npm ci stores the frameworks' tarballs but not the metadata a fresh resolution needs.
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...peers], withPeers);
    for (const subpath of adapters) expect(load(subpath, withPeers), subpath).toMatch(/^loaded [1-9]/);

    // `agentvfs mcp` installed without the SDK (as npx installs it inside a project that has the SDK
    // already) finds the project's, from the working directory; from elsewhere it says what to add.
    const cli = join(consumer, 'node_modules/agentvfs/dist/cli.js');
    const serve = (cwd: string) =>
      spawnSync(process.execPath, [cli, 'mcp'], { cwd, input: '', encoding: 'utf8', env: { ...process.env, npm_command: 'exec' } });
    const inProject = serve(withPeers);
    expect(inProject.stderr).toBe('');
    expect(inProject.status).toBe(0);
    const elsewhere = serve(consumer);
    expect(elsewhere.status).toBe(1);
    expect(elsewhere.stderr).toBe(
      'agentvfs: agentvfs/mcp needs the package "@modelcontextprotocol/sdk", which is not installed: npm install @modelcontextprotocol/sdk (with npx: npx -p agentvfs -p @modelcontextprotocol/sdk agentvfs mcp …)\n',
    );
  }, 180_000);

  it('ships types a strict TypeScript consumer compiles against', () => {
    writeFileSync(
      join(consumer, 'use.ts'),
      `import { createStateBackend, createTools, isVfsError, type Backend, type FileInfo, type VfsErrorCode } from 'agentvfs';
import { connect, createWorkerBackend, WorkerGoneError, type RemoteBackend } from 'agentvfs/client';
import { expose } from 'agentvfs/worker';
import { createFileStore, createMemoryAdapter, persist, type FileStore } from 'agentvfs/persist';
const backend: Backend = createStateBackend({ limits: { maxFiles: 10 } });
const tools = createTools(backend);
export async function main(): Promise<string> {
  const infos: FileInfo[] = await backend.ls('/');
  const code: VfsErrorCode = 'ENOENT';
  try { await backend.stat('/x'); } catch (e) { if (isVfsError(e)) return e.code + code; }
  return (await tools.call('ls', {})) + infos.length;
}
// Every subpath's types, so that none names a module the consumer does not have (comlink is bundled).
export function remote(target: object): Promise<string> {
  const backend: RemoteBackend = connect(target, { startTimeoutMs: 1000 });
  return backend.readText('/a').catch((e: unknown) => (e instanceof WorkerGoneError ? 'gone' : String(e)));
}
export const serve = (port: object): void => expose(createStateBackend(), port, { indexWhenIdle: false });
export const worker = createWorkerBackend;
export const saved = persist(createStateBackend(), createMemoryAdapter(), { debounceMs: 10 });
export const logFile = (path: string): number => { const store: FileStore = createFileStore(path); return store.fileBytes; };
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: [] },
        files: ['use.ts'],
      }),
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    expect(() => run('node', [tsc, '-p', 'tsconfig.json'], consumer)).not.toThrow();
    // With no DOM, Node or Workers types at all (lib ES2022 alone; the default lib above has the DOM): the
    // declarations name no global those bring (a call's `signal` is agentvfs's AbortSignalLike).
    writeFileSync(
      join(consumer, 'tsconfig.es.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['ES2022'],
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    const bare = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.es.json'], { cwd: consumer, encoding: 'utf8' });
    expect(bare.stdout).toBe('');
  });

  it("types bytes as what Blob, Response and crypto take, names every dialect's tool set in a consumer's declarations, and takes options that may be undefined", () => {
    const dir = join(consumer, 'typed');
    run('mkdir', ['-p', dir], consumer);
    writeFileSync(
      join(dir, 'lib.ts'),
      `import { createStateBackend, createTools, formatDefinitions } from 'agentvfs';
import { connect, createWorkerBackend } from 'agentvfs/client';
import { expose } from 'agentvfs/worker';
import { createDurableObjectStore, createIndexedDBAdapter, createIndexedDBStore, createMemoryAdapter, openPersistent, persist, type DurableObjectStorageLike } from 'agentvfs/persist';
const backend = createStateBackend();
export const blob = async (): Promise<Blob> => new Blob([await backend.snapshot()]);
export const response = async (): Promise<Response> => new Response(await backend.readFile('/logo.png'));
export const digest = async (): Promise<ArrayBuffer> => crypto.subtle.digest('SHA-256', (await backend.read('/a')).content);
export const claude = createTools(backend, { dialect: 'anthropic' });
export const filesystem = createTools(backend, { dialect: 'mcp-filesystem' });
export const gemini = createTools(backend, { dialect: 'gemini' });
export const readOnly = createTools(backend, { permissions: { read: ['/src/**'] as const, write: [] as const } });
// Options passed on as they come, maybe undefined (exactOptionalPropertyTypes).
export const fromEnv = (cwd: string | undefined, read: string[] | undefined) =>
  createTools(createStateBackend({ cwd, files: undefined, limits: undefined }), { dialect: undefined, permissions: { read }, approve: undefined });
// Every optional property of every option type, undefined (one left out would still compile: each call sets them all).
const u = undefined;
export const everyOption = async (b: typeof backend, worker: object, storage: DurableObjectStorageLike) => {
  createStateBackend({ limits: { maxFiles: u, maxFileBytes: u, maxTotalBytes: u, maxDirectories: u, maxPathLength: u }, now: u, textCacheBytes: u });
  await b.ls('/', { respectGitIgnore: u });
  await b.glob('*', { path: u, ignoreCase: u, respectGitIgnore: u });
  await b.grep('x', { path: u, glob: u, ignoreCase: u, fixedStrings: u, maxMatches: u, maxMatchesPerFile: u, reportBinary: u, respectGitIgnore: u });
  await b.writeFile('/a', 'x', { expectedVersion: u, copy: u });
  await b.edit('/a', 'x', 'y', { replaceAll: u, expectedVersion: u });
  await b.edit('/a', { old_string: 'y', new_string: 'z', replace_all: u, oldString: u, newString: u, replaceAll: u, expectedVersion: u });
  await b.applyBatch([{ path: '/b', content: 'b', expectedVersion: u }]);
  await b.uploadFiles([['/c', new Uint8Array(1)]], { copy: u });
  await b.prepareSearch({ maxBytes: u });
  await b.restore(await b.snapshot(), { copy: u });
  await b.rename('/c', '/d', { overwrite: u });
  await b.remove('/d', { recursive: u });
  b.watch(() => {}, { path: u, glob: u, directories: u })();
  await b.merge(await b.fork(), { conflicts: u });
  const tools = createTools(b, { descriptions: { ls: u }, session: u, onEvent: u, approve: () => ({ allow: true, always: u, content: u }) });
  createTools(b, { approve: () => ({ allow: false, reason: u }) });
  await tools.run('ls', {}, { signal: u });
  formatDefinitions(tools.definitions.map((d) => ({ ...d, type: u })), 'openai-chat', { strict: u });
  connect(worker, { startTimeoutMs: u, transferInputs: u, backend: { cwd: u, files: u, limits: { maxFiles: u }, textCacheBytes: u } });
  createWorkerBackend({ startTimeoutMs: u, transferInputs: u, cwd: u, files: u, limits: u, textCacheBytes: u });
  expose(b, worker, { indexWhenIdle: u });
  const saving = { durability: u, debounceMs: u, maxWaitMs: u, ifHeld: u, onError: u };
  persist(b, createMemoryAdapter(), saving);
  await openPersistent(b, createIndexedDBStore({ database: u, key: u, indexedDB: u, IDBKeyRange: u }), saving);
  await openPersistent(b, createIndexedDBAdapter({ database: u, key: u, indexedDB: u }), saving);
  await openPersistent(b, createDurableObjectStore(storage, { prefix: u, chunkBytes: u }), saving);
};
`,
    );
    const output = strictTsc(dir, { declaration: true, emitDeclarationOnly: true, outDir: 'out', skipLibCheck: false });
    expect(output).toBe('');
    expect(readFileSync(join(dir, 'out/lib.d.ts'), 'utf8')).toContain('AnthropicToolName');
  });

  it("the adapters' options may be undefined too, for a consumer with exactOptionalPropertyTypes and the frameworks installed", () => {
    // A project of its own: the frameworks linked in would change what the tests above see.
    const dir = join(out, 'typed-adapters');
    run('mkdir', ['-p', dir], out);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'typed-adapters', private: true, type: 'module' }));
    run('npm', ['install', '--no-audit', '--no-fund', '--offline', tarball], dir);
    // As `npm install ai @langchain/core @modelcontextprotocol/sdk` would leave them (their own dependencies resolve from where they are).
    for (const name of ['ai', '@ai-sdk', '@langchain', '@modelcontextprotocol', 'zod'])
      symlinkSync(realpathSync(join(root, 'node_modules', name)), join(dir, 'node_modules', name));
    writeFileSync(
      join(dir, 'lib.ts'),
      `import { createStateBackend } from 'agentvfs';
import { aiSdkTools } from 'agentvfs/ai';
import { langchainTools } from 'agentvfs/langchain';
import { createMcpServer, mcpHandler } from 'agentvfs/mcp';
const u = undefined;
const backend = createStateBackend();
const guard = { permissions: u, approve: u, onEvent: u };
export const ai = aiSdkTools(backend, { ...guard, include: u, descriptions: { ls: u }, needsApproval: u });
export const langchain = langchainTools(backend, { ...guard, include: u, descriptions: u });
export const server = createMcpServer(backend, { ...guard, include: u, descriptions: u, name: u, version: u, instructions: u });
export const handler = mcpHandler(backend, { ...guard, sessions: u, sessionIdleMs: u, maxSessions: u, enableJsonResponse: u, allowedOrigins: u, maxRequestBytes: u });
`,
    );
    // skipLibCheck: the frameworks' own declarations fail a lib check under exactOptionalPropertyTypes (ai's
    // Tool types) or without Node's types; agentvfs's are checked in the test above.
    const output = strictTsc(dir, { noEmit: true, skipLibCheck: true });
    expect(output).toBe('');
  }, 60_000);

  it('a bundler keeps agentvfs/backend-worker, which is imported for what it does when it loads', async () => {
    const { build } = await import('esbuild');
    const result = await build({
      stdin: { contents: "import 'agentvfs/backend-worker';", resolveDir: consumer, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    expect(result.warnings.map((w) => w.text)).toEqual([]);
    expect(result.outputFiles[0]!.contents.byteLength).toBeGreaterThan(100_000);
  });
});
