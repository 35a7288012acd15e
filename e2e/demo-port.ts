// Where the e2e run serves the playground (playwright.config.ts webServer). A port of its own,
// away from `npm run demo` (4317, or the next free ports when that one is taken), so a
// playground you are running is never reused or in the way. DEMO_E2E_PORT moves it, e.g. for
// two runs at once on one machine; each port builds into its own folder.
import { join } from 'node:path';

export const DEMO_E2E_PORT = Number(process.env.DEMO_E2E_PORT ?? 4390);
export const DEMO_E2E_URL = `http://127.0.0.1:${DEMO_E2E_PORT}/`;
/** Absolute: Vite resolves a relative outDir against demo/. */
export const DEMO_E2E_OUT_DIR = join(import.meta.dirname, `../node_modules/.cache/agentvfs-demo-e2e-${DEMO_E2E_PORT}`);
