/// <reference lib="dom" />
// createDeepAgent over AgentvfsBackend in real Chromium: the agent (deepagents, LangGraph's browser
// entry, @langchain/core) runs in the page, bundled by esbuild as a browser bundler would
// (test/deepagents/bundle.ts), and its files live in agentvfs in a Web Worker (createWorkerBackend
// from the built agentvfs/client). The task of test/deepagents/scenario.ts runs end to end.
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { bundleForBrowser } from '../test/deepagents/bundle.ts';
import { END_FILES, EXPECTED_RESULTS, FINAL_ANSWER } from '../test/deepagents/scenario.ts';
import { serveDist } from './static-dist.ts';

test('a deep agent in a page keeps its files in agentvfs in a Web Worker', async ({ page }) => {
  const bundle = await bundleForBrowser(fileURLToPath(new URL('./deepagents-page.ts', import.meta.url)));
  const errors = await serveDist(page, { '/deepagents.js': bundle });
  await page.addScriptTag({ url: '/deepagents.js', type: 'module' });
  await page.waitForFunction(() => 'deepagentsResult' in window);
  const result = await page.evaluate(() => (window as unknown as { deepagentsResult: Promise<unknown> }).deepagentsResult);

  expect(result).toEqual({ outcome: { results: EXPECTED_RESULTS, final: FINAL_ANSWER, stateFiles: {} }, files: END_FILES });
  expect(errors).toEqual([]);
});
