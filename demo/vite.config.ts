// Vite config for the playground (demo/). Kept apart from the top-level vite.config.ts,
// which is the Vitest config: `vite build|preview --config demo/vite.config.ts`.
//
// The demo uses the package exactly as users do: `agentvfs`, `agentvfs/client`, `agentvfs/persist` and `agentvfs/ai`
// resolve to the built dist/ (run `npm run build` first), and the backend runs in the
// prebuilt Web Worker started by createWorkerBackend().
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export const DEMO_PORT = 4317;

export default defineConfig(({ isPreview }) => ({
  root: here('.'),
  base: './',
  publicDir: false,
  logLevel: isPreview ? 'info' : 'warn', // preview prints the URL
  resolve: {
    alias: [
      { find: /^agentvfs$/, replacement: here('../dist/index.js') },
      { find: /^agentvfs\/client$/, replacement: here('../dist/client.js') },
      { find: /^agentvfs\/persist$/, replacement: here('../dist/persist.js') },
      { find: /^agentvfs\/ai$/, replacement: here('../dist/ai.js') },
    ],
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // One chunk on purpose: agentvfs/client embeds the prebuilt worker (~600 kB) so it needs no bundler support.
    chunkSizeWarningLimit: 1200,
  },
  // Not strict: a taken port moves to the next free one (scripts/demo-serve.mjs prints which).
  // The e2e run passes --strictPort with a port of its own (playwright.config.ts).
  preview: { host: '127.0.0.1', port: DEMO_PORT, strictPort: false },
  server: { host: '127.0.0.1', port: DEMO_PORT },
}));
