/// <reference lib="dom" />
// The playground (demo/) as users see it: built from dist/, served by `vite preview`
// (playwright.config.ts webServer), the backend in a Web Worker via agentvfs/client.
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
});

test.afterEach(() => {
  expect(errors, 'no console errors').toEqual([]);
});

/** Every file's text, read from the live backend in the worker. */
function files(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const { backend } = (globalThis as unknown as { agentvfs: { backend: { glob(p: string): Promise<string[]>; readText(p: string): Promise<string> } } })
      .agentvfs;
    const paths = (await backend.glob('**')).sort();
    const out: Record<string, string> = {};
    for (const path of paths) out[path] = await backend.readText(path);
    return out;
  });
}

/** The timeline's labels, newest first. */
const checkpointLabels = (page: Page) => page.locator('[data-testid=checkpoints] li.checkpoint .cp-label').allTextContents();

/** The timeline row of checkpoint #n (1 = the first one, taken at start). */
const checkpointRow = (page: Page, n: number) => page.locator(`[data-testid=checkpoints] li.checkpoint[data-index="${n}"]`);

/** How many saves to IndexedDB have completed since the page loaded. */
const saves = async (page: Page) => Number(await page.getByTestId('save-status').getAttribute('data-saves'));

/** Waits until every change so far is saved (what hiding the tab does): the persistent backend's flush(). */
const saved = (page: Page) => page.evaluate(() => (globalThis as unknown as { agentvfs: { backend: { flush(): Promise<void> } } }).agentvfs.backend.flush());

