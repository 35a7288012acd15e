/// <reference lib="dom" />
// The 'openai' dialect in real Chromium, from the built package: in a module Web Worker (the core
// as-is), and from a page whose backend is the prebuilt worker (createWorkerBackend), where the
// dialect and a shared session cross to the worker with each call.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

interface Result {
  text: string;
  isError: boolean;
  code?: string;
  changed: unknown[];
}
interface WorkerOut {
  ok: Result;
  bad: Result;
  a: string;
  x: boolean;
  old: boolean;
}

const PATCH =
  '*** Begin Patch\n*** Add File: notes/todo.md\n+- ship\n*** Update File: src/a.ts\n@@\n-export const b = 2;\n+export const b = 3;\n*** Delete File: old.txt\n*** End Patch';
const BAD = '*** Begin Patch\n*** Add File: x.txt\n+x\n*** Update File: src/a.ts\n@@\n-no such line\n+y\n*** End Patch';

const WORKER = `
import { createStateBackend, createTools } from '/dist/index.js';
const backend = createStateBackend({ files: { '/src/a.ts': 'export const a = 1;\\nexport const b = 2;\\n', '/old.txt': 'old\\n' } });
const tools = createTools(backend, { dialect: 'openai' });
const ok = await tools.run('apply_patch', { input: ${JSON.stringify(PATCH)} });
const bad = await tools.run('apply_patch', { input: ${JSON.stringify(BAD)} });
postMessage({ ok, bad, a: await backend.readText('/src/a.ts'), x: await backend.exists('/x.txt'), old: await backend.exists('/old.txt') });
`;

test('apply_patch runs in a module Web Worker with no polyfills', async ({ page }) => {
  const errors = await serveDist(page, { '/worker.js': WORKER });
  const out = await page.evaluate(
    () =>
      new Promise<WorkerOut>((resolve, reject) => {
        const worker = new Worker('/worker.js', { type: 'module' });
        worker.onerror = (e) => reject(new Error(`worker failed: ${e.message}`));
        worker.onmessage = (e) => resolve(e.data as WorkerOut);
      }),
  );
  expect(out.ok.text).toBe('Success. Updated the following files:\nA /notes/todo.md\nM /src/a.ts\nD /old.txt');
  expect(out.bad).toMatchObject({ isError: true, code: 'ENOMATCH', changed: [] });
  expect(out.a).toBe('export const a = 1;\nexport const b = 3;\n');
  expect([out.x, out.old]).toEqual([false, false]);
  expect(errors).toEqual([]);
});

test('through createWorkerBackend: the dialect and a shared session cross to the worker', async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async (patch) => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const { createSession, createTools } = await import('/dist/index.js' as string);
    const backend = createWorkerBackend({ files: { '/src/a.ts': 'export const a = 1;\nexport const b = 2;\n', '/old.txt': 'old\n' } });
    const session = createSession();
    const six = createTools(backend, { session });
    const patcher = createTools(backend, { dialect: 'openai', session });
    const definitions = patcher.definitions.map((d: { name: string; type?: string }) => [d.name, d.type]);
    const applied = await patcher.run('apply_patch', { input: patch });
    // The patch's write counts as read for the other tool set of the session, in the worker.
    const edited = await six.run('edit_file', { path: '/src/a.ts', old_string: 'b = 3', new_string: 'b = 4' });
    const stranger = await createTools(backend).run('edit_file', { path: '/src/a.ts', old_string: 'b = 4', new_string: 'b = 5' });
    const text = await backend.readText('/src/a.ts');
    backend.close();
    return { definitions, applied: applied.text, edited: edited.isError ? edited.text : 'ok', stranger: stranger.code, text };
  }, PATCH);
  expect(out.definitions).toEqual([['apply_patch', 'apply_patch']]);
  expect(out.applied).toBe('Success. Updated the following files:\nA /notes/todo.md\nM /src/a.ts\nD /old.txt');
  expect(out.edited).toBe('ok');
  expect(out.stranger).toBe('ENOTREAD');
  expect(out.text).toBe('export const a = 1;\nexport const b = 4;\n');
  expect(errors).toEqual([]);
});
