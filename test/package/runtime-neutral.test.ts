// The built core must load where there is no Node: no `node:*` or bare built-in
// import may remain in dist, and it must not touch Node-only globals at load.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const dist = join(import.meta.dirname, '../../dist');
const BUILTINS = ['assert', 'buffer', 'child_process', 'crypto', 'events', 'fs', 'os', 'path', 'process', 'stream', 'url', 'util', 'worker_threads'];

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => join(e.parentPath, e.name));
}

describe('built core is runtime-neutral', () => {
  it('has no node: or bare built-in imports', () => {
    const files = jsFiles(dist);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toMatch(/["']node:[a-z_/]+["']/);
      for (const name of BUILTINS) {
        expect(code, `${file} imports ${name}`).not.toMatch(new RegExp(`(?:from|import|require)\\s*\\(?\\s*["']${name}["']`));
      }
    }
  });

  it('evaluates and works in a bare JS realm without process, Buffer, require or DOM', async () => {
    // Rewrite the ESM bundle into a function body: its only syntax outside plain JS is the final export list.
    const code = readFileSync(join(dist, 'index.js'), 'utf8');
    const exportList = code.match(/export\s*\{([^}]*)\};?\s*(?:\/\/# sourceMappingURL=.*)?$/);
    expect(exportList, 'dist/index.js ends with one export list').not.toBeNull();
    if (/^\s*import\s/m.test(code)) throw new Error('dist/index.js has imports');
    const pairs = exportList![1]!.split(',').map((p) => p.trim().split(/\s+as\s+/));
    const body = `${code.slice(0, exportList!.index)}\nreturn {${pairs.map(([local, exported]) => `${JSON.stringify(exported ?? local)}: ${local}`).join(',')}};`;
    const sandbox = { TextEncoder, TextDecoder, URL, queueMicrotask, console };
    const api = runInNewContext(`(function(){${body}})()`, sandbox) as typeof import('../../src/index.ts');
    expect(runInNewContext('typeof process + typeof Buffer + typeof require + typeof window', sandbox)).toBe('undefinedundefinedundefinedundefined');
    const backend = api.createStateBackend({ files: { '/a/b.txt': 'x\ny\n' } });
    const tools = api.createTools(backend);
    expect(await tools.call('read_file', { path: '/a/b.txt' })).toBe('     1\tx\n     2\ty');
    expect(await tools.call('grep', { pattern: 'y', output_mode: 'count' })).toBe('/a/b.txt:1');
    const copy = api.createStateBackend();
    await copy.restore(await backend.snapshot());
    expect(await copy.readText('/a/b.txt')).toBe('x\ny\n');
  });
});
