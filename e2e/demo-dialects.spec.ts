/// <reference lib="dom" />
// The playground's dialects: the tool console runs another model family's tools, and the
// scripted agent does the same rename with each dialect's tools, side by side. Wide and phone width.
import { expect, test, type Page } from '@playwright/test';
import { DEMO_E2E_URL } from './demo-port.ts';

test.use({ baseURL: DEMO_E2E_URL });

let errors: string[] = [];

test.beforeEach(async ({ page }) => {
  errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
});

test.afterEach(() => {
  expect(errors, 'no console errors').toEqual([]);
});

async function open(page: Page, width: number, height: number): Promise<void> {
  await page.setViewportSize({ width, height });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  // Where not every panel fits, the switcher shows the tools.
  const toolsView = page.getByTestId('view-tools');
  if (await toolsView.isVisible()) await toolsView.click();
}

const readText = (page: Page, path: string) =>
  page.evaluate((p) => (globalThis as unknown as { agentvfs: { backend: { readText(p: string): Promise<string> } } }).agentvfs.backend.readText(p), path);

/**
 * Where the text of each element `selector` matches (tool names) breaks onto a new line in the
 * middle of a word: the characters on either side of each break (a break after "_", "," or " " is between words).
 */
const midWordBreaks = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((codes) =>
    codes.flatMap((code) => {
      const text = code.textContent ?? '';
      const range = document.createRange();
      // Each character's line: the top of its box (a text node per piece between <wbr>s).
      const chars: { ch: string; top: number }[] = [];
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < (node.textContent ?? '').length; i++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          chars.push({ ch: node.textContent![i]!, top: range.getBoundingClientRect().top });
        }
      }
      const breaks: string[] = [];
      for (let i = 1; i < chars.length; i++) {
        // (a space at a line's end may sit on either line: skip it)
        if (chars[i]!.ch === ' ' || chars[i - 1]!.ch === ' ') continue;
        if (chars[i]!.top > chars[i - 1]!.top + 2 && !'_,'.includes(chars[i - 1]!.ch)) breaks.push(`${text}: ${chars[i - 1]!.ch}|${chars[i]!.ch}`);
      }
      return breaks;
    }),
  );

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 1366, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${width} px: the console runs the anthropic and mcp-filesystem tools`, async ({ page }) => {
    await open(page, width, height);
    await page.getByTestId('console-dialect').selectOption('anthropic');
    await expect(page.getByTestId('tool-str_replace_based_edit_tool')).toBeVisible();
    await expect(page.getByTestId('tool-read_file')).toHaveCount(0);
    // The tool picker wraps a long name after an underscore, never inside a word ("…edit_too" / "l").
    expect(await midWordBreaks(page, '.console .segment span')).toEqual([]);
    await page.getByTestId('console-run').click();
    await expect(page.getByTestId('console-result')).toContainText("Here's the result of running `cat -n` on /src/cart.ts:\n     1\t");

    await page.getByTestId('console-dialect').selectOption('mcp-filesystem');
    // The anthropic call's result is gone from the console (it stays in the transcript): the next run is mcp-filesystem's.
    await expect(page.getByTestId('console-result')).toHaveText('Run a tool to see its result.');
    await expect(page.getByTestId('console-call')).toHaveText('');
    await expect(page.getByTestId('console-meta')).toHaveText('');
    expect(await midWordBreaks(page, '.console .segment span')).toEqual([]); // list_directory_with_siz / es at 390 px
    await page.getByTestId('tool-edit_file').click();
    await page.getByTestId('console-run').click();
    await expect(page.getByTestId('console-result')).toContainText('-A small storefront library');
    await expect(page.getByTestId('console-result')).toContainText('+A tiny storefront library');
    expect(await readText(page, '/README.md')).toContain('A tiny storefront library');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scroll').toBe(0);
  });
}

for (const { width, height } of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`at ${width} px: Preview shows what a call would write, or why it would fail, and writes nothing`, async ({ page }) => {
    await open(page, width, height);
    const before = await readText(page, '/README.md');
    await page.getByTestId('tool-edit_file').click();
    await page.getByTestId('console-preview').click();
    const preview = page.getByTestId('console-preview-result');
    await expect(preview).toContainText('Error: ENOTREAD: /README.md has not been read in this session.');
    await expect(page.getByTestId('console-result')).toBeHidden();
    await page.getByTestId('tool-read_file').click();
    await page.locator('#arg-read_file-path').fill('/README.md');
    await page.getByTestId('console-run').click();
    await expect(page.getByTestId('console-result')).toContainText('A small storefront library');
    await expect(preview).toBeHidden();
    await page.getByTestId('tool-edit_file').click();
    await page.getByTestId('console-preview').click();
    await expect(preview.locator('.preview-path')).toHaveText('Changes /README.md');
    // A move is named as one.
    await page.getByTestId('console-dialect').selectOption('mcp-filesystem');
    await expect(preview).toBeHidden(); // the agentvfs preview went with its dialect
    await expect(page.getByTestId('console-result')).toHaveText('Run a tool to see its result.');
    await page.getByTestId('tool-move_file').click();
    await page.getByTestId('console-preview').click();
    await expect(preview.locator('.preview-path')).toHaveText('Moves /README.md to /docs/README.md');
    await page.getByTestId('console-dialect').selectOption('agentvfs');
    await page.getByTestId('tool-read_file').click();
    await page.locator('#arg-read_file-path').fill('/README.md');
    await page.getByTestId('console-run').click();
    await expect(page.getByTestId('console-result')).toContainText('A small storefront library');
    await page.getByTestId('tool-edit_file').click();
    await page.getByTestId('console-preview').click();
    await expect(preview.locator('.dl.del .text')).toHaveText(['A small storefront library: a cart, a checkout and a price tag component.']);
    await expect(preview.locator('.dl.add .text')).toHaveText(['A tiny storefront library: a cart, a checkout and a price tag component.']);
    await expect(page.getByTestId('console-meta')).toHaveText('1 change · nothing written yet');
    expect(await readText(page, '/README.md')).toBe(before);
    // The preview counted as no read or write: the edit runs as previewed.
    await page.getByTestId('console-run').click();
    await expect(page.getByTestId('console-result')).toContainText('Edited /README.md: 1 replacement.');
    expect(await readText(page, '/README.md')).toBe(before.replace('A small storefront library', 'A tiny storefront library'));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scroll').toBe(0);
  });
}

test('the scripted agent does the same rename with the gemini tools', async ({ page }) => {
  await open(page, 1280, 800);
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-dialect').selectOption('gemini');
  await page.getByTestId('agent-run').click();
  await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('agent-status')).toContainText('Done with the gemini tools: 7 files changed');
  expect(await readText(page, '/src/utils/format.ts')).toContain('export function formatMoney(');
  await expect(page.locator('[data-testid=transcript] li.entry.call', { hasText: 'grep_search' }).first()).toBeVisible();
});

for (const { width, height } of [
  { width: 1366, height: 800 },
  { width: 390, height: 844 },
])
  test(`at ${width} px, the same task runs in every dialect, side by side, each tool name wrapped between its words`, async ({ page }) => {
    await open(page, width, height);
    await page.getByTestId('tab-agent').click();
    await page.getByTestId('agent-run-all').click();
    await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', 'done', { timeout: 90_000 });
    const rows = page.locator('[data-testid=dialect-compare] tr[data-dialect]');
    await expect(rows).toHaveCount(5);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => [(tr as HTMLElement).dataset.dialect, (tr as HTMLElement).dataset.ok]))).toEqual([
      ['agentvfs', 'true'],
      ['openai', 'true'],
      ['anthropic', 'true'],
      ['gemini', 'true'],
      ['mcp-filesystem', 'true'],
    ]);
    await expect(rows.nth(1)).toContainText('apply_patch');
    await expect(rows.nth(2)).toContainText('str_replace_based_edit_tool');
    // The tool names wrap after an underscore or between names, never inside a word ("…edit_too" / "l").
    expect(await midWordBreaks(page, '[data-testid=dialect-compare] td:nth-child(3) code')).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scroll').toBe(0);
  });

test('a write denied during a dialect run: the run finishes without it and says so, as the scripted run does', async ({ page }) => {
  await open(page, 1280, 800);
  await page.getByTestId('ask-before-writes').check();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-dialect').selectOption('gemini');
  await page.getByTestId('agent-run').click();
  const dialog = page.getByTestId('approval-dialog');
  await expect(dialog).toBeVisible();
  const denied = /^Allow replace to change (\/\S+)\?$/.exec((await dialog.locator('h2').textContent()) ?? '')?.[1];
  expect(denied, 'the first question is a rename').toBeDefined();
  await page.getByTestId('approval-deny').click();
  // The rest is allowed: the next question of the run, answered with Always.
  await expect(dialog).toBeVisible();
  await page.getByTestId('approval-always').click();
  await expect(page.getByTestId('agent-status')).toHaveText('Finished without the write you denied; see the transcript.', { timeout: 30_000 });
  await expect(page.locator('[data-testid=transcript] li.entry.event').last()).toHaveText(
    /Finished without the write you denied: those files are unchanged \(see the transcript\)\.$/,
  );
  expect(await readText(page, denied!)).toContain('formatPrice');
  expect(await readText(page, '/CHANGELOG.md')).toContain(`in 6 of 7 files; ${denied} still uses \`formatPrice\`.`);
});

