/// <reference lib="dom" />
// The IndexedDB connection a workspace store opens, seen from other tabs: a refused open lets it go
// (so another tab's delete or upgrade is not blocked for ever), an open that an older connection
// blocks is refused with a reason (not left waiting), and bytes already transferred away are
// named as such through a worker. No step waits on a clock: each waits for an event or a result.
import { expect, type Page, test } from '@playwright/test';
import { CHROMIUM } from '../scripts/chromium.mjs';
import { ORIGIN, serveDist } from './static-dist.ts';

// Web Locks exist only in secure contexts: the test's made-up origin is declared one.
test.use({ launchOptions: { ...CHROMIUM, args: [...CHROMIUM.args, `--unsafely-treat-insecure-origin-as-secure=${ORIGIN}`] } });

type Win = { ws?: { backend: { close(): Promise<void>; writeFile(p: string, d: string): Promise<unknown> } } };

const open = (page: Page, database: string) =>
  page.evaluate(async (database) => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const { createIndexedDBStore, openPersistent } = await import('/dist/persist.js' as string);
    const remote = createWorkerBackend();
    try {
      (window as Win).ws = await openPersistent(remote, createIndexedDBStore({ database }), { durability: 'immediate' });
      return 'opened';
    } catch (error) {
      remote.close();
      return (error as Error).message;
    }
  }, database);

test('a refused second open lets the database go: another tab can delete it once the holder closes', async ({ browser }) => {
  const context = await browser.newContext();
  const [a, b] = [await context.newPage(), await context.newPage()];
  const errors = [...(await serveDist(a)), ...(await serveDist(b))];

  expect(await open(a, 'refused')).toBe('opened');
  await a.evaluate(() => (window as Win).ws!.backend.writeFile('/a.txt', 'x'));
  expect(await open(b, 'refused')).toMatch(/another tab or worker holds workspace "default" in IndexedDB database "refused"/);

  // B deletes the database: blocked while A holds it; once A closes, nothing may hold it any more.
  await b.evaluate(() => {
    const w = window as unknown as { deleted: Promise<string>; blocked: Promise<void> };
    let blocked!: () => void;
    w.blocked = new Promise<void>((r) => (blocked = r));
    w.deleted = new Promise<string>((resolve) => {
      const request = indexedDB.deleteDatabase('refused');
      request.onblocked = () => blocked();
      request.onsuccess = () => resolve('deleted');
      request.onerror = () => resolve(`error: ${request.error?.message}`);
    });
  });
  await b.evaluate(() => (window as unknown as { blocked: Promise<void> }).blocked);
  await a.evaluate(() => (window as Win).ws!.backend.close());
  // Before the fix, B's refused open kept its own connection, and this never settled.
  expect(await b.evaluate(() => (window as unknown as { deleted: Promise<string> }).deleted)).toBe('deleted');
  expect(errors).toEqual([]);
});

test('an open blocked by a connection at an older version is refused with a reason, not left waiting', async ({ browser }) => {
  const context = await browser.newContext();
  const [a, b] = [await context.newPage(), await context.newPage()];
  const errors = [...(await serveDist(a)), ...(await serveDist(b))];

  // B holds the database at version 1 (what an earlier snapshot adapter opened) and never closes it.
  await b.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const request = indexedDB.open('older', 1);
        request.onupgradeneeded = () => request.result.createObjectStore('snapshots');
        request.onsuccess = () => {
          (window as unknown as { held: IDBDatabase }).held = request.result;
          resolve();
        };
      }),
  );
  expect(await open(a, 'older')).toBe(
    'agentvfs/persist: could not open IndexedDB database "older": another connection holds it open at an older version (another tab, or code of this page) and does not close; close that tab or connection, then open again.',
  );
  // Once B lets it go, the workspace opens.
  await b.evaluate(() => (window as unknown as { held: IDBDatabase }).held.close());
  expect(await open(a, 'older')).toBe('opened');
  await a.evaluate(() => (window as Win).ws!.backend.close());
  expect(errors).toEqual([]);
});

test('bytes already transferred away are named as such through a worker (transferInputs: true)', async ({ page }) => {
  const errors = await serveDist(page);
  const result = await page.evaluate(async () => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const backend = createWorkerBackend({ transferInputs: true });
    const bytes = new Uint8Array([1, 2, 3]);
    await backend.writeFile('/a.bin', bytes); // moved: `bytes` is empty now
    const message = await backend.writeFile('/b.bin', bytes).then(
      () => 'written',
      (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
    );
    const exists = await backend.exists('/b.bin');
    backend.close();
    return { message, exists, length: bytes.length };
  });
  expect(result).toEqual({
    message:
      'EINVAL: the bytes given to writeFile are detached (their ArrayBuffer was transferred: with transferInputs: true, an array you passed before is empty afterwards); pass bytes you still hold.',
    exists: false,
    length: 0,
  });
  expect(errors).toEqual([]);
});
