/// <reference lib="dom" />
// The guard in real Chromium: tools in a Web Worker, approve() and onEvent on the page, every decision.
import { expect, test } from '@playwright/test';
import { serveDist } from './static-dist.ts';

test('approve() on the page decides the writes of tools running in a Web Worker', async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async () => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const { createTools } = await import('/dist/index.js' as string);
    const backend = createWorkerBackend({ files: { '/src/a.ts': 'a\n', '/secret.txt': 's\n' } });
    const answers: unknown[] = [{ allow: true }, { allow: true, content: 'edited by me\n' }, { allow: false, reason: 'not that file' }];
    const diffs: string[] = [];
    const events: Array<{ seq: number; tool: string; ok: boolean; code?: string; decision?: string }> = [];
    const tools = createTools(backend, {
      permissions: { read: ['/src/**'], write: ['/src/**'] },
      approve: async (request: { diff: string }) => {
        diffs.push(request.diff);
        return answers.shift();
      },
      onEvent: (e: { seq: number; tool: string; ok: boolean; code?: string; decision?: string }) =>
        events.push({ seq: e.seq, tool: e.tool, ok: e.ok, code: e.code, decision: e.decision }),
    });
    const texts = [
      await tools.call('read_file', { path: '/src/a.ts' }),
      await tools.call('edit_file', { path: '/src/a.ts', old_string: 'a', new_string: 'b' }),
      await tools.call('write_file', { path: '/src/new.ts', content: 'new\n' }),
      await tools.call('write_file', { path: '/src/other.ts', content: 'x\n' }),
      await tools.call('read_file', { path: '/secret.txt' }),
      await tools.call('ls', { path: '/' }),
    ];
    const files = [await backend.readText('/src/a.ts'), await backend.readText('/src/new.ts'), await backend.exists('/src/other.ts')];
    backend.close();
    return { texts, diffs, events, files };
  });
  expect(out.diffs).toEqual([
    'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,1 @@\n-a\n+b',
    'diff --git a/src/new.ts b/src/new.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1,1 @@\n+new',
    'diff --git a/src/other.ts b/src/other.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/other.ts\n@@ -0,0 +1,1 @@\n+x',
  ]);
  expect(out.texts[1]).toMatch(/^Edited \/src\/a\.ts/);
  expect(out.texts[2]).toContain('now holds their version');
  expect(out.texts[3]).toMatch(/^Error: EDENIED: .*"not that file"/);
  expect(out.texts[4]).toMatch(/^Error: EACCES: .*permissions\.read: "\/src\/\*\*"/);
  expect(JSON.parse(out.texts[5]!).map((e: { path: string }) => e.path)).toEqual(['/src']);
  expect(out.files).toEqual(['b\n', 'edited by me\n', false]);
  expect(out.events.map((e) => [e.seq, e.tool, e.ok, e.code ?? null, e.decision ?? null])).toEqual([
    [1, 'read_file', true, null, null],
    [2, 'edit_file', true, null, 'allow'],
    [3, 'write_file', true, null, 'edit'],
    [4, 'write_file', false, 'EDENIED', 'deny'],
    [5, 'read_file', false, 'EACCES', null],
    [6, 'ls', true, null, null],
  ]);
  expect(errors).toEqual([]);
});

test('a worker terminated while a question is open rejects the call; the page is never left waiting', async ({ page }) => {
  const errors = await serveDist(page);
  const out = await page.evaluate(async () => {
    const { createWorkerBackend } = await import('/dist/client.js' as string);
    const { createTools } = await import('/dist/index.js' as string);
    const backend = createWorkerBackend();
    let asked!: (diff: string) => void;
    const question = new Promise<string>((resolve) => (asked = resolve));
    const tools = createTools(backend, {
      approve: (request: { diff: string }) => {
        asked(request.diff);
        return new Promise(() => {}); // nobody answers
      },
    });
    const pending = tools.run('write_file', { path: '/a.txt', content: 'a\n' });
    const diff = await question;
    backend.close();
    const outcome = await pending.then(
      () => 'resolved',
      (e: Error) => e.name,
    );
    return { diff, outcome };
  });
  expect(out).toEqual({
    diff: 'diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1,1 @@\n+a',
    outcome: 'WorkerGoneError',
  });
  expect(errors).toEqual([]);
});
