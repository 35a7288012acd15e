// examples/cloudflare as `wrangler deploy` would ship it (wrangler's own dry-run bundle),
// in workerd WITHOUT nodejs_compat, across a real restart of workerd with the Durable
// Object's storage on disk.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { bundleExample } from '../../../examples/cloudflare/scripts/bundle.mjs';

const work = mkdtempSync(join(tmpdir(), 'agentvfs-cf-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bundle = (bundleExample as (outdir: string) => { path: string; bytes: number; gzip: number })(join(work, 'bundle'));

function start(): Miniflare {
  return new Miniflare({
    compatibilityDate: '2026-04-01',
    compatibilityFlags: [],
    modules: [{ type: 'ESModule', path: 'index.js', contents: readFileSync(bundle.path, 'utf8') }],
    durableObjects: { SESSIONS: 'AgentFsSession' },
    durableObjectsPersist: join(work, 'storage'),
    bindings: { MAX_BODY_BYTES: '1048576' },
  });
}

async function post(mf: Miniflare, path: string, body: unknown) {
  const res = await mf.dispatchFetch(`http://example.test${path}`, { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('the example bundled by wrangler, in workerd without nodejs_compat', () => {
  it('is one self-contained module with no Node built-in import', () => {
    const code = readFileSync(bundle.path, 'utf8');
    expect(code).not.toMatch(/\bfrom\s*["']node:|\brequire\(["']node:|\bimport\(["']node:/);
    expect(code).toMatch(/\bAgentFsSession = class extends DurableObject\b/);
    expect(bundle.gzip).toBeGreaterThan(0);
  });

  it('serves the tools and keeps every acknowledged write across a restart of workerd', async () => {
    let mf = start();
    try {
      const created = await post(mf, '/sessions', { id: 'restart-me', files: { '/notes.md': '# notes\n' } });
      expect(created.status).toBe(201);
      expect((await post(mf, '/sessions/restart-me/tools/read_file', { path: '/notes.md' })).json.result).toBe('     1\t# notes');
      const edit = await post(mf, '/sessions/restart-me/tools/edit_file', { path: '/notes.md', old_string: '# notes', new_string: '# saved notes' });
      expect(edit.json).toMatchObject({ is_error: false, generation: 2 });
    } finally {
      await mf.dispose();
    }
    mf = start();
    try {
      expect((await post(mf, '/sessions/restart-me/tools/grep', { pattern: 'saved', output_mode: 'content' })).json.result).toBe('/notes.md:1:# saved notes');
      const unknown = await post(mf, '/sessions/restart-me/tools/execute', {});
      expect([unknown.status, (unknown.json.error as { code: string }).code]).toEqual([404, 'UNKNOWN_TOOL']);
    } finally {
      await mf.dispose();
    }
  });
});
