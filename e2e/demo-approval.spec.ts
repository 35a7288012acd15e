/// <reference lib="dom" />
// "Ask before writes" in the playground: each decision through the dialog (Allow, Always, Edit,
// Deny with a reason), the diff it shows, the transcript built on onEvent and its JSON Lines
// export, and the dialog at phone width.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_E2E_URL } from './demo-port.ts';

test.use({ baseURL: DEMO_E2E_URL, viewport: { width: 1280, height: 800 } });

let errors: string[] = [];

test.beforeEach(async ({ page }) => {
  errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  // A fresh workspace each time (the files are saved in the browser).
  await page.evaluate(() => (globalThis as unknown as { agentvfs: { workspace: { reset(): Promise<void> } } }).agentvfs.workspace.reset());
});

test.afterEach(() => {
  expect(errors, 'no console errors').toEqual([]);
});

/**
 * Starts a tool call of one agent session (kept across calls), recorded in the transcript as
 * the console's calls are, without waiting for it: `finish(page, n)` awaits call n's text.
 */
async function start(page: Page, tool: string, args: Record<string, unknown>): Promise<number> {
  return page.evaluate(
    ([tool, args]) => {
      const g = globalThis as unknown as {
        agentvfs: { session(): unknown; transcript: { call(t: unknown, s: string, n: string, a: unknown): Promise<{ result: string }> } };
        __session?: unknown;
        __calls?: Array<Promise<{ result: string }>>;
      };
      g.__session ??= g.agentvfs.session();
      g.__calls ??= [];
      return g.__calls.push(g.agentvfs.transcript.call(g.__session, 'console', tool as string, args)) - 1;
    },
    [tool, args] as const,
  );
}

const finish = (page: Page, n: number) =>
  page.evaluate((n) => (globalThis as unknown as { __calls: Array<Promise<{ result: string }>> }).__calls[n]!.then((e) => e.result), n);

const readText = (page: Page, path: string) =>
  page.evaluate((p) => (globalThis as unknown as { agentvfs: { backend: { readText(p: string): Promise<string> } } }).agentvfs.backend.readText(p), path);

test('Allow, Always, Edit and Deny: each decides the write, and the transcript and its export say so', async ({ page }) => {
  await page.getByTestId('ask-before-writes').check();
  const dialog = page.getByTestId('approval-dialog');

  // Allow: the dialog shows the diff of the new file, coloured; the file is created.
  let n = await start(page, 'write_file', { path: '/notes/a.md', content: 'alpha\nbeta\n' });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('h2')).toHaveText('Allow write_file to create /notes/a.md?');
  await page.getByRole('button', { name: 'Unified' }).click();
  await expect(dialog.locator('.dl.add .text')).toHaveText(['alpha', 'beta']);
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, n)).toMatch(/^Created \/notes\/a\.md/);
  await expect(dialog).toBeHidden();

  // Edit: the person writes their own version; the model is told.
  await start(page, 'read_file', { path: '/notes/a.md' });
  n = await start(page, 'edit_file', { path: '/notes/a.md', old_string: 'beta', new_string: 'gamma' });
  await expect(dialog).toBeVisible();
  await page.getByRole('button', { name: 'Side by side' }).click(); // offered: it fits at this width
  await expect(dialog.locator('.sl.del .text')).toHaveText(['beta']);
  await expect(dialog.locator('.sl.add .text')).toHaveText(['gamma']);
  await page.getByTestId('approval-edit').click();
  await expect(page.getByTestId('approval-content')).toHaveValue('alpha\ngamma\n');
  await page.getByTestId('approval-content').fill('alpha\ndelta\n');
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, n)).toContain('/notes/a.md now holds their version');
  expect(await readText(page, '/notes/a.md')).toBe('alpha\ndelta\n');

  // Deny with a reason: nothing written, the model reads the reason.
  n = await start(page, 'write_file', { path: '/notes/b.md', content: 'b\n' });
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-reason').fill('no new notes today');
  await page.getByTestId('approval-deny').click();
  expect(await finish(page, n)).toMatch(/^Error: EDENIED: .*"no new notes today"/);

  // Always: this write and the session's later ones go through without a question.
  n = await start(page, 'write_file', { path: '/notes/c.md', content: 'c\n' });
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-always').click();
  expect(await finish(page, n)).toMatch(/^Created/);
  n = await start(page, 'write_file', { path: '/notes/d.md', content: 'd\n' });
  expect(await finish(page, n)).toMatch(/^Created/);
  await expect(dialog).toBeHidden();

  // The transcript rows carry the decisions (from onEvent).
  const rows = page.locator('[data-testid=transcript] li.call[data-decision]');
  await expect(rows).toHaveCount(5);
  expect(await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.decision))).toEqual(['allow', 'edit', 'deny', 'always', 'always']);

  // Export: one JSON object a line, with each call's audit fields.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('transcript-export').click()]);
  expect(download.suggestedFilename()).toBe('agentvfs-transcript.jsonl');
  const lines = readFileSync((await download.path())!, 'utf8')
    .trimEnd()
    .split('\n');
  const calls = lines.map((l) => JSON.parse(l)).filter((e) => e.kind === 'call');
  expect(calls.map((c) => [c.seq, c.tool, c.ok, c.code ?? null, c.decision ?? null])).toEqual([
    [1, 'write_file', true, null, 'allow'],
    [2, 'read_file', true, null, null],
    [3, 'edit_file', true, null, 'edit'],
    [4, 'write_file', false, 'EDENIED', 'deny'],
    [5, 'write_file', true, null, 'always'],
    [6, 'write_file', true, null, 'always'],
  ]);
  expect(calls[0].changed).toEqual([{ path: '/notes/a.md', version: expect.any(Number) }]);
});

