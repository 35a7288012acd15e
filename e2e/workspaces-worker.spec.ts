/// <reference lib="dom" />
// watch, fork and merge through a real Web Worker in Chromium (the prebuilt worker via
// createWorkerBackend): events reach the page before each call's answer, forks live in the
// worker, and terminating the worker stops everything without a hang or a throw.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

test('watch, fork and merge through a Web Worker; termination stops them cleanly', async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async () => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const { createTools } = await import('/dist/index.js' as string);
    const backend = createWorkerBackend({ files: { '/a.txt': 'one\ntwo\nthree\n' } });
    const batches: Array<Array<{ type: string; path: string }>> = [];
    const stop = backend.watch((events: Array<{ type: string; path: string }>) => batches.push(events.map((e) => ({ type: e.type, path: e.path }))));
    await backend.writeFile('/b.txt', 'b');
    const seenBeforeAnswer = batches.length; // the events came before the call's answer
    const fork = await backend.fork();
    const forkEvents: string[] = [];
    fork.watch((events: Array<{ type: string; path: string }>) => forkEvents.push(...events.map((e) => `${e.type} ${e.path}`)));
    const tools = createTools(fork);
    await tools.run('read_file', { path: '/a.txt' });
    await tools.run('edit_file', { path: '/a.txt', old_string: 'three', new_string: 'THREE' });
    await backend.edit('/a.txt', 'one', 'ONE');
    const merged = await backend.merge(fork);
    const text = await backend.readText('/a.txt');
    backend.close(); // terminates the worker
    let after = '';
    try {
      await fork.readText('/a.txt');
    } catch (e) {
      after = (e as Error).name;
    }
    let stopThrew = false;
    try {
      stop();
    } catch {
      stopThrew = true;
    }
    return { batches, seenBeforeAnswer, forkEvents, merged: merged.merged, conflicts: merged.conflicts.length, text, after, stopThrew };
  });
  expect(out.seenBeforeAnswer).toBe(1);
  expect(out.batches).toEqual([[{ type: 'create', path: '/b.txt' }], [{ type: 'modify', path: '/a.txt' }], [{ type: 'modify', path: '/a.txt' }]]);
  expect(out.forkEvents).toEqual(['modify /a.txt']);
  expect(out.merged).toEqual(['/a.txt']);
  expect(out.conflicts).toBe(0);
  expect(out.text).toBe('ONE\ntwo\nTHREE\n');
  expect(out.after).toBe('WorkerGoneError');
  expect(out.stopThrew).toBe(false);
  expect(errors).toEqual([]);
});
