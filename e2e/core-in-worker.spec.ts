/// <reference lib="dom" />
// The built core, imported as-is (no bundler, no polyfills) by a module Web
// Worker in real Chromium: the tools run and snapshots cross into the page.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

const WORKER = `
import { createStateBackend, createTools, isVfsError } from '/dist/index.js';
const backend = createStateBackend({ files: { '/src/a.ts': 'export const a = 1;\\nexport const b = 2;\\n' } });
const tools = createTools(backend);
const results = [];
for (const [name, args] of [
  ['ls', { path: '/src' }],
  ['read_file', { path: '/src/a.ts' }],
  ['edit_file', { path: '/src/a.ts', old_string: 'b = 2', new_string: 'b = 3' }],
  ['grep', { pattern: 'b = \\\\d', output_mode: 'content' }],
  ['glob', { pattern: '**/*.ts' }],
  ['grep', { pattern: '(a+)+$' }],
]) results.push(await tools.call(name, args));
let code = null;
let thrown = null;
try { await backend.readFile('/missing'); } catch (e) { code = isVfsError(e) ? e.code : 'not a VfsError'; thrown = e; }
const snapshot = await backend.snapshot();
postMessage({ results, code, thrown, snapshot }, [snapshot.buffer]);
`;

test('the core runs in a module Web Worker with no polyfills', async ({ page }) => {
  const errors = await serveDist(page, { '/worker.js': WORKER });
  const out = await page.evaluate(
    () =>
      new Promise<{ results: string[]; code: string; thrown: unknown; snapshotBytes: number; magic: string }>((resolve, reject) => {
        const worker = new Worker('/worker.js', { type: 'module' });
        worker.onerror = (e) => reject(new Error(`worker failed: ${e.message}`));
        worker.onmessage = (e) => {
          const { results, code, thrown, snapshot } = e.data as { results: string[]; code: string; thrown: unknown; snapshot: Uint8Array };
          resolve({ results, code, thrown, snapshotBytes: snapshot.byteLength, magic: String.fromCharCode(...snapshot.subarray(0, 4)) });
        };
      }),
  );
  expect(JSON.parse(out.results[0]!)).toEqual([{ name: 'a.ts', path: '/src/a.ts', is_dir: false, size: 40 }]);
  expect(out.results[1]).toBe('     1\texport const a = 1;\n     2\texport const b = 2;');
  expect(out.results[2]).toMatch(/^Edited \/src\/a\.ts: 1 replacement/);
  expect(out.results[3]).toBe('/src/a.ts:2:export const b = 3;');
  expect(out.results[4]).toBe('/src/a.ts');
  expect(out.results[5]).toMatch(/^No matches/);
  expect(out.code).toBe('ENOENT');
  // The error itself, posted as it was thrown: code and path survive Chromium's structured clone.
  expect(out.thrown).toMatchObject({ name: 'VfsError', code: 'ENOENT', path: '/missing' });
  expect(out.magic).toBe('AVFS');
  expect(out.snapshotBytes).toBeGreaterThan(40);
  expect(errors).toEqual([]);
  // Uncaught, it is named as a VfsError (not by its minified class name).
  const rejected = await page
    .evaluate(async () => {
      const { createStateBackend } = await import('/dist/index.js' as string);
      await createStateBackend().readText('/nope');
    })
    .then(
      () => 'resolved',
      (e: Error) => e.message,
    );
  expect(rejected).toMatch(/VfsError/);
});
