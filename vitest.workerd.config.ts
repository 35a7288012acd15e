/**
 * The core and the Cloudflare example inside workerd (Cloudflare's runtime), offline.
 *
 * - project "workerd (nodejs_compat)": @cloudflare/vitest-pool-workers runs Vitest itself
 *   inside workerd, with the example Worker (examples/cloudflare) as its main module.
 *   The pool always adds nodejs_compat(_v2) to the isolate the tests run in (Vitest needs it),
 *   so this is the "with nodejs_compat" run: the conformance suite and the example's tests.
 * - project "workerd (no nodejs_compat)": runs in Node; bundles the conformance suite
 *   with the built core into one Worker and runs it in a Miniflare isolate with no
 *   compatibility flag at all, one Vitest test per conformance test.
 *
 * Both use the built core (dist/): run `npm run build` first.
 */
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig, type Plugin } from 'vitest/config';

const root = dirname(fileURLToPath(import.meta.url));
const builtCore = resolve(root, 'dist/index.js');
// Entries whose sources the tests import by path, and the built file each stands for.
const builtEntries: Record<string, string> = {
  [resolve(root, 'src/index.ts')]: builtCore,
  [resolve(root, 'src/ai/index.ts')]: resolve(root, 'dist/ai.js'),
  [resolve(root, 'src/persist/index.ts')]: resolve(root, 'dist/persist.js'),
};

/** `agentvfs`, `agentvfs/mcp` and the tests' imports of an entry's sources (`../../src/index.ts`) → the built files, as a user would get them. */
const useBuiltCore: Plugin = {
  name: 'agentvfs-built-core',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === 'agentvfs') return builtCore;
    if (source === 'agentvfs/mcp') return resolve(root, 'dist/mcp.js');
    if (source === 'agentvfs/persist') return resolve(root, 'dist/persist.js');
    if (importer && source.startsWith('.')) return builtEntries[resolve(dirname(importer), source)];
    return undefined;
  },
};

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          useBuiltCore,
          cloudflareTest({
            main: resolve(root, 'examples/cloudflare/src/index.ts'),
            wrangler: { configPath: resolve(root, 'examples/cloudflare/wrangler.jsonc') },
            miniflare: { compatibilityFlags: ['nodejs_compat'] },
          }),
        ],
        test: {
          name: 'workerd (nodejs_compat)',
          include: ['test/workerd/pool/**/*.workerd.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'workerd (no nodejs_compat)',
          include: ['test/workerd/no-compat/**/*.workerd.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
