import { defineConfig } from '@playwright/test';

// Debian's Chromium (installed by .ci/run with apt-get): Playwright may not download browsers here.
export default defineConfig({
  testDir: 'e2e',
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: '.vitest-reports/playwright.json' }]],
  // The playground (demo/), built from dist/ and served by `vite preview`; only e2e/demo*.spec.ts use it.
  // Always a fresh build on its own port (4318), so a running `npm run demo` (4317) is never reused.
  webServer: {
    command: 'node node_modules/vite/bin/vite.js build --config demo/vite.config.ts && node node_modules/vite/bin/vite.js preview --config demo/vite.config.ts --host 127.0.0.1 --strictPort --port 4318',
    url: 'http://127.0.0.1:4318/',
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
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