/** What the file tree shows: every visible row's path. */
const treeRows = (page: Page) => page.locator('[role=tree] [role=treeitem]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.path));

async function runTool(page: Page, tool: string, args: Record<string, string | boolean>): Promise<string> {
  const calls = page.locator('[data-testid=transcript] li.entry.call');
  const before = await calls.count();
  await page.getByTestId(`tool-${tool}`).click();
  for (const [name, value] of Object.entries(args)) {
    const field = page.locator(`#arg-${tool}-${name}`);
    if (typeof value === 'boolean') await field.setChecked(value);
    else if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  await page.getByTestId('console-run').click();
  await expect(calls).toHaveCount(before + 1);
  return (await page.getByTestId('console-result').textContent()) ?? '';
}

test('runs each tool from the console and shows the exact result text', async ({ page }) => {
  const ls = JSON.parse(await runTool(page, 'ls', { path: '/' })) as Array<{ name: string; path: string; is_dir: boolean }>;
  expect(ls.slice(0, 2).map((e) => [e.path, e.is_dir])).toEqual([
    ['/src', true],
    ['/test', true],
  ]);
  expect(await runTool(page, 'read_file', { path: '/src/cart.ts', limit: '2' })).toBe(
    "     1\timport { formatPrice, formatQuantity } from './utils/format';\n     2\t\n... [showing lines 1-2 of 29 in /src/cart.ts; continue with offset=2]",
  );
  expect(await runTool(page, 'write_file', { path: '/notes/todo.md', content: 'hello\n' })).toMatch(/^Created \/notes\/todo\.md \(1 line/);
  await expect(page.locator('[role=tree] [data-path="/notes/todo.md"]')).toBeVisible();
  expect(await runTool(page, 'edit_file', { path: '/notes/todo.md', old_string: 'hello', new_string: 'hello world', replace_all: false })).toMatch(
    /^Edited \/notes\/todo\.md: 1 replacement/,
  );
  const glob = (await runTool(page, 'glob', { pattern: '**/*.md' })).split('\n');
  expect(glob.sort()).toEqual(['/README.md', '/notes/todo.md']);
  expect(await runTool(page, 'grep', { pattern: 'formatPrice\\(', output_mode: 'content', glob: '*.tsx' })).toBe(
    '/src/components/PriceTag.tsx:4:  return <span className="price-tag">{formatPrice(cents, currency)}</span>;',
  );
  // A tool-level failure is a result, shown as an error, not an exception.
  expect(await runTool(page, 'read_file', { path: '/cart.ts', limit: '' })).toMatch(/^Error: ENOENT.*\/cart\.ts.*Did you mean.*\/src\/cart\.ts/s);
  await expect(page.getByTestId('console-result')).toHaveClass(/error/);

  expect((await files(page))['/notes/todo.md']).toBe('hello world\n');
  await expect(page.locator('[data-testid=transcript] li.entry.call')).toHaveCount(7);
  await expect(page.getByTestId('transcript-stats')).toContainText('7 calls');
});

test('the scripted agent renames a function across files and recovers from a stale edit', async ({ page }, testInfo) => {
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').click();
  await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('agent-status')).toContainText('1 stale edit recovered');

  const after = await files(page);
  for (const [path, text] of Object.entries(after)) if (path !== '/CHANGELOG.md') expect(text, path).not.toContain('formatPrice');
  expect(after['/src/utils/format.ts']).toContain('export function formatMoney(cents: number');
  expect(after['/src/utils/format.ts']).toContain('formatMoney(1999) → "$19.99"');
  expect(after['/src/checkout.ts']).toContain('return `Refunded ${formatMoney(cents)}`;'); // the teammate's change survived and was renamed too
  expect(after['/src/cart.ts']!.match(/formatMoney/g)).toHaveLength(3);
  expect(after['/test/format.test.ts']).toContain("describe('formatMoney'");
  expect(after['/CHANGELOG.md']).toContain('Renamed `formatPrice` to `formatMoney`');

  const calls = await page.evaluate(() =>
    (
      globalThis as unknown as {
        agentvfs: { transcript: { entries: Array<{ kind: string; tool?: string; ok?: boolean; args?: { path?: string }; result?: string }> } };
      }
    ).agentvfs.transcript.entries
      .filter((e) => e.kind === 'call')
      .map((e) => ({ tool: e.tool!, ok: e.ok!, path: e.args?.path, result: e.result! })),
  );
  expect(new Set(calls.map((c) => c.tool))).toEqual(new Set(['ls', 'glob', 'grep', 'read_file', 'edit_file', 'write_file']));
  const stale = calls.findIndex((c) => !c.ok);
  expect(calls.filter((c) => !c.ok)).toHaveLength(1);
  expect(calls[stale]).toMatchObject({ tool: 'edit_file', path: '/src/checkout.ts' });
  expect(calls[stale]!.result).toMatch(/^Error: ESTALE/);
  expect(calls[stale + 1]).toMatchObject({ tool: 'read_file', path: '/src/checkout.ts', ok: true });
  expect(calls[stale + 2]).toMatchObject({ tool: 'edit_file', path: '/src/checkout.ts', ok: true });
  expect(calls.at(-2)!.result).toMatch(/^No matches found/);
  await expect(page.locator('[data-testid=transcript] li.entry.event[data-source=outside]')).toContainText('teammate');

  // The timeline: a checkpoint for the reset, every successful edit/write and the teammate's save (newest first).
  const labels = await checkpointLabels(page);
  expect(labels[0]).toBe('write_file /CHANGELOG.md');
  expect(labels).toContain('teammate saved /src/checkout.ts');
  expect(labels).toContain('edit_file /src/checkout.ts');
  expect(labels).toContain('reset to the sample project');
  expect(labels.filter((l) => l.startsWith('edit_file '))).toHaveLength(calls.filter((c) => c.tool === 'edit_file' && c.ok).length);

  // The screenshot artifact: the finished run, with the refused stale edit expanded.
  await page.locator('[data-testid=transcript] li.entry.call[data-ok=false] summary').click();
  await page.locator('[role=tree] [data-path="/src/checkout.ts"]').click();
  await expect(page.locator('#viewer-title')).toHaveText('/src/checkout.ts');
  await page.locator('[data-testid=transcript] li.entry.call[data-ok=false]').scrollIntoViewIfNeeded();
  const shot = testInfo.outputPath('demo-1280x800.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('demo-1280x800', { path: shot, contentType: 'image/png' });
});

test('snapshot download → reset → upload restores the same tree', async ({ page }) => {
  await runTool(page, 'write_file', { path: '/notes/keep.md', content: 'kept across the round trip\n' });
  await runTool(page, 'read_file', { path: '/README.md' });
  await runTool(page, 'edit_file', { path: '/README.md', old_string: '# tiny-shop', new_string: '# tiny-shop (edited)' });
  const before = await files(page);
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toBeVisible();
  const rowsBefore = await treeRows(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('snapshot-download').click()]);
  expect(download.suggestedFilename()).toMatch(/^agentvfs-\d{8}-\d{6}\.avfs$/);
  const saved = await download.path();

  await page.getByTestId('reset').click();
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toHaveCount(0);
  const reset = await files(page);
  expect(reset['/notes/keep.md']).toBeUndefined();
  expect(reset['/README.md']).toMatch(/^# tiny-shop\n/);

  await page.getByTestId('snapshot-file').setInputFiles(saved);
  await expect(page.getByTestId('notice-info').filter({ hasText: 'Restored' })).toBeVisible();
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toBeVisible();
  expect(await files(page)).toEqual(before);
  expect(await treeRows(page)).toEqual(rowsBefore);
});

test('Reset, then Undo: the files from before it are back, and the notice says so', async ({ page }) => {
  await runTool(page, 'write_file', { path: '/notes/keep.md', content: 'kept\n' });
  const before = await files(page);
  await page.getByTestId('reset').click();
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toHaveCount(0);
  await page.getByTestId('notice-info').getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('notice-info')).toHaveText('Reset undone: the files from before it are back.');
  expect(await files(page)).toEqual(before);
});

test('Reset closes the open file when the sample project has no such file; Undo does not reopen it', async ({ page }) => {
  await runTool(page, 'write_file', { path: '/notes/keep.md', content: 'kept\n' });
  await page.locator('[role=tree] [data-path="/notes/keep.md"]').click();
  await expect(page.getByTestId('viewer')).toContainText('kept');
  await expect(page.locator('#viewer-title')).toHaveText('/notes/keep.md');
  await page.getByTestId('reset').click();
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toHaveCount(0);
  // The viewer shows the reset files' state: no file open, nothing of the removed one.
  await expect(page.locator('#viewer-title')).toHaveText('No file open');
  await expect(page.getByTestId('viewer')).toContainText('Pick a file in the tree');
  await expect(page.getByTestId('viewer')).not.toContainText('kept');
  await expect(page.getByTestId('viewer-meta')).toHaveText('');
  // Undo brings the file back into the tree, not selected (nothing is open).
  await page.getByTestId('notice-info').getByRole('button', { name: 'Undo' }).click();
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toHaveCount(1);
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).not.toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#viewer-title')).toHaveText('No file open');
  // A file the reset keeps stays open, re-read.
  await page.locator('[role=tree] [data-path="/README.md"]').click();
  await runTool(page, 'read_file', { path: '/README.md', limit: '' });
  await runTool(page, 'edit_file', { path: '/README.md', old_string: 'tiny-shop', new_string: 'huge-shop', replace_all: false });
  await expect(page.getByTestId('viewer')).toContainText('# huge-shop');
  await page.getByTestId('reset').click();
  await expect(page.getByTestId('viewer')).toContainText('# tiny-shop');
  await expect(page.locator('#viewer-title')).toHaveText('/README.md');
});

test('a corrupted snapshot upload shows a clear error and changes nothing', async ({ page }) => {
  await runTool(page, 'write_file', { path: '/notes/keep.md', content: 'must survive\n' });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('snapshot-download').click()]);
  const good = readFileSync(await download.path());
  // A good upload first: its "Restored" must not stay beside a later upload's error.
  await page.getByTestId('snapshot-file').setInputFiles({ name: 'good.avfs', mimeType: 'application/octet-stream', buffer: good });
  await expect(page.getByTestId('notice-info')).toContainText('Restored good.avfs');
  await runTool(page, 'write_file', { path: '/notes/later.md', content: 'written after the snapshot\n' });
  const before = await files(page);
  const rowsBefore = await treeRows(page);

  const flipped = Buffer.from(good);
  flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
  const bad = [
    { name: 'garbage.avfs', buffer: Buffer.from('this is not a snapshot') },
    { name: 'truncated.avfs', buffer: good.subarray(0, Math.floor(good.length / 2)) },
    { name: 'flipped.avfs', buffer: flipped },
  ];
  for (const { name, buffer } of bad) {
    await page.getByTestId('snapshot-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(`Could not restore “${name}”. Nothing was changed.`);
    await expect(alert).toContainText('ESNAPSHOT');
    // Only the error: no earlier outcome in the status line.
    await expect(page.getByTestId('notice-info')).toHaveCount(0);
    await expect(page.getByTestId('statusbar')).not.toContainText('Restored');
    expect(await files(page), name).toEqual(before);
    expect(await treeRows(page)).toEqual(rowsBefore);
    await alert.getByRole('button', { name: 'Dismiss' }).click();
    await expect(alert).toHaveCount(0);
  }
});

