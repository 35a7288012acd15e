import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './scripts/chromium.mjs';
import { DEMO_E2E_OUT_DIR, DEMO_E2E_PORT, DEMO_E2E_URL } from './e2e/demo-port.ts';

const vite = `node node_modules/vite/bin/vite.js`;

// Debian's Chromium (installed by .ci/run with apt-get): Playwright may not download browsers here.
export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: '.vitest-reports/playwright.json' }]],
  // The playground (demo/), built from dist/ and served by `vite preview`; only e2e/demo*.spec.ts use it.
  // Always a fresh build, into a folder of its own, on a port of its own (e2e/demo-port.ts),
  // so a running `npm run demo` is never reused and demo/dist is never rebuilt under it.
  webServer: {
    command: `${vite} build --config demo/vite.config.ts --outDir ${DEMO_E2E_OUT_DIR} && ${vite} preview --config demo/vite.config.ts --outDir ${DEMO_E2E_OUT_DIR} --host 127.0.0.1 --strictPort --port ${DEMO_E2E_PORT}`,
    url: DEMO_E2E_URL,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
  use: {
    launchOptions: CHROMIUM,
  },
});
