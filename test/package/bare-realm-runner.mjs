// Loads dist/index.js and its chunks as ES modules inside a fresh V8 context that has
// only web-standard globals (no process, Buffer, require, DOM), then runs `main` there.
// Run with: node --experimental-vm-modules bare-realm-runner.mjs
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import vm from 'node:vm';

const dist = resolve(import.meta.dirname, '../../dist');
const context = vm.createContext({ TextEncoder, TextDecoder, URL, queueMicrotask, console });
const modules = new Map();

function load(file) {
  let mod = modules.get(file);
  if (!mod) {
    mod = new vm.SourceTextModule(readFileSync(file, 'utf8'), { context, identifier: file });
    modules.set(file, mod);
  }
  return mod;
}

const main = new vm.SourceTextModule(
  `import { createStateBackend, createTools, isVfsError } from './index.js';
  const globalsSeen = [typeof process, typeof Buffer, typeof require, typeof window, typeof document].join(',');
  const backend = createStateBackend({ files: { '/a/b.txt': 'x\\ny\\n' } });
  const tools = createTools(backend);
  const results = [
    await tools.call('read_file', { path: '/a/b.txt' }),
    await tools.call('grep', { pattern: 'y', output_mode: 'count' }),
    await tools.call('grep', { pattern: '(a+)+$' }),
  ];
  const copy = createStateBackend();
  await copy.restore(await backend.snapshot());
  let code; try { await copy.stat('/nope'); } catch (e) { code = isVfsError(e) && e.code; }
  globalThis.result = JSON.stringify({ globalsSeen, results, restored: await copy.readText('/a/b.txt'), code });`,
  { context, identifier: join(dist, 'main.js') },
);
await main.link((specifier, referrer) => load(resolve(dirname(referrer.identifier), specifier)));
await main.evaluate();
console.log(vm.runInContext('result', context));