test('Large grep follows the corpus: Remove only while it is there, and a Reset or its Undo updates what the panel says', async ({ page }) => {
  test.setTimeout(90_000);
  await page.getByTestId('tab-large-grep').click();
  const remove = page.getByTestId('grep-remove');
  const status = page.getByTestId('grep-status');
  const progress = page.getByTestId('grep-progress');
  await expect(remove).toBeDisabled(); // nothing to remove yet
  await page.getByTestId('grep-run').click();
  await expect(page.getByTestId('large-grep')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  await expect(remove).toBeEnabled();
  await expect(page.getByTestId('grep-result')).toBeVisible();

  // Reset takes /corpus away: the panel no longer reports a search over it.
  await page.getByTestId('reset').click();
  await expect(status).toHaveText('Not loaded: /corpus is no longer in the workspace. Run generates it again (50.0 MB).');
  await expect(progress).toHaveJSProperty('value', 0);
  await expect(page.getByTestId('grep-result')).toBeHidden();
  await expect(remove).toBeDisabled();

  // Undo brings it back.
  await page.getByTestId('notice-info').getByRole('button', { name: 'Undo' }).click();
  await expect(status).toHaveText('/corpus is back in the workspace: Run searches it.');
  await expect(progress).toHaveJSProperty('value', 50 * 1024 * 1024);
  await expect(remove).toBeEnabled();

  await remove.click();
  await expect(status).toHaveText('Removed /corpus.');
  await expect(remove).toBeDisabled();
  await expect(page.locator('[role=tree] [data-path="/corpus"]')).toHaveCount(0);
});

test('grep over ~50 MB runs in the worker; the page reports its longest freeze and answers input', async ({ page }) => {
  test.setTimeout(90_000);
  await page.getByTestId('tab-large-grep').click();
  await page.getByTestId('grep-run').click();
  const panel = page.getByTestId('large-grep');
  await expect(panel).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });
  type Stats = { phases: string[]; uploadChunks: number; searchMs: number; stall: { longestMs: number; frames: number; windowMs: number } };
  const stats = await page.evaluate(() => (globalThis as unknown as { agentvfs: { largeGrep: { stats: Stats } } }).agentvfs.largeGrep.stats);
  // What the run went through, whatever its speed: the upload in 20 chunks (with progress), then the search.
  expect(stats.phases).toEqual(['uploading', 'grepping', 'done']);
  expect(stats.uploadChunks).toBe(20);
  await expect(page.getByTestId('grep-progress')).toHaveJSProperty('value', 50 * 1024 * 1024);
  // The freeze figure was measured over the search (no bound on it: that would be a race on a loaded machine)
  // and the status line reports exactly it.
  expect(stats.stall.longestMs).toBeGreaterThan(0);
  expect(stats.stall.longestMs).toBeLessThanOrEqual(stats.stall.windowMs);
  expect(stats.stall.windowMs).toBeGreaterThanOrEqual(stats.searchMs); // it covered the whole search
  const status = (await page.getByTestId('grep-status').textContent()) ?? '';
  expect(status).toMatch(/^Searched 50\.0 MB in [\d.]+ (ms|s), in the worker\. Meanwhile the page drew \d+ frames? and never froze for more than \d+ ms/);
  expect(Number(status.match(/never froze for more than (\d+) ms/)![1])).toBe(Math.round(stats.stall.longestMs));
  expect(Number(status.match(/drew (\d+) frame/)![1])).toBe(stats.stall.frames);

  const result = (await page.getByTestId('grep-result').textContent()) ?? '';
  expect(result).toMatch(/^\/corpus\/pkg-00\/module-00\.ts:\d+\n/);
  expect(result).toMatch(/more files not shown \(800 in total\)/);
  await expect(page.getByTestId('tree-summary')).toContainText('50.0 MB');

  // The page answers input (typing while a second search runs, or after it: either way each keystroke lands).
  await page.getByTestId('grep-run').click();
  await page.getByTestId('probe').pressSequentially('still here', { delay: 5 });
  await expect(page.getByTestId('probe')).toHaveValue('still here');
  await expect(page.getByTestId('probe-echo')).toContainText('10 chars');
  // The second run found the corpus in place: no upload, just the search.
  await expect
    .poll(() => page.evaluate(() => (globalThis as unknown as { agentvfs: { largeGrep: { stats: Stats } } }).agentvfs.largeGrep.stats.phases), {
      timeout: 60_000,
    })
    .toEqual(['grepping', 'done']);
});

