/// <reference lib="dom" />
// The playground on a wide, a medium and a phone-sized screen: no sideways scroll, every panel
// reachable (side by side, or through the panel switcher), nothing cut, messages that never
// cover a panel, checkpoint labels that wrap between names. Screenshots of each width are
// attached to the test (test-results/).
import { expect, test, type Page } from '@playwright/test';
import { DEMO_E2E_URL } from './demo-port.ts';

test.use({ baseURL: DEMO_E2E_URL });

type View = 'files' | 'viewer' | 'transcript' | 'tools';
/** Each panel, and the switcher tab that shows it where not everything fits. */
const PANELS: Array<{ name: string; selector: string; view: View }> = [
  { name: 'Files', selector: '.panel.files', view: 'files' },
  { name: 'Checkpoints', selector: '.panel.checkpoints-panel', view: 'files' },
  { name: 'Viewer', selector: '.panel.viewer', view: 'viewer' },
  { name: 'Transcript', selector: '.panel.transcript-panel', view: 'transcript' },
  { name: 'Tools', selector: '.panel.right', view: 'tools' },
];

/** What must be shown whole wherever it is on screen: titles, labels, buttons, tabs, status. */
const WHOLE = [
  '.topbar h1',
  '.topbar .tagline',
  '.topbar button',
  '.views [role=tab]',
  '.panel-head h2',
  '.panel-head button',
  '.panel-head .segment',
  '[data-testid=tree-summary]',
  '[data-testid=viewer-meta]',
  '[data-testid=checkpoint-count]',
  '.tablist [role=tab]',
  '.console .segment',
  '[data-testid=console-run]',
  '.cp-label',
  '.cp-meta > *',
  '.statusbar .pill',
  '.notice',
  '.phone-intro > *',
].join(', ');

const WIDTHS = [
  { width: 1440, height: 900, switcher: [] as View[] },
  { width: 800, height: 900, switcher: ['viewer', 'tools'] as View[] },
  { width: 390, height: 844, switcher: ['files', 'viewer', 'transcript', 'tools'] as View[] },
];

let errors: string[] = [];

test.beforeEach(async ({ page }) => {
  errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
});

test.afterEach(() => {
  expect(errors, 'no console errors').toEqual([]);
});

/**
 * Every rendered element matching WHOLE that is cut: partly outside the window sideways, or
 * outside an ancestor that clips it (vertically only where that ancestor does not scroll:
 * below the fold of a scrolling panel is reachable), or with its own text overflowing (an ellipsis).
 */
