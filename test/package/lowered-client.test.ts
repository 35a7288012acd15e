// The client as a bundler targeting older browsers ships it: Vite 7's default target (Safari 16)
// lowers class private fields, which must not change what goes to the worker.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'agentvfs-lowered-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the client bundled for Safari 16 (private fields lowered)', () => {
  it('backend methods, tools and snapshots work through the worker', async () => {
    const { build } = await import('esbuild');
    const out = join(work, 'client.mjs');
    const result = await build({
      stdin: { contents: "export { connect, createTools } from './dist/client.js';", resolveDir: root, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'safari16',
      write: false,
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('__privateGet'); // the lowering this test is about did happen
    writeFileSync(out, code);
    const { connect, createTools } = (await import(pathToFileURL(out).href)) as typeof import('../../src/client/index.ts');
    const remote = connect(new Worker(join(root, 'dist/backend-worker.js')), { backend: { files: { '/a.txt': 'hello\n' } } });
    try {
      expect(await remote.readText('/a.txt')).toBe('hello\n');
      await remote.writeFile('/b.txt', 'b\n');
      const snapshot = await remote.snapshot();
      await remote.restore(snapshot);
      expect((await remote.glob('**/*')).sort()).toEqual(['/a.txt', '/b.txt']); // (newest first)
      expect(await createTools(remote).call('grep', { pattern: 'hello', output_mode: 'content' })).toBe('/a.txt:1:hello');
    } finally {
      remote.close();
    }
  });
});