test('is usable from the keyboard', async ({ page }) => {
  // Tree: focus, move down to a file, open it.
  await page.locator('[role=tree] [tabindex="0"]').focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(page.locator('#viewer-title')).toHaveText('/package.json');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowLeft'); // closes /src
  await expect(page.locator('[role=tree] [data-path="/src/cart.ts"]')).toHaveCount(0);
  await page.keyboard.press('ArrowRight'); // opens it again
  await expect(page.locator('[role=tree] [data-path="/src/cart.ts"]')).toBeVisible();

  // Console: type the arguments, run with Ctrl+Enter.
  await page.getByTestId('tool-glob').click();
  await page.locator('#arg-glob-pattern').fill('src/*.ts');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('console-result')).toHaveText(/^\/src\/(cart|checkout|index)\.ts\n/);

  // Tabs: arrow keys move between them.
  await page.getByTestId('tab-console').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-agent')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('agent-run')).toBeVisible();
});

test('a checkpoint after each write/edit; rollback restores the earlier files (and roll forward)', async ({ page }) => {
  const rows = page.locator('[data-testid=checkpoints] li.checkpoint');
  await expect(rows).toHaveCount(1);
  expect(await checkpointLabels(page)).toEqual(['start: sample project']);

  await runTool(page, 'write_file', { path: '/notes/todo.md', content: 'first draft\n' });
  await expect(rows).toHaveCount(2);
  await runTool(page, 'read_file', { path: '/notes/todo.md', limit: '' }); // a read takes no checkpoint
  await runTool(page, 'edit_file', { path: '/notes/todo.md', old_string: 'first draft', new_string: 'second draft', replace_all: false });
  await expect(rows).toHaveCount(3);
  expect(await checkpointLabels(page)).toEqual(['edit_file /notes/todo.md', 'write_file /notes/todo.md', 'start: sample project']);
  await expect(checkpointRow(page, 3)).toHaveAttribute('data-current', 'true');
  await expect(checkpointRow(page, 3)).toContainText('console');

  await page.locator('[role=tree] [data-path="/notes/todo.md"]').click();
  await expect(page.getByTestId('viewer')).toContainText('second draft');

  // One click: back to #2 (just after the write). The tree, the viewer and the transcript follow.
  await checkpointRow(page, 2).getByTestId('checkpoint-rollback').click();
  await expect(checkpointRow(page, 2)).toHaveAttribute('data-current', 'true');
  await expect(page.getByTestId('viewer')).toContainText('first draft');
  expect((await files(page))['/notes/todo.md']).toBe('first draft\n');
  await expect(page.locator('[data-testid=transcript] li.entry.event[data-source=workspace]').last()).toContainText(
    'Rolled back to checkpoint #2 (write_file /notes/todo.md)',
  );
  await expect(page.locator('[data-testid=transcript] li.entry.call[data-tool=edit_file]')).toHaveAttribute('data-undone', '');
  await expect(checkpointRow(page, 3)).toHaveClass(/undone/);

  // Roll forward again (checkpoints are kept), then back to the start: the file is gone.
  await checkpointRow(page, 3).getByTestId('checkpoint-rollback').click();
  await expect(page.getByTestId('viewer')).toContainText('second draft');
  await expect(page.locator('[data-testid=transcript] li.entry.call[data-undone]')).toHaveCount(0);
  await checkpointRow(page, 1).getByTestId('checkpoint-rollback').click();
  await expect(page.locator('[role=tree] [data-path="/notes/todo.md"]')).toHaveCount(0);
  await expect(page.getByTestId('viewer')).toContainText('This file no longer exists.');
  expect((await files(page))['/notes/todo.md']).toBeUndefined();

  // The console session read that content at #3, and rollback keeps versions: a new write after
  // the rollback makes a new branch whose parent is #1.
  await runTool(page, 'write_file', { path: '/notes/other.md', content: 'a new branch\n' });
  await expect(rows).toHaveCount(4);
  await expect(checkpointRow(page, 4)).toHaveAttribute('data-current', 'true');
  await expect(checkpointRow(page, 2)).toHaveClass(/undone/);

  // On demand, and from the keyboard: focus the newest row, move down, Enter shows that step's changes.
  await page.getByTestId('checkpoint-take').click();
  await expect(rows).toHaveCount(5);
  expect((await checkpointLabels(page))[0]).toBe('manual checkpoint');
  await page.locator('[data-testid=checkpoints] .cp-main[tabindex="0"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('.viewer')).toHaveAttribute('data-mode', 'changes');
  await expect(page.getByTestId('viewer-meta')).toHaveText('#1 → #4');
  await expect(page.getByTestId('diff-summary')).toContainText('2 added'); // /notes and /notes/other.md
  await expect(page.locator('.diff-file[data-path="/notes/other.md"] .dl.add .text')).toHaveText(['a new branch']);
  await page.keyboard.press('Tab'); // the row's ↶
  await expect(page.locator(':focus')).toHaveAttribute('data-testid', 'checkpoint-rollback');
  await page.keyboard.press('Enter');
  await expect(checkpointRow(page, 4)).toHaveAttribute('data-current', 'true');
});

test('Clear empties the transcript with Undo, which brings every entry back as it was', async ({ page }) => {
  const rows = page.locator('[data-testid=transcript] li.entry');
  const checkpoints = page.locator('[data-testid=checkpoints] li.checkpoint');
  await runTool(page, 'write_file', { path: '/notes/todo.md', content: 'first draft\n' });
  await runTool(page, 'read_file', { path: '/notes/todo.md', limit: '' });
  await runTool(page, 'edit_file', { path: '/notes/todo.md', old_string: 'first draft', new_string: 'second draft', replace_all: false });
  await expect(checkpoints).toHaveCount(3);
  await checkpointRow(page, 2).getByTestId('checkpoint-rollback').click();
  await expect(page.locator('[data-testid=transcript] li.entry.call[data-tool=edit_file]')).toHaveAttribute('data-undone', '');
  const ids = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));

  await page.locator('.transcript-panel').getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('try-agent')).toBeVisible();
  const notice = page.getByTestId('notice-info');
  await expect(notice).toContainText(`Cleared the transcript (${ids.length} entries).`);
  // A call made after the clear stays, after the entries Undo brings back.
  await runTool(page, 'read_file', { path: '/README.md', limit: '' });
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(notice).toHaveText(`Transcript back (${ids.length} entries).`);
  const back = await rows.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.id));
  expect(back.slice(0, -1)).toEqual(ids);
  await expect(rows.last()).toContainText('/README.md');
  await expect(page.locator('[data-testid=transcript] li.entry.call[data-tool=edit_file]')).toHaveAttribute('data-undone', '');
  await expect(page.getByTestId('transcript-stats')).toHaveText(/^4 calls · /);
  const entries = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { transcript: { entries: Array<{ id: number }> } } }).agentvfs.transcript.entries.map((e) => String(e.id)),
  );
  expect(entries).toEqual(back);
  // Undo re-takes no checkpoint for the calls it brings back.
  await expect(checkpoints).toHaveCount(3);
});

