import { defineConfig } from '@playwright/test';

// Debian's Chromium (installed by .ci/run with apt-get): Playwright may not download browsers here.
export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: '.vitest-reports/playwright.json' }]],
  use: {
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
