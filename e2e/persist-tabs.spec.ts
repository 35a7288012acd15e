/// <reference lib="dom" />
// Two tabs on one IndexedDB workspace: one writes at a time (Web Locks); the other is refused
// with an error that says why, or follows the writer's commits (BroadcastChannel) read-only and
// takes over once the writer closes.
import { expect, type Page, test } from '@playwright/test';
import { CHROMIUM } from '../scripts/chromium.mjs';
import { ORIGIN, serveDist } from './static-dist.ts';

// Web Locks exist only in secure contexts: the test's made-up origin is declared one, as https or localhost would be.
test.use({ launchOptions: { ...CHROMIUM, args: [...CHROMIUM.args, `--unsafely-treat-insecure-origin-as-secure=${ORIGIN}`] } });

type Win = { ws?: { backend: { [k: string]: (...a: unknown[]) => Promise<unknown> } & { writable: boolean } } };

async function open(page: Page, ifHeld?: 'follow'): Promise<string> {
  return page.evaluate(async (ifHeld) => {
    const { createStateBackend } = await import('/dist/index.js' as string);
    const { createIndexedDBStore, openPersistent } = await import('/dist/persist.js' as string);
    try {
      (window as Win).ws = await openPersistent(createStateBackend(), createIndexedDBStore({ database: 'tabs' }), { durability: 'immediate', ifHeld });
      return 'opened';
    } catch (error) {
      return (error as Error).message;
    }
  }, ifHeld);
}
const call = (page: Page, method: string, ...args: unknown[]) =>
  page.evaluate(
    async ([method, args]) => {
      const backend = (window as Win).ws!.backend;
      try {
        return { ok: await backend[method as string]!(...(args as unknown[])) };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
    [method, args] as const,
  );
const writable = (page: Page) => page.evaluate(() => (window as Win).ws!.backend.writable);

test('a second tab is refused, or follows the writer and takes over when it closes', async ({ browser }) => {
  const context = await browser.newContext();
  const [a, b] = [await context.newPage(), await context.newPage()];
  const errors = [...(await serveDist(a)), ...(await serveDist(b))];

  expect(await open(a)).toBe('opened');
  expect(await call(a, 'writeFile', '/a.txt', 'from A')).toHaveProperty('ok');
  expect(await open(b)).toBe(
    `agentvfs/persist: another tab or worker holds workspace "default" in IndexedDB database "tabs". Close it there, or open with { ifHeld: 'follow' } to follow its changes read-only.`,
  );

  expect(await open(b, 'follow')).toBe('opened');
  expect(await writable(b)).toBe(false);
  expect(await call(b, 'readText', '/a.txt')).toEqual({ ok: 'from A' });
  expect((await call(b, 'writeFile', '/lost.txt', 'x')).error).toMatch(/holds workspace "default" .*this tab follows its changes and cannot write/);

  // A's later commits reach B.
  await call(a, 'writeFile', '/dir/b.txt', 'B by A');
  await call(a, 'remove', '/a.txt');
  await expect.poll(() => call(b, 'readText', '/dir/b.txt')).toEqual({ ok: 'B by A' });
  await expect.poll(() => call(b, 'exists', '/a.txt')).toEqual({ ok: false });

  // A closes: B takes over, writes, and what it writes is what the workspace holds.
  await call(a, 'close');
  await expect.poll(() => writable(b)).toBe(true);
  expect(await call(b, 'writeFile', '/c.txt', 'by B')).toHaveProperty('ok');
  expect(await open(a, 'follow')).toBe('opened');
  expect(await call(a, 'readText', '/c.txt')).toEqual({ ok: 'by B' });
  expect(await call(a, 'readText', '/dir/b.txt')).toEqual({ ok: 'B by A' });
  expect(await writable(a)).toBe(false);
  expect(errors).toEqual([]);
  await context.close();
});
