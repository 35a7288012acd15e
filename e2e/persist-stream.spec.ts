/// <reference lib="dom" />
// Persistence in real Chromium IndexedDB: a steady stream of writes is saved while it goes on
// (debounced saves have a maximum wait), and immediate saves commit with durability 'strict'.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

test('debounced: a steady stream of writes is saved while it keeps coming (maxWaitMs)', async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async () => {
    const { createStateBackend } = await import('/dist/index.js' as string);
    const { createIndexedDBAdapter, openPersistent } = await import('/dist/persist.js' as string);
    const database = `stream-${Math.random()}`;
    const { backend } = await openPersistent(createStateBackend(), createIndexedDBAdapter({ database }), { debounceMs: 300, maxWaitMs: 400 });
    const observer = createIndexedDBAdapter({ database });
    const reader = createStateBackend();
    const savedCounts = new Set<number>();
    // One write every 20 ms: the 300 ms debounce alone never fires while this runs.
    for (let i = 0; i < 150 && savedCounts.size < 3; i++) {
      await backend.writeFile(`/stream/${i}.txt`, `write ${i}\n`);
      await new Promise((r) => setTimeout(r, 20));
      const bytes = await observer.load();
      if (!bytes) continue;
      await reader.restore(bytes);
      const saved = await reader.ls('/stream');
      // Whatever was saved is whole: every file has exactly what was written.
      for (const entry of saved) {
        const n = Number(entry.name.replace('.txt', ''));
        if ((await reader.readText(entry.path)) !== `write ${n}\n`) throw new Error(`partial file ${entry.path}`);
      }
      savedCounts.add(saved.length);
    }
    await backend.close();
    return { distinctSaves: savedCounts.size };
  });
  // Without a maximum wait nothing would be saved until the stream stopped.
  expect(out.distinctSaves).toBeGreaterThanOrEqual(2);
  expect(errors).toEqual([]);
});

test("immediate: each write resolves after a 'strict' IndexedDB commit another connection sees", async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async () => {
    const { createStateBackend } = await import('/dist/index.js' as string);
    const { createIndexedDBAdapter, openPersistent } = await import('/dist/persist.js' as string);
    const database = `strict-${Math.random()}`;
    const { backend } = await openPersistent(createStateBackend(), createIndexedDBAdapter({ database }), { durability: 'immediate' });
    const reader = createStateBackend();
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      await backend.writeFile('/log.txt', `entry ${i}\n`);
      await reader.restore((await createIndexedDBAdapter({ database }).load())!);
      seen.push(await reader.readText('/log.txt'));
    }
    return seen;
  });
  expect(out).toEqual(['entry 0\n', 'entry 1\n', 'entry 2\n', 'entry 3\n', 'entry 4\n']);
  expect(errors).toEqual([]);
});
