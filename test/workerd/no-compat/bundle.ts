/**
 * Bundles ./entry.ts into one ES module for workerd: `vitest` → ./mini-vitest.ts,
 * the core (`agentvfs`, and the suite's `../../src/index.ts`) → the built dist/index.js,
 * and no Node built-in allowed (the bundle must run without nodejs_compat).
 */
import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const builtCore = `${root}dist/index.js`;

const redirect: Plugin = {
  name: 'agentvfs-workerd-conformance',
  setup(b) {
    b.onResolve({ filter: /^vitest$/ }, () => ({ path: fileURLToPath(new URL('./mini-vitest.ts', import.meta.url)) }));
    b.onResolve({ filter: /^agentvfs$/ }, () => ({ path: builtCore }));
    b.onResolve({ filter: /\/src\/index\.ts$/ }, (args) => {
      const resolved = new URL(args.path, `file://${args.resolveDir}/`).pathname;
      return resolved === `${root}src/index.ts` ? { path: builtCore } : undefined;
    });
    b.onResolve({ filter: /^(node:|(assert|buffer|events|path|process|stream|url|util|tty|os|fs)$)/ }, (args) => ({
      errors: [{ text: `Node built-in "${args.path}" imported by ${args.importer}: it would not load without nodejs_compat` }],
    }));
  },
};

/** The bundled conformance Worker, as one ES module source text. */
export async function bundleConformanceWorker(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./entry.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser', 'import'],
    write: false,
    logLevel: 'silent',
    plugins: [redirect],
  });
  return result.outputFiles[0]!.text;
}