test('the Changes view shows the +/− lines of a known edit', async ({ page }, testInfo) => {
  await runTool(page, 'read_file', { path: '/README.md', limit: '' });
  await runTool(page, 'edit_file', { path: '/README.md', old_string: '# tiny-shop', new_string: '# tiny-shop (edited)', replace_all: false });
  await runTool(page, 'write_file', { path: '/notes/new.md', content: 'one\ntwo\n' });
  await expect(page.locator('[data-testid=checkpoints] li.checkpoint')).toHaveCount(3);

  // What the edit changed (checkpoint #2 against its parent).
  await checkpointRow(page, 2).getByTestId('checkpoint-open').click();
  await expect(page.locator('.viewer')).toHaveAttribute('data-mode', 'changes');
  await expect(page.locator('#viewer-title')).toHaveText('Changes');
  await expect(page.getByTestId('viewer-meta')).toHaveText('#1 → #2');
  await expect(page.getByTestId('diff-summary')).toContainText('0 added · 0 removed · 1 modified');
  await expect(page.locator('.diff-path[data-kind=modified]')).toHaveText(['M/README.md modified']);
  const readme = page.locator('.diff-file[data-path="/README.md"]');
  await expect(readme.locator('.dl.del .text')).toHaveText(['# tiny-shop']);
  await expect(readme.locator('.dl.add .text')).toHaveText(['# tiny-shop (edited)']);
  await expect(readme.locator('.dl.hunk')).toContainText(/^@@ -1,\d+ \+1,\d+ @@/);
  await expect(readme.locator('.dl.del .sign')).toHaveText(['−']);
  // +/− lines are coloured (green / red backgrounds).
  const bg = (sel: string) =>
    readme
      .locator(sel)
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg('.dl.add')).toMatch(/rgba\(74, 222, 128/);
  expect(await bg('.dl.del')).toMatch(/rgba\(248, 113, 113/);

  const shot = testInfo.outputPath('demo-changes-1280x800.png');
  await page.screenshot({ path: shot });
  await testInfo.attach('demo-changes-1280x800', { path: shot, contentType: 'image/png' });

  // Between two picked checkpoints: from the start to now has both changes.
  await page.getByTestId('diff-from').selectOption({ index: 0 });
  await page.getByTestId('diff-to').selectOption('now');
  await expect(page.getByTestId('viewer-meta')).toHaveText('#1 → now');
  await expect(page.getByTestId('diff-summary')).toContainText('2 added · 0 removed · 1 modified'); // /notes and /notes/new.md
  await expect(page.locator('.diff-path[data-kind=added]')).toHaveText(['A/notes added', 'A/notes/new.md added']);
  await expect(page.locator('.diff-file[data-path="/notes/new.md"] .dl.add .text')).toHaveText(['one', 'two']);

  // "now" follows new changes; a path opens the file (back to the File view).
  await runTool(page, 'write_file', { path: '/notes/third.md', content: 'three\n' });
  await expect(page.getByTestId('diff-summary')).toContainText('3 added');
  await page.locator('.diff-path[data-path="/notes/new.md"] button').click();
  await expect(page.locator('.viewer')).toHaveAttribute('data-mode', 'file');
  await expect(page.locator('#viewer-title')).toHaveText('/notes/new.md');
  await expect(page.getByTestId('viewer')).toContainText('two');
  await page.getByTestId('viewer-mode-changes').click();
  await expect(page.locator('.viewer')).toHaveAttribute('data-mode', 'changes');
  await page.getByTestId('viewer-mode-file').click();
  await expect(page.getByTestId('viewer')).toContainText('two');
});

test('reload keeps the files, each save writing only what changed; Reset goes back to the sample project', async ({ page }) => {
  const sample = await files(page);
  // The sample project is saved at the first start; every later save follows a change.
  await saved(page);
  const seeded = await saves(page);
  await runTool(page, 'write_file', { path: '/notes/keep.md', content: 'kept across a reload\n' });
  await expect.poll(() => saves(page)).toBe(seeded + 1); // the debounced save, on its own
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  // That save wrote the new file and its folder, not the workspace.
  await expect(page.getByTestId('save-status')).toContainText(/Saved locally · \d+ B written/);
  const before = await files(page);

  await page.reload();
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toBeVisible();
  expect(await files(page)).toEqual(before);
  expect(await checkpointLabels(page)).toEqual(['start: restored from this browser']);
  await expect(page.getByTestId('save-status')).toContainText('Saved locally');

  // The console is a new session after a reload: edit needs a read first, then it is saved again.
  expect(await runTool(page, 'edit_file', { path: '/notes/keep.md', old_string: 'kept', new_string: 'still kept', replace_all: false })).toMatch(
    /^Error: ENOTREAD/,
  );
  await runTool(page, 'read_file', { path: '/notes/keep.md', limit: '' });
  await runTool(page, 'edit_file', { path: '/notes/keep.md', old_string: 'kept', new_string: 'still kept', replace_all: false });
  await expect.poll(() => saves(page)).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  expect((await files(page))['/notes/keep.md']).toBe('still kept across a reload\n');

  await page.getByTestId('reset').click();
  await expect(page.locator('[role=tree] [data-path="/notes/keep.md"]')).toHaveCount(0);
  await saved(page);
  await page.reload();
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  expect(await files(page)).toEqual(sample);
});

test('a second tab follows the first read-only, and takes over when the first closes', async ({ page }) => {
  const second = await page.context().newPage();
  second.on('pageerror', (e) => errors.push(e.message));
  await second.goto('/');
  await expect(second.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await expect(second.getByTestId('save-status')).toHaveAttribute('data-state', 'following');
  await expect(second.getByTestId('save-status')).toContainText('Read-only');
  // Said before any button is pressed, not only by each write that fails.
  await expect(second.getByTestId('notice-read-only')).toContainText('Read-only: another tab holds this workspace.');

  // A change in the first tab shows in the second once it is saved.
  await runTool(page, 'write_file', { path: '/notes/from-first.md', content: 'written in the first tab\n' });
  await saved(page);
  await expect(second.locator('[role=tree] [data-path="/notes/from-first.md"]')).toBeVisible();
  expect((await files(second))['/notes/from-first.md']).toBe('written in the first tab\n');

  // The second tab cannot write, and says why.
  expect(await runTool(second, 'write_file', { path: '/notes/from-second.md', content: 'x\n' })).toMatch(
    /^Error: .*another tab or worker holds workspace "default".*this tab follows its changes and cannot write/,
  );

  // The first tab goes away: the second one writes from then on, and its change is saved.
  await page.close();
  await expect(second.getByTestId('save-status')).not.toHaveAttribute('data-state', 'following');
  await expect(second.getByTestId('notice-read-only')).toHaveCount(0);
  await expect(second.getByTestId('notice-info')).toHaveText('This tab holds the workspace now: it can write.');
  expect(await runTool(second, 'write_file', { path: '/notes/from-second.md', content: 'written in the second tab\n' })).toMatch(/^Created /);
  await saved(second);
  await second.reload();
  await expect(second.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  const now = await files(second);
  expect([now['/notes/from-first.md'], now['/notes/from-second.md']]).toEqual(['written in the first tab\n', 'written in the second tab\n']);
});

test('a corrupt saved workspace is kept aside and reported; the app still works', async ({ page }) => {
  const sample = await files(page);
  const garbage = [0x41, 0x56, 0x46, 0x53, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xde, 0xad, 0xbe, 0xef];
  // A page of the same origin without the app, so nothing holds the database while it is replaced.
  await page.route('**/blank', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' }));
  await page.goto('/blank');
  // What a damaged save from the earlier snapshot adapter looks like: bytes that are not a valid
  // snapshot where that adapter kept them, in a browser that has nothing else saved.
  await page.evaluate(
    (bytes) =>
      new Promise<void>((resolve, reject) => {
        const gone = indexedDB.deleteDatabase('agentvfs');
        gone.onerror = () => reject(gone.error);
        gone.onsuccess = () => {
          const open = indexedDB.open('agentvfs', 1);
          open.onupgradeneeded = () => open.result.createObjectStore('snapshots');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction('snapshots', 'readwrite');
            tx.objectStore('snapshots').put(new Uint8Array(bytes), 'default');
            tx.oncomplete = () => (open.result.close(), resolve());
            tx.onerror = () => reject(tx.error);
          };
        };
      }),
    garbage,
  );
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  const notice = page.getByTestId('notice-corrupt');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('could not be restored, so the sample project was loaded');
  await expect(notice).toContainText('kept aside');
  await expect(notice).toContainText('Invalid snapshot'); // the reason agentvfs gave
  await expect(page.getByRole('alert')).toHaveCount(0); // a status message: it takes no focus and blocks nothing
  expect(await files(page)).toEqual(sample);

  // The bad bytes were kept aside (not deleted): some record under an aside key still holds them.
  const keptAside = await page.evaluate(
    (bytes) =>
      new Promise<boolean>((resolve, reject) => {
        const open = indexedDB.open('agentvfs'); // whatever version the app made
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const names = [...open.result.objectStoreNames];
          const tx = open.result.transaction(names);
          const found: boolean[] = [];
          for (const name of names) {
            const cursor = tx.objectStore(name).openCursor();
            cursor.onsuccess = () => {
              const c = cursor.result;
              if (!c) return;
              const value = c.value instanceof Uint8Array ? c.value : c.value instanceof ArrayBuffer ? new Uint8Array(c.value) : null;
              const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
              if (JSON.stringify(c.key).includes('aside') && value && hex(value).includes(hex(new Uint8Array(bytes)))) found.push(true);
              c.continue();
            };
          }
          tx.oncomplete = () => (open.result.close(), resolve(found.length > 0));
        };
      }),
    garbage,
  );
  expect(keptAside).toBe(true);

  // Non-blocking: the app works and saves again; the notice can be dismissed.
  await runTool(page, 'write_file', { path: '/notes/after.md', content: 'works after a corrupt save\n' });
  await saved(page);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('notice-corrupt')).toHaveCount(0);
  expect((await files(page))['/notes/after.md']).toBe('works after a corrupt save\n');
});