test("a dialect's writes take checkpoints as write_file and edit_file do, named by the file written", async ({ page }) => {
  await open(page, 1280, 800);
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-dialect').selectOption('gemini');
  await page.getByTestId('agent-run').click();
  await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  const labels = page.locator('[data-testid=checkpoints] li.checkpoint .cp-label');
  // Newest first: the changelog (gemini's write_file names its file_path), then one per replace.
  await expect(labels.first()).toHaveText('write_file /CHANGELOG.md');
  const replaced = (await labels.allTextContents()).filter((l) => l.startsWith('replace '));
  expect(replaced.sort()).toEqual(
    ['/README.md', '/src/cart.ts', '/src/checkout.ts', '/src/components/PriceTag.tsx', '/src/index.ts', '/src/utils/format.ts', '/test/format.test.ts'].map(
      (p) => `replace ${p}`,
    ),
  );
  // The transcript row names the file too.
  await expect(page.locator('[data-testid=transcript] li.call[data-tool=replace] .target').first()).toHaveText(/^\/\S+$/);

  // apply_patch: one patch over every file is one checkpoint, named by how many files it wrote.
  await page.getByTestId('agent-dialect').selectOption('openai');
  await page.getByTestId('agent-run').click();
  await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  expect((await labels.allTextContents()).slice(0, 2)).toEqual(['apply_patch /CHANGELOG.md', 'apply_patch 7 files']);
});
