/// <reference lib="dom" />
// agentvfs/langchain in real Chromium: the agents (deepagents, langchain, LangGraph's browser
// entry, @langchain/core) run in the page, bundled by esbuild as a browser bundler would
// (test/deepagents/bundle.ts), and their files live in agentvfs in Web Workers (createWorkerBackend
// from the built agentvfs/client). The tasks of test/deepagents/scenario.ts run end to end.
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { bundleForBrowser } from '../test/deepagents/bundle.ts';
import { END_FILES, EXPECTED_RESULTS, FINAL_ANSWER, LANGCHAIN_CALLS, LANGCHAIN_STATUSES } from '../test/deepagents/scenario.ts';
import { serveDist } from './static-dist.ts';

interface PageResult {
  error?: string;
  outcome: unknown;
  files: Record<string, string>;
  langchain: { outcome: { results: unknown[]; final: string }; files: Record<string, string>; reference: string[] };
}

test('a deep agent and a LangChain agent in a page keep their files in agentvfs in a Web Worker', async ({ page }) => {
  const bundle = await bundleForBrowser(fileURLToPath(new URL('./deepagents-page.ts', import.meta.url)));
  const errors = await serveDist(page, { '/agents.js': bundle });
  await page.addScriptTag({ url: '/agents.js', type: 'module' });
  await page.waitForFunction(() => 'agentsResult' in window);
  const result = (await page.evaluate(() => (window as unknown as { agentsResult: Promise<unknown> }).agentsResult)) as PageResult;

  expect(result.error).toBeUndefined();
  expect(result.outcome).toEqual({ results: EXPECTED_RESULTS, final: FINAL_ANSWER, stateFiles: {} });
  expect(result.files).toEqual(END_FILES);
  const { langchain } = result;
  expect(langchain.outcome).toEqual({ results: LANGCHAIN_CALLS.map((c, i) => [c.id, LANGCHAIN_STATUSES[i], langchain.reference[i]]), final: FINAL_ANSWER });
  expect(langchain.reference[4]).toMatch(/^Error: /);
  expect(langchain.files).toEqual(END_FILES);
  expect(errors).toEqual([]);
});