test('with the switch off, writes are not asked, and the transcript claims no decision of yours', async ({ page }) => {
  const n = await start(page, 'write_file', { path: '/free.md', content: 'x\n' });
  expect(await finish(page, n)).toMatch(/^Created/);
  await expect(page.getByTestId('approval-dialog')).toBeHidden();
  const row = page.locator('[data-testid=transcript] li.call[data-tool=write_file]');
  await expect(row).toHaveCount(1);
  await expect(row).not.toHaveAttribute('data-decision');
  await expect(row.locator('.badge.decision')).toHaveCount(0);
  // Asked, the decision's badge stands beside the call's source, not over it.
  await page.getByTestId('ask-before-writes').check();
  const m = await start(page, 'write_file', { path: '/asked.md', content: 'y\n' });
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, m)).toMatch(/^Created/);
  const asked = page.locator('[data-testid=transcript] li.call[data-decision=allow]');
  const source = await asked.locator('.badge:not(.decision)').boundingBox();
  const decision = await asked.locator('.badge.decision').boundingBox();
  expect(source!.x + source!.width, 'the badges do not overlap').toBeLessThanOrEqual(decision!.x);
});

test('the dialog fits a phone screen: the diff scrolls, every button is on screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('ask-before-writes').check();
  const n = await start(page, 'write_file', {
    path: '/long.md',
    content: `${Array.from({ length: 200 }, (_, i) => `line ${i} ${'word '.repeat(30)}`).join('\n')}\n`,
  });
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  await expect(dialog.locator('.dl.add').first()).toBeVisible(); // unified at this width
  await expect(dialog.locator('.approval-views')).toBeHidden();
  for (const id of ['approval-allow', 'approval-always', 'approval-edit', 'approval-deny', 'approval-reason']) {
    const b = (await page.getByTestId(id).boundingBox())!;
    expect(b.y + b.height, id).toBeLessThanOrEqual(844);
    expect(b.x + b.width, id).toBeLessThanOrEqual(390);
  }
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, n)).toMatch(/^Created/);
});

test('the dialog says when a write removes a byte order mark, which the lines alone cannot show', async ({ page }) => {
  await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { backend: { writeFile(p: string, b: Uint8Array): Promise<unknown> } } }).agentvfs.backend.writeFile(
      '/bom.txt',
      new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0a]),
    ),
  );
  expect(await finish(page, await start(page, 'read_file', { path: '/bom.txt' }))).toContain('hi');
  await page.getByTestId('ask-before-writes').check();
  const n = await start(page, 'write_file', { path: '/bom.txt', content: 'hi\n' });
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Removes the byte order mark (BOM, U+FEFF) at the start of /bom.txt.');
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, n)).toMatch(/^Updated/);
});

test('Stop agent, asked about a write: the dialog closes, nothing is written, the run stops and says so', async ({ page }) => {
  await page.getByTestId('ask-before-writes').check();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-stop')).toBeVisible();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('h2')).toHaveText('Allow edit_file to change /src/utils/format.ts?');
  const before = await readText(page, '/src/utils/format.ts');
  await page.getByTestId('approval-stop').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('agent-status')).toHaveText(
    'Stopped. Whatever was written before the Stop stays; the write waiting for approval was not made.',
  );
  await expect(page.getByTestId('agent-stop')).toBeHidden();
  await expect(page.getByTestId('agent-run')).toBeEnabled();
  expect(await readText(page, '/src/utils/format.ts')).toBe(before);
  const calls = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { transcript: { entries: Array<{ kind: string; tool?: string; code?: string }> } } }).agentvfs.transcript.entries
      .filter((e) => e.kind === 'call')
      .map((e) => `${e.tool} ${e.code ?? 'ok'}`),
  );
  expect(calls.at(-1)).toBe('edit_file ECANCELED');
  expect(calls.filter((c) => c.startsWith('edit_file'))).toHaveLength(1); // no call after the Stop
});

