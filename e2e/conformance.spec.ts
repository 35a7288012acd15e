/// <reference lib="dom" />
// The conformance suite in real Chromium, from the built package: every case against a backend
// in a Web Worker (e2e/conformance-page.ts), so the contract, every tool dialect's included, is
// checked over that transport too. The page is cross-origin isolated, as manualClock()'s shared
// memory needs. The tool dialects, apply_patch and sessions get a test each, the rest one.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';
import type { CaseOutcome } from './conformance-page.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The page script with the built package (the suites' imports of src/index.ts too) and the Vitest stand-in. */
async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./conformance-page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'agentvfs-conformance-page',
        setup(b) {
          b.onResolve({ filter: /^vitest$/ }, () => ({ path: `${root}test/workerd/no-compat/mini-vitest.ts` }));
          b.onResolve({ filter: /^agentvfs(\/client)?$/ }, (args) => ({ path: `${root}dist/${args.path === 'agentvfs' ? 'index' : 'client'}.js` }));
          b.onResolve({ filter: /\/src\/index\.ts$/ }, () => ({ path: `${root}dist/index.js` }));
          b.onResolve({ filter: /^node:/ }, (args) => ({ errors: [{ text: `Node built-in "${args.path}" imported by ${args.importer}` }] }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

// A backend whose clock the page moves: the built core and agentvfs/worker, served from /dist/.
const CLOCK_WORKER = `
import { createStateBackend } from '/dist/index.js';
import { expose } from '/dist/worker.js';
self.addEventListener('message', (e) => {
  const { options, clock } = e.data;
  expose(createStateBackend({ ...options, now: () => clock[0] }), self);
}, { once: true });
`;

// The suites (describe names) with a test of their own, and their case counts when this was
// written (a run with fewer lost cases on the way); the last test runs every other case.
const PARTS: [prefix: string, atLeast: number][] = [
  ["'openai' dialect: apply_patch (SPEC §8)", 57],
  ['dialect and session options', 4],
  ["dialect 'anthropic'", 5],
  ["dialect 'gemini'", 104],
  ["dialect 'mcp-filesystem'", 2],
];
const REST_AT_LEAST = 182;

let source: Promise<string> | undefined;
async function openPage(page: import('@playwright/test').Page): Promise<string[]> {
  source ??= bundle();
  const errors = await serveDist(page, { '/suites.js': await source, '/clock-worker.js': CLOCK_WORKER }, { crossOriginIsolated: true });
  await page.evaluate(() => import('/suites.js' as string));
  return errors;
}

test('the page is cross-origin isolated and reports a failing assertion as a failure', async ({ page }) => {
  await openPage(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  const message = await page.evaluate(() => (globalThis as unknown as { conformance: { selftest(): string | null } }).conformance.selftest());
  expect(message).toBe('expected 1 to be 2 // Object.is equality');
});

type Run = (prefixes: readonly string[], except?: boolean) => Promise<CaseOutcome[]>;

async function runInPage(page: import('@playwright/test').Page, prefixes: readonly string[], except: boolean, atLeast: number): Promise<void> {
  // Hundreds of cases, each a few round trips to the worker: ~25 s alone, over 60 s on a machine
  // busy with other test runs. The limit only stops a hang.
  test.setTimeout(240_000);
  const errors = await openPage(page);
  const outcomes = await page.evaluate(([p, e]) => (globalThis as unknown as { conformance: { run: Run } }).conformance.run(p, e), [prefixes, except] as const);
  expect(outcomes.length, `${outcomes.length} cases`).toBeGreaterThanOrEqual(atLeast);
  expect(outcomes.filter((o) => !o.ok)).toEqual([]);
  expect(errors).toEqual([]);
}

for (const [prefix, atLeast] of PARTS) {
  test(`${prefix}: every case passes with the backend in a Web Worker`, ({ page }) => runInPage(page, [prefix], false, atLeast));
}

test('the rest of the conformance suite: every case passes with the backend in a Web Worker', ({ page }) =>
  runInPage(
    page,
    PARTS.map(([prefix]) => prefix),
    true,
    REST_AT_LEAST,
  ));
