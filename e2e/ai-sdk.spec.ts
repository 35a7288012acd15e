// agentvfs/ai in real Chromium: the page runs generateText and streamText with the AI SDK's mock
// model, the backend in a Web Worker. The page script is bundled from the built dist/ and `ai`.
import { build, type Plugin } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { END_FILES, FINAL_TEXT, NEVER_WRITTEN } from '../test/ai/scenario.ts';
import { serveDist } from './static-dist.ts';

const root = join(import.meta.dirname, '..');
let bundle = '';
const swapped = new Set<string>();

// The package as a user gets it: the page's imports of an entry's sources resolve to the built file.
const BUILT: Record<string, string> = {
  [join(root, 'src/index.ts')]: join(root, 'dist/index.js'),
  [join(root, 'src/ai/index.ts')]: join(root, 'dist/ai.js'),
  [join(root, 'src/client/index.ts')]: join(root, 'dist/client.js'),
};
const useBuilt: Plugin = {
  name: 'agentvfs-built',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/src\// }, ({ path, importer }) => {
      const built = BUILT[resolve(dirname(importer), path)];
      if (!built) throw new Error(`the page imports ${path}, which is not a package entry`);
      swapped.add(built);
      return { path: built };
    });
  },
};

test.beforeAll(async () => {
  const out = await build({
    entryPoints: [join(import.meta.dirname, 'ai-sdk-page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    plugins: [useBuilt],
  });
  bundle = out.outputFiles[0]!.text;
  expect([...swapped].sort()).toEqual(Object.values(BUILT).sort());
});

for (const mode of ['generate', 'stream'] as const) {
  test(`${mode === 'generate' ? 'generateText' : 'streamText'} runs a tool loop over a backend in a Web Worker`, async ({ page }) => {
    const errors = await serveDist(page, { '/page.js': bundle });
    await page.addScriptTag({ url: '/page.js', type: 'module' });
    await page.waitForFunction(() => 'runLoop' in globalThis);
    const out = await page.evaluate((m) => (globalThis as unknown as { runLoop(mode: string): Promise<Record<string, unknown>> }).runLoop(m), mode);

    expect(out.text).toBe(FINAL_TEXT);
    expect(out.files).toEqual(END_FILES);
    expect(out.written).toEqual(NEVER_WRITTEN.map(() => false));
    expect(out.seen).toEqual([{}, ...(out.expected as unknown[])]);
    // The reference saw real results, failures among them: the comparison is not of empty lists.
    expect(JSON.stringify(out.expected)).toContain('"type":"error-text","value":"Error:');
    expect(errors).toEqual([]);
  });
}