test('Escape leaves the editor first and keeps a typed reason; an unchanged edit is a plain allow; focus goes where it can', async ({ page }) => {
  await page.getByTestId('ask-before-writes').check();
  const dialog = page.getByTestId('approval-dialog');
  await start(page, 'write_file', { path: '/notes/a.md', content: 'alpha\n' });
  await page.getByTestId('approval-allow').click();
  await start(page, 'read_file', { path: '/notes/a.md' });

  // Escape in the editor drops the edit, not the question.
  let n = await start(page, 'edit_file', { path: '/notes/a.md', old_string: 'alpha', new_string: 'beta' });
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-edit').click();
  await expect(page.getByTestId('approval-edit')).toHaveText('Cancel edit');
  await page.getByTestId('approval-content').fill('mine\n');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('approval-content')).toBeHidden();
  await expect(page.getByTestId('approval-edit')).toHaveText('Edit');
  // Edit, then "Write my version" with the proposed content as it was: an allow, the model is not told otherwise.
  await page.getByTestId('approval-edit').click();
  await expect(page.getByTestId('approval-content')).toHaveValue('beta\n');
  await page.getByTestId('approval-allow').click();
  const allowed = await finish(page, n);
  expect(allowed).toMatch(/^Edited \/notes\/a\.md/);
  expect(allowed).not.toContain('their version');
  expect(await readText(page, '/notes/a.md')).toBe('beta\n');

  // Escape with a reason typed: a "no" with that reason.
  n = await start(page, 'write_file', { path: '/notes/b.md', content: 'b\n' });
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-reason').fill('not now');
  await page.keyboard.press('Escape');
  expect(await finish(page, n)).toMatch(/^Error: EDENIED: .*"not now"/);

  // A run started from its button: the pressed Run is disabled, so focus goes to Stop, and after
  // a question is answered it comes back there (not to the page); the run ends with focus on Run.
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-always').click();
  await expect(page.getByTestId('agent-stop')).toBeFocused();
  await expect(page.getByTestId('agent-status')).toHaveText(/^Done: /, { timeout: 30_000 });
  await expect(page.getByTestId('agent-run')).toBeFocused();
});

test('a denied write: the run goes on and its status says what the person denied, not that a step failed', async ({ page }) => {
  await page.getByTestId('ask-before-writes').check();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').click();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-deny').click();
  // The rest is allowed: a later question of the run, answered with Always.
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-always').click();
  await expect(page.getByTestId('agent-status')).toHaveText('Finished without the write you denied; see the transcript.', { timeout: 30_000 });
  // The write denied was the definition's rename in format.ts: the changelog does not count that file as renamed.
  expect(await readText(page, '/src/utils/format.ts')).toContain('export function formatPrice(');
  expect(await readText(page, '/CHANGELOG.md')).toBe(
    '# Changelog\n\n## Unreleased\n\n- Renamed `formatPrice` to `formatMoney` in 6 of 7 files; /src/utils/format.ts still uses `formatPrice`.\n',
  );
});

test('a denied definition edit: the agent leaves the rest of that file alone, as its changelog says', async ({ page }) => {
  const before = await readText(page, '/src/utils/format.ts');
  await page.getByTestId('ask-before-writes').check();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').click();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('h2')).toHaveText('Allow edit_file to change /src/utils/format.ts?');
  await expect(dialog).toContainText('export function formatMoney(');
  await page.getByTestId('approval-deny').click();
  // The next question is about another file: the doc comment of the function not renamed is not asked about.
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('h2')).not.toHaveText('Allow edit_file to change /src/utils/format.ts?');
  await page.getByTestId('approval-always').click();
  await expect(page.getByTestId('agent-status')).toHaveText('Finished without the write you denied; see the transcript.', { timeout: 30_000 });
  expect(await readText(page, '/src/utils/format.ts')).toBe(before);
  expect(await readText(page, '/CHANGELOG.md')).toContain('/src/utils/format.ts still uses `formatPrice`.');
  const edits = await page.evaluate(
    () =>
      (
        globalThis as unknown as { agentvfs: { transcript: { entries: Array<{ kind: string; tool?: string; args?: { path?: string } }> } } }
      ).agentvfs.transcript.entries.filter((e) => e.kind === 'call' && e.tool === 'edit_file' && e.args?.path === '/src/utils/format.ts').length,
  );
  expect(edits, 'one edit of format.ts: the definition, denied').toBe(1);
});

