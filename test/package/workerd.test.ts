// The built core inside workerd (Cloudflare's runtime, via Miniflare), offline,
// with and without the nodejs_compat flag: no polyfill configuration needed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';

// The core entry and the shared chunks it imports, as a deployed Worker bundle would carry them.
const dist = join(import.meta.dirname, '../../dist');
const builtModules = readdirSync(dist, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.js') && (e.name === 'index.js' || e.parentPath.endsWith('chunks')))
  .map((e) => ({ type: 'ESModule' as const, path: relative(dist, join(e.parentPath, e.name)), contents: readFileSync(join(e.parentPath, e.name), 'utf8') }));

const WORKER = `
import { createStateBackend, createTools, isVfsError } from './index.js';
export default {
  async fetch() {
    const backend = createStateBackend({ files: { '/a.txt': 'alpha\\nbeta\\n' } });
    const tools = createTools(backend);
    const results = [
      await tools.call('read_file', { path: '/a.txt' }),
      await tools.call('edit_file', { path: '/a.txt', old_string: 'beta', new_string: 'gamma' }),
      await tools.call('grep', { pattern: 'g.mma', output_mode: 'content' }),
      await tools.call('grep', { pattern: '(x+x+)+y' }),
    ];
    let code = null;
    try { await backend.stat('/nope'); } catch (e) { code = isVfsError(e) ? e.code : String(e); }
    const copy = createStateBackend();
    await copy.restore(await backend.snapshot());
    return Response.json({ results, code, restored: await copy.readText('/a.txt') });
  },
};`;

describe.each([[[] as string[]], [['nodejs_compat']]])('built core in workerd, compatibility flags %j', (flags) => {
  it('runs the tools and a snapshot round trip', async () => {
    const mf = new Miniflare({
      compatibilityDate: '2026-04-01',
      compatibilityFlags: flags,
      modules: [{ type: 'ESModule', path: 'worker.js', contents: WORKER }, ...builtModules],
    });
    try {
      const res = await mf.dispatchFetch('http://localhost/');
      const body = (await res.json()) as { results: string[]; code: string; restored: string };
      expect(body.results[0]).toBe('     1\talpha\n     2\tbeta');
      expect(body.results[1]).toMatch(/^Edited \/a\.txt: 1 replacement/);
      expect(body.results[2]).toBe('/a.txt:2:gamma');
      expect(body.results[3]).toMatch(/^No matches/);
      expect(body.code).toBe('ENOENT');
      expect(body.restored).toBe('alpha\ngamma\n');
    } finally {
      await mf.dispose();
    }
  });
});