function cutElements(page: Page, whole = WHOLE): Promise<string[]> {
  return page.evaluate((selector) => {
    const out: string[] = [];
    const describe = (el: Element) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // not rendered (another view, or display: none)
      if (r.left < -0.5 || r.right > innerWidth + 0.5)
        out.push(`${describe(el)} leaves the window sideways (${r.left.toFixed(0)}..${r.right.toFixed(0)} of ${innerWidth})`);
      let scrolled = false;
      for (let a = el.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        const scrolls = (v: string) => v === 'auto' || v === 'scroll';
        const box = a.getBoundingClientRect();
        if (style.overflowX !== 'visible' && !scrolls(style.overflowX) && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
          out.push(`${describe(el)} is cut sideways by ${describe(a)}`);
        if (scrolls(style.overflowX) && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
          out.push(`${describe(el)} needs ${describe(a)} scrolled sideways`);
        if (!scrolled && style.overflowY !== 'visible' && !scrolls(style.overflowY) && (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5))
          out.push(`${describe(el)} is cut vertically by ${describe(a)}`);
        if (scrolls(style.overflowY)) scrolled = true;
      }
      if (!scrolled && (r.top < -0.5 || r.bottom > innerHeight + 0.5)) out.push(`${describe(el)} is below the window`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        out.push(`${describe(el)} has its text cut (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return out;
  }, whole);
}

/** Where a label's lines break: the characters either side of each break, e.g. "e|/" or "at|ch" (mid-word). */
function lineBreaks(page: Page, selector: string): Promise<Array<{ label: string; breaks: string[] }>> {
  return page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const chars: Array<{ c: string; top: number }> = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          chars.push({ c: node.textContent![i]!, top: range.getBoundingClientRect().top });
        }
      }
      const breaks: string[] = [];
      for (let i = 1; i < chars.length; i++) if (chars[i]!.top > chars[i - 1]!.top + 2) breaks.push(`${chars[i - 1]!.c}|${chars[i]!.c}`);
      return { label: el.textContent ?? '', breaks };
    }),
  );
}

const panelBox = (page: Page, selector: string) => page.locator(selector).boundingBox();

for (const { width, height, switcher } of WIDTHS) {
  test(`at ${width} px wide: no sideways scroll, every panel reachable, nothing cut, messages beside the panels`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
    await expect(page.locator('#viewer-title')).toHaveText('/src/cart.ts');

    // Long labels, as a deep edit or an upload makes them (the timeline is what tool calls feed).
    await page.evaluate(async () => {
      const { timeline } = (globalThis as unknown as { agentvfs: { timeline: { take(label: string, source: string): Promise<unknown> } } }).agentvfs;
      await timeline.take('edit_file /src/components/checkout/PaymentSummary.tsx', 'agent');
      await timeline.take('teammate saved /src/utils/currency-formatting.ts', 'outside');
      await timeline.take('upload agentvfs-20260101-120000.avfs', 'workspace');
    });
    await expect(page.locator('[data-testid=checkpoints] li.checkpoint')).toHaveCount(4);

    // The switcher offers exactly the tabs this width needs.
    const tabs = await page
      .locator('.views [role=tab]')
      .evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).dataset.testid));
    expect(tabs).toEqual(switcher.map((v) => `view-${v}`));

    const noSidewaysScroll = () =>
      page.evaluate(() => [document.documentElement.scrollWidth - document.documentElement.clientWidth, document.body.scrollWidth - document.body.clientWidth]);
    for (const { name, selector, view } of PANELS) {
      if (switcher.length > 0) {
        const tab = page.getByTestId(`view-${switcher.includes(view) ? view : 'viewer'}`);
        if (switcher.includes(view) || !(await page.locator(selector).isVisible())) await tab.click();
        if (switcher.includes(view)) await expect(tab).toHaveAttribute('aria-selected', 'true');
      }
      const panel = page.locator(selector);
      await expect(panel, `${name} is reachable`).toBeVisible();
      const box = (await panelBox(page, selector))!;
      expect(box.x, `${name} starts inside the window`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} ends inside the window`).toBeLessThanOrEqual(width);
      expect(box.y + box.height, `${name} ends above the window's bottom`).toBeLessThanOrEqual(height);
      expect(box.width, `${name} is wide enough to use`).toBeGreaterThanOrEqual(Math.min(230, width - 20));
      expect(box.height, `${name} is tall enough to use`).toBeGreaterThanOrEqual(180);
      expect(await noSidewaysScroll(), `no sideways scroll with ${name} shown`).toEqual([0, 0]);
      expect(await cutElements(page), `nothing cut with ${name} shown`).toEqual([]);
      if (width === 390) {
        // Every control a finger may hit is at least 24 px each way (WCAG 2.2, 2.5.8).
        const small = await page.locator('button, select, [role=treeitem], label.ask-toggle').evaluateAll((els) =>
          els
            .filter((e) => (e as HTMLElement).offsetParent !== null)
            .map((e) => ({ what: (e as HTMLElement).dataset.testid ?? e.textContent?.trim().slice(0, 20), box: e.getBoundingClientRect() }))
            .filter(({ box }) => box.height < 24 || box.width < 24)
            .map(({ what, box }) => `${what} ${Math.round(box.width)}x${Math.round(box.height)}`),
        );
        expect(small, `no control under 24 px with ${name} shown`).toEqual([]);
        const shot = testInfo.outputPath(`demo-${width}-${view}-${name.toLowerCase()}.png`);
        await page.screenshot({ path: shot });
        await testInfo.attach(`${width}px ${name}`, { path: shot, contentType: 'image/png' });
      }
    }

    // The Changes view: its two checkpoint pickers fit beside each other.
    if (switcher.includes('viewer')) await page.getByTestId('view-viewer').click();
    await page.getByTestId('viewer-mode-changes').click();
    await expect(page.getByTestId('diff-from')).toBeVisible();
    expect(await cutElements(page, `${WHOLE}, .compare label, .compare select`), 'nothing cut in the Changes view').toEqual([]);
    await page.getByTestId('viewer-mode-file').click();

    // Checkpoint labels wrap between words, after a '/' or a '-', never inside a name.
    if (switcher.includes('files')) await page.getByTestId('view-files').click();
    for (const { label, breaks } of await lineBreaks(page, '[data-testid=checkpoints] .cp-label')) {
      for (const at of breaks) expect(at, `"${label}" breaks at ${at}`).toMatch(/^[ /-]\|/);
    }

    // Messages: one line at a time, in the status bar, never over a panel.
    for (let i = 0; i < 3; i++) await page.getByTestId('checkpoint-take').click();
    await expect(page.getByTestId('notice-info')).toHaveCount(1);
    await expect(page.getByTestId('notice-info')).toHaveText('Checkpoint #7 taken.');
    const notice = (await page.getByTestId('notice-info').boundingBox())!;
    for (const { name, selector } of PANELS) {
      const box = await panelBox(page, selector);
      if (!box) continue; // on another view
      const overlaps = notice.x < box.x + box.width && box.x < notice.x + notice.width && notice.y < box.y + box.height && box.y < notice.y + notice.height;
      expect(overlaps, `the message stays off ${name}`).toBe(false);
    }
    expect(await cutElements(page), 'nothing cut with a message shown').toEqual([]);

    if (switcher.includes('viewer')) await page.getByTestId('view-viewer').click();
    const shot = testInfo.outputPath(`demo-${width}x${height}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`${width}x${height}`, { path: shot, contentType: 'image/png' });
  });
}

test('on a narrow screen, opening a file or a checkpoint shows the viewer; the switcher works from the keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('view-files').click();
  await expect(page.locator('.panel.viewer')).toBeHidden();
  await page.locator('[role=tree] [data-path="/README.md"]').click();
  await expect(page.locator('.panel.viewer')).toBeVisible();
  await expect(page.locator('#viewer-title')).toHaveText('/README.md');
  await expect(page.getByTestId('view-viewer')).toHaveAttribute('aria-selected', 'true');

  await page.getByTestId('view-files').click();
  await page.getByTestId('checkpoint-open').first().click();
  await expect(page.locator('.viewer')).toHaveAttribute('data-mode', 'changes');
  await expect(page.locator('.panel.viewer')).toBeVisible();

  await page.getByTestId('view-viewer').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('view-transcript')).toBeFocused();
  await expect(page.locator('.panel.transcript-panel')).toBeVisible();
  await expect(page.locator('.panel.viewer')).toBeHidden();
  await page.keyboard.press('End');
  await expect(page.getByTestId('view-tools')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('console-run')).toBeVisible();

  // Widening the window shows everything again; the switcher goes away.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.locator('.views')).toBeHidden();
  for (const { selector } of PANELS) await expect(page.locator(selector)).toBeVisible();
});

test('on a phone, the first screen offers to run the agent, which runs in the Agent tab; wider screens keep their layout', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('view-viewer')).toHaveAttribute('aria-selected', 'true');
  const run = page.getByTestId('phone-intro-run');
  await expect(run).toBeVisible();
  await expect(run).toHaveText('▶ Run the agent');
  await expect(run).toBeInViewport({ ratio: 1 });
  // Between the switcher and the panel, never over it.
  const [views, intro, viewer] = await Promise.all(['.views', '[data-testid=phone-intro]', '.panel.viewer'].map((s) => panelBox(page, s)));
  expect(intro!.y).toBeGreaterThanOrEqual(views!.y + views!.height);
  expect(viewer!.y).toBeGreaterThanOrEqual(intro!.y + intro!.height);
  expect(await cutElements(page, '[data-testid=phone-intro] > *'), 'nothing of the offer cut').toEqual([]);

  await run.click();
  await expect(page.getByTestId('view-tools')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-agent')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', /running|done/);
  // Offered only while nothing has run (as the transcript's own offer): it gives the panel its room back.
  await expect(page.getByTestId('phone-intro')).toBeHidden();
  await expect(page.getByTestId('agent-stop')).toBeFocused();
  await expect(page.locator('.agent-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('agent-run')).toBeFocused();

  // Wider screens show the transcript's offer beside everything else: no intro row.
  await page.evaluate(() => (globalThis as unknown as { agentvfs: { transcript: { clear(): void } } }).agentvfs.transcript.clear());
  for (const width of [800, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 800) await page.getByTestId('view-viewer').click();
    await expect(page.getByTestId('try-agent')).toBeVisible();
    await expect(page.getByTestId('phone-intro')).toBeHidden();
  }
});

test('the page counts files and folders, and says what a file version number is', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await expect(page.getByTestId('worker-status')).toHaveAttribute('data-state', 'ready');
  // The sample project: 8 files in 4 folders (12 paths), so no "8 files" beside "12 paths".
  await expect(page.getByTestId('tree-summary')).toHaveText('8 files, 4 folders · 2.6 KB');
  await expect(page.locator('[data-testid=checkpoints] li.checkpoint').first()).not.toContainText('path');
  // A new file in a new folder: 2 paths, and the tree says 9 files, 5 folders.
  await page.getByTestId('tool-write_file').click();
  await page.locator('#arg-write_file-path').fill('/notes/todo.md');
  await page.getByTestId('console-run').click();
  await expect(page.getByTestId('tree-summary')).toContainText('9 files, 5 folders');
  await expect(page.locator('[data-testid=checkpoints] li.checkpoint[data-index="2"] .cp-meta')).toContainText('2 paths');
  await expect(page.locator('[data-testid=checkpoints] li.checkpoint[data-index="2"] .cp-meta [title]').last()).toHaveAttribute('title', /files and folders/);

  // The viewer's number is the backend's write counter, shared by all files: it says so.
  const meta = page.getByTestId('viewer-meta');
  await page.locator('[role=tree] [data-path="/src/cart.ts"]').click();
  await expect(meta).toHaveText(/^\d+ B · written \d\d:\d\d:\d\d · write #\d+$/);
  await expect(meta).toHaveAttribute('title', /one counter shared by all files and folders/);
  await expect(meta).not.toContainText('version');
});
