/// <reference lib="dom" />
// With 'debounced' saves, a page that is hidden (switched away from, minimized, or about to be
// discarded: on phones the last event a page reliably gets) saves what waits at once, in a
// worker's backend too, instead of after a debounce that may never come.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

for (const worker of [false, true]) {
  test(`a hidden page saves the writes its debounce holds (${worker ? 'backend in a worker' : 'in process'})`, async ({ page }) => {
    const errors = await serveDist(page);
    const database = `hidden-${worker}`;
    await page.evaluate(
      async ([worker, database]) => {
        const { createStateBackend } = await import('/dist/index.js' as string);
        const { createWorkerBackend } = await import('/dist/client.js' as string);
        const { createIndexedDBStore, openPersistent } = await import('/dist/persist.js' as string);
        // A debounce no test waits for: only the page being hidden can start the save.
        const ws = await openPersistent(worker ? createWorkerBackend() : createStateBackend(), createIndexedDBStore({ database }), {
          debounceMs: 600_000,
          maxWaitMs: 600_000,
        });
        await ws.backend.writeFile('/late.txt', 'late');
      },
      [worker, database] as const,
    );
    const saved = () =>
      page.evaluate(async (database) => {
        const { createIndexedDBStore } = await import('/dist/persist.js' as string);
        return [...(await createIndexedDBStore({ database }).readAll()).keys()].some((key) => key.includes('/late.txt'));
      }, database);
    expect(await saved()).toBe(false);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(saved).toBe(true);
    expect(errors).toEqual([]);
  });
}
