// Takes the README's picture of the playground (docs/images/playground.png, 1280x800): the
// scripted agent's finished run, with the edit it had to redo (ESTALE) open in the transcript.
// Usage: start the playground (npm run demo), then node scripts/demo-screenshot.mjs [URL]
// (default http://127.0.0.1:4317/). Uses Debian's Chromium (/usr/bin/chromium, or $CHROMIUM).
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './chromium.mjs';

const url = process.argv[2] ?? 'http://127.0.0.1:4317/';
const out = fileURLToPath(new URL('../docs/images/playground.png', import.meta.url));
const browser = await chromium.launch(CHROMIUM);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.getByTestId('worker-status').and(page.locator('[data-state=ready]')).waitFor();
  await page.getByTestId('tab-agent').click();
  await page.getByTestId('agent-run').click();
  await page.locator('.agent-panel[data-state=done]').waitFor({ timeout: 60_000 });
  await page.locator('[role=tree] [data-path="/src/checkout.ts"]').click();
  const stale = page.locator('[data-testid=transcript] li.entry.call[data-ok=false]');
  await stale.locator('summary').click();
  await stale.scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0); // no hover highlight in the picture
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}