test('every rename denied: the scripted agent writes no changelog claiming a rename', async ({ page }) => {
  await page.getByTestId('ask-before-writes').check();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').click();
  const dialog = page.getByTestId('approval-dialog');
  const status = page.getByTestId('agent-status');
  const asked: string[] = [];
  const deadline = Date.now() + 60_000;
  while (!/^(Done|Finished|Stopped|Failed)/.test((await status.textContent()) ?? '')) {
    expect(Date.now(), `still running; asked so far: ${asked.join(' | ')}`).toBeLessThan(deadline);
    if (await dialog.isVisible()) {
      asked.push((await dialog.locator('h2').textContent()) ?? '');
      await page.getByTestId('approval-deny').click();
    } else await page.waitForTimeout(50);
  }
  expect(asked.every((q) => q.startsWith('Allow edit_file to change '))).toBe(true);
  await expect(status).toHaveText(`Finished without the ${asked.length} writes you denied; see the transcript.`);
  const paths = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { backend: { glob(p: string): Promise<string[]> } } }).agentvfs.backend.glob('**'),
  );
  expect(paths).not.toContain('/CHANGELOG.md');
  await expect(page.locator('[data-testid=transcript] li.entry.event').last()).toContainText('Finished without the');
  await expect(page.locator('[data-testid=transcript] li.entry.event', { hasText: 'No file was renamed' })).toHaveCount(1);
});

test('focus comes back to the button pressed: after a question of the console, through a parallel run; Undo outlasts a long run', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('ask-before-writes').check();
  const dialog = page.getByTestId('approval-dialog');

  // The console's Run is disabled while its call waits for the answer: focus returns to it after.
  await page.getByTestId('tool-write_file').click();
  await page.locator('#arg-write_file-path').fill('/notes/x.md');
  await page.locator('#arg-write_file-content').fill('x\n');
  await page.getByTestId('console-run').focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-allow').click();
  await expect(page.getByTestId('console-run')).toBeFocused();

  // The parallel run has no Stop: its status holds focus while it runs and after each question.
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('parallel-run').focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  // A question left open longer than the Undo of the run's reset would last.
  await page.clock.fastForward(20_000);
  await page.getByTestId('approval-always').click();
  const status = page.getByTestId('parallel-status');
  // Focus is back on the status after each answer, or in the next question when another subagent
  // asked meanwhile (the questions wait in turn, so which comes first is the run's own timing).
  const focusKept = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (active?.getAttribute('data-testid') === 'parallel-status') return 'status';
      const open = document.querySelector<HTMLDialogElement>('[data-testid=approval-dialog]');
      return open?.open && active !== null && open.contains(active) ? 'dialog' : (active?.tagName ?? 'nothing');
    });
  await expect.poll(focusKept).toMatch(/^(status|dialog)$/);
  // Each subagent's session asks once (then "Always").
  const deadline = Date.now() + 60_000;
  while (!/^Done/.test((await status.textContent()) ?? '')) {
    expect(Date.now(), 'the parallel run ends').toBeLessThan(deadline);
    if (await dialog.isVisible()) {
      await page.getByTestId('approval-always').click();
      await expect.poll(focusKept).toMatch(/^(status|dialog)$/);
    } else await page.waitForTimeout(50);
  }
  await expect(page.getByTestId('parallel-run')).toBeFocused();
  const undo = page.getByTestId('notice-info').getByRole('button', { name: 'Undo' });
  await expect(undo).toBeEnabled();
  // Undo after the run brings back the files from before its reset, and says the run's work goes too.
  await undo.click();
  await expect(page.getByTestId('notice-info')).toHaveText(
    'Reset undone: the files from before the reset are back, and what changed after it (a run, an edit) is gone.',
  );
  await expect(page.locator('[role=tree] [data-path="/notes/x.md"]')).toBeVisible();
});

test('Edit on a CRLF file: the text unchanged is a plain allow, a changed one is written in CRLF', async ({ page }) => {
  await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { backend: { writeFile(p: string, d: string): Promise<unknown> } } }).agentvfs.backend.writeFile(
      '/crlf.txt',
      'alpha\r\nbeta\r\n',
    ),
  );
  await page.getByTestId('ask-before-writes').check();
  const dialog = page.getByTestId('approval-dialog');
  await finish(page, await start(page, 'read_file', { path: '/crlf.txt' }));
  let n = await start(page, 'edit_file', { path: '/crlf.txt', old_string: 'alpha', new_string: 'ALPHA' });
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-edit').click();
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, n)).not.toContain('their version');
  expect(await readText(page, '/crlf.txt')).toBe('ALPHA\r\nbeta\r\n');
  n = await start(page, 'edit_file', { path: '/crlf.txt', old_string: 'beta', new_string: 'gamma' });
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-edit').click();
  await page.getByTestId('approval-content').fill('ALPHA\ndelta\n');
  await page.getByTestId('approval-allow').click();
  expect(await finish(page, n)).toContain('their version');
  expect(await readText(page, '/crlf.txt')).toBe('ALPHA\r\ndelta\r\n');
});
