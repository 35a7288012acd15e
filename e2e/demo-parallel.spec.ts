/// <reference lib="dom" />
// The playground's parallel-subagents run in real Chromium, at desktop and phone width: two
// forks of the workspace in the worker work at once, the renamer's merge lands, the tester's
// merge reports one conflict (changing nothing), the tester settles it and its merge lands.
// The file tree follows the worker's watch events (no re-listing): a file written in the
// workspace appears in it, and a fork's writes never do before their merge.
import { expect, test, type Page } from '@playwright/test';
import { DEMO_E2E_URL } from './demo-port.ts';

test.use({ baseURL: DEMO_E2E_URL });

type Api = {
  agentvfs: {
    backend: { glob(p: string): Promise<string[]>; readText(p: string): Promise<string>; writeFile(p: string, d: string): Promise<unknown> };
    transcript: { entries: Array<{ kind: string; source: string; text?: string; tool?: string; ok?: boolean; note?: string }> };
  };
};

function files(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const { backend } = (globalThis as unknown as Api).agentvfs;
    const out: Record<string, string> = {};
    for (const path of (await backend.glob('**')).sort()) out[path] = await backend.readText(path);
    return out;
  });
}

const treeRows = (page: Page) => page.locator('[role=tree] [role=treeitem]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.path));

for (const { width, height, phone } of [
  { width: 1280, height: 800, phone: false },
  { width: 390, height: 844, phone: true },
]) {
  test(`parallel subagents fork, work, merge, and settle one conflict (${width}px)`, async ({ page }, testInfo) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');

    if (phone) await page.getByTestId('view-tools').click();
    await page.getByTestId('tab-agent').click();
    await page.getByTestId('parallel-run').click();
    await expect(page.getByTestId('parallel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    await expect(page.getByTestId('parallel-status')).toContainText('1 conflict reported, then settled in the fork (/README.md, content)');
    const forks = page.getByTestId('parallel-forks');
    await expect(forks.locator('[data-fork=renamer]')).toHaveAttribute('data-state', 'merged');
    await expect(forks.locator('[data-fork=tester]')).toHaveAttribute('data-state', 'merged');
    // Each row counts only what that subagent wrote: not the renamer's files, which the tester's
    // fork took in from the workspace to settle the conflict.
    await expect(forks.locator('[data-fork=tester]')).toHaveText('tester: merged, 2 files changed in its fork (/test/quantity.test.ts, /README.md)');
    await expect(forks.locator('[data-fork=renamer]')).toHaveText(
      'renamer: merged, 7 files changed in its fork (/README.md, /src/cart.ts, /src/checkout.ts, /src/components/PriceTag.tsx, /src/index.ts, /src/utils/format.ts, /test/format.test.ts)',
    );

    const after = await files(page);
    for (const [path, text] of Object.entries(after)) expect(text, path).not.toContain('formatPrice');
    expect(after['/README.md']).toContain('shown with `formatMoney` from `src/utils/format.ts`. Quantities are covered by `test/quantity.test.ts`.');
    expect(after['/test/quantity.test.ts']).toContain("describe('formatQuantity'");

    // The transcript: both subagents worked (their calls interleave), one merge stopped on the conflict.
    const entries = await page.evaluate(() => (globalThis as unknown as Api).agentvfs.transcript.entries);
    const subagentCalls = entries.filter((e) => e.kind === 'call' && e.source === 'subagent');
    expect(subagentCalls.some((e) => e.note?.startsWith('[renamer]'))).toBe(true);
    expect(subagentCalls.some((e) => e.note?.startsWith('[tester]'))).toBe(true);
    expect(subagentCalls.every((e) => e.ok)).toBe(true);
    const events = entries.filter((e) => e.kind === 'event').map((e) => e.text ?? '');
    expect(events[0]).toBe('Workspace reset to the sample project for the parallel subagents.');
    expect(events.filter((t) => /stopped on a conflict, and changed nothing/.test(t))).toHaveLength(1);
    expect(events.filter((t) => /^Merged the (renamer|tester)'s fork/.test(t))).toHaveLength(2);

    // The tree shows the merged test file, from watch events (no reload).
    if (phone) await page.getByTestId('view-files').click();
    await expect.poll(() => treeRows(page)).toContain('/test/quantity.test.ts');
    await page.evaluate(() => (globalThis as unknown as Api).agentvfs.backend.writeFile('/from-page.txt', 'x'));
    await expect.poll(() => treeRows(page)).toContain('/from-page.txt');
    const shot = testInfo.outputPath(`parallel-${width}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`parallel-${width}`, { path: shot, contentType: 'image/png' });
    expect(errors, 'no console errors').toEqual([]);
  });
}

/**
 * Runs the parallel subagents with "Ask before writes" on, denying the first question and
 * allowing every later one (Allow, not Always: each write is asked); returns every question's title.
 */
async function parallelRunDenyingTheFirstWrite(page: Page): Promise<string[]> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('ask-before-writes').check();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('parallel-run').click();
  const dialog = page.getByTestId('approval-dialog');
  const status = page.getByTestId('parallel-status');
  const asked: string[] = [];
  const deadline = Date.now() + 60_000;
  while (!/^(Done|Finished|Stopped|Failed)/.test((await status.textContent()) ?? '')) {
    expect(Date.now(), `still running; asked so far: ${asked.join(' | ')}`).toBeLessThan(deadline);
    if (await dialog.isVisible()) {
      // An answer closes the dialog at once; it opens again on the next question, maybe the other subagent's.
      asked.push((await dialog.locator('h2').textContent()) ?? '');
      await page.getByTestId(asked.length === 1 ? 'approval-deny' : 'approval-allow').click();
    } else await page.waitForTimeout(50);
  }
  return asked;
}

test('with "Ask before writes" on, the subagents ask before each write in their forks', async ({ page }) => {
  const asked = await parallelRunDenyingTheFirstWrite(page);
  expect(asked[0]).toMatch(/^Allow (edit_file|write_file) to (change|create) \//);
  expect(asked.length).toBeGreaterThan(3);
  // The denied write never reaches the workspace.
  await expect(page.getByTestId('parallel-status')).toHaveText(/^Finished without the write you denied/);
});

test('with "Ask before writes" on, the subagents’ writes carry decision badges in the transcript, as the main agent’s do', async ({ page }) => {
  const answered = (await parallelRunDenyingTheFirstWrite(page)).length;
  const writes = page.locator('[data-testid=transcript] li.call[data-source=subagent]:is([data-tool=write_file], [data-tool=edit_file])');
  expect(await writes.count()).toBe(answered);
  const decisions = await writes.evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.decision ?? 'none'));
  expect(decisions.filter((d) => d === 'deny')).toHaveLength(1);
  expect(decisions.filter((d) => d === 'allow')).toHaveLength(answered - 1);
  await expect(writes.locator('.badge.decision')).toHaveCount(answered);
  // The audit numbers each subagent's calls in its session, as it does the main agent's.
  const seqs = await page.evaluate(() =>
    (globalThis as unknown as { agentvfs: { transcript: { entries: Array<{ kind: string; source: string; seq?: number }> } } }).agentvfs.transcript.entries
      .filter((e) => e.kind === 'call' && e.source === 'subagent')
      .map((e) => e.seq ?? null),
  );
  expect(seqs).not.toContain(null);
});
