/// <reference lib="dom" />
// A snapshot taken in Node restores in a Chromium Web Worker, and the reverse.
import { expect, test } from '@playwright/test';
import { createStateBackend } from '../dist/index.js';
import { serveDist } from './static-dist.ts';

test('Node → Chromium worker → Node', async ({ page }) => {
  const errors = await serveDist(page);
  const node = createStateBackend({ now: () => 1_234_567.25 });
  await node.writeFile('/from-node/ünï.txt', 'héllo\r\n');
  await node.writeFile(
    '/from-node/bytes.bin',
    Uint8Array.from({ length: 256 }, (_, i) => 255 - i),
  );
  const fromNode = [...(await node.snapshot())];

  const fromBrowser = await page.evaluate(async (bytes: number[]) => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const backend = createWorkerBackend();
    await backend.restore(new Uint8Array(bytes));
    const seen = {
      text: await backend.readText('/from-node/ünï.txt'),
      bin: [...(await backend.readFile('/from-node/bytes.bin'))].slice(0, 3),
      mtime: (await backend.stat('/from-node/ünï.txt')).mtimeMs,
    };
    await backend.writeFile('/from-browser.txt', 'made in chromium');
    const snapshot = [...(await backend.snapshot())];
    backend.close();
    return { seen, snapshot };
  }, fromNode);

  expect(fromBrowser.seen).toEqual({ text: 'héllo\r\n', bin: [255, 254, 253], mtime: 1_234_567.25 });
  const back = createStateBackend();
  await back.restore(new Uint8Array(fromBrowser.snapshot));
  expect(await back.readText('/from-browser.txt')).toBe('made in chromium');
  expect([...(await back.readFile('/from-node/bytes.bin'))]).toEqual([...(await node.readFile('/from-node/bytes.bin'))]);
  expect(errors).toEqual([]);
});
