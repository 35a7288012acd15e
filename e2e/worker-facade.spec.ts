/// <reference lib="dom" />
// agentvfs/client in real Chromium: the prebuilt worker via createWorkerBackend(),
// tools running in the worker, errors crossing intact, and dead workers never hanging.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

test('createWorkerBackend runs the backend and the tools in a Web Worker', async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async () => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const { createTools, isVfsError } = await import('/dist/index.js' as string);
    const backend = createWorkerBackend({ files: { '/src/a.ts': 'export const a = 1;\n' }, limits: { maxFileBytes: 1000 } });
    const tools = createTools(backend);
    const results = [
      await tools.call('read_file', { path: '/src/a.ts' }),
      await tools.call('edit_file', { path: '/src/a.ts', old_string: 'a = 1', new_string: 'a = 2' }),
      await tools.call('write_file', { path: '/big.txt', content: 'x'.repeat(2000) }),
    ];
    let error: { code?: string; path?: string; isVfs?: boolean } = {};
    try {
      await backend.readFile('/a.ts');
    } catch (e) {
      error = { code: (e as { code: string }).code, path: (e as { path: string }).path, isVfs: isVfsError(e) };
    }
    const bytes = await backend.readFile('/src/a.ts');
    const snapshot = await backend.snapshot();
    backend.close();
    let afterClose = '';
    try {
      await backend.ls('/');
    } catch (e) {
      afterClose = `${(e as Error).name}: ${(e as Error).message}`;
    }
    return { results, error, text: new TextDecoder().decode(bytes), snapshotBytes: snapshot.byteLength, afterClose };
  });
  expect(out.results[0]).toBe('     1\texport const a = 1;');
  expect(out.results[1]).toMatch(/^Edited \/src\/a\.ts: 1 replacement/);
  expect(out.results[2]).toMatch(/^Error: ETOOBIG/);
  expect(out.error).toEqual({ code: 'ENOENT', path: '/a.ts', isVfs: true });
  expect(out.text).toBe('export const a = 2;\n');
  expect(out.snapshotBytes).toBeGreaterThan(44);
  // The cause the caller gave, not what close() did to the worker.
  expect(out.afterClose).toMatch(/^WorkerGoneError: agentvfs: the backend worker is gone \(close\(\) was called\)/);
  expect(errors).toEqual([]);
});

test('a worker that fails to load, or is terminated mid-call, rejects instead of hanging', async ({ page }) => {
  await serveDist(page, {
    '/hang.js': `import { expose } from '/dist/worker.js'; import { createStateBackend } from '/dist/index.js';
      const b = createStateBackend(); b.grep = () => new Promise(() => {}); expose(b);`,
  });
  const out = await page.evaluate(async () => {
    const { connect } = await import('/dist/client.js' as string);
    const missing = connect(new Worker('/missing.js', { type: 'module' }));
    const loadError = await missing.ls('/').then(
      () => 'resolved',
      (e: Error) => `${e.name}: ${e.message}`,
    );
    const worker = new Worker('/hang.js', { type: 'module' });
    const remote = connect(worker);
    await remote.ready;
    const pending = remote.grep('x');
    worker.terminate();
    const terminated = await pending.then(
      () => 'resolved',
      (e: Error) => `${e.name}: ${e.message}`,
    );
    return { loadError, terminated };
  });
  expect(out.loadError).toMatch(/^WorkerGoneError: .*failed/);
  expect(out.terminated).toMatch(/^WorkerGoneError: .*terminated/);
});

test('a worker that awaits before expose() is still reached; one that closes itself fails pending calls', async ({ page }) => {
  await serveDist(page, {
    // Chromium drops a message that finds no listener: the client must ping until answered.
    '/late.js': `import { expose } from '/dist/worker.js'; import { createStateBackend } from '/dist/index.js';
      await new Promise((r) => setTimeout(r, 400));
      expose(createStateBackend({ files: { '/late.txt': 'late\\n' } }));`,
    // A worker that closes itself fires no event in the page: expose() has it say so first.
    '/closing.js': `import { expose } from '/dist/worker.js'; import { createStateBackend } from '/dist/index.js';
      const b = createStateBackend(); b.grep = () => new Promise(() => {});
      b.ls = async () => { setTimeout(() => close(), 0); return []; };
      expose(b);`,
  });
  const out = await page.evaluate(async () => {
    const { connect } = await import('/dist/client.js' as string);
    const outcome = (p: Promise<unknown>) =>
      p.then(
        (v) => `resolved: ${JSON.stringify(v)}`,
        (e: Error) => `${e.name}: ${e.message}`,
      );
    const late = await outcome(connect(new Worker('/late.js', { type: 'module' }), { startTimeoutMs: 5000 }).readText('/late.txt'));
    const closing = connect(new Worker('/closing.js', { type: 'module' }));
    await closing.ready;
    const pending = outcome(closing.grep('x'));
    await closing.ls('/');
    return { late, pending: await pending, later: await outcome(closing.stat('/')) };
  });
  expect(out.late).toBe('resolved: "late\\n"');
  expect(out.pending).toMatch(/^WorkerGoneError: .*closed itself/);
  expect(out.later).toMatch(/^WorkerGoneError: .*closed itself/);
});
