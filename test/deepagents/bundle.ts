/**
 * Bundles a deep agent test entry (deepagents, LangGraph, @langchain/core and the built agentvfs)
 * into one ES module for a browser page, a Web Worker or workerd, as a browser bundler would:
 * esbuild's browser platform and conditions, so deepagents, langchain and LangGraph use their
 * browser entries (LangGraph's needs no AsyncLocalStorage) and langsmith its browser stubs.
 * `agentvfs`, `agentvfs/client` and `agentvfs/langchain` resolve to the built dist/.
 *
 * What those browser entries still import from Node, and how the bundle gets by without it
 * (docs/langchain.md reports the same):
 * - micromatch (deepagents' glob and grep filters) and fill-range `require('util')` for
 *   util.inspect in error messages; picomatch `require('path')` for path.sep and basename, and
 *   reads `process.platform` as it loads: replaced by the few lines they use, the platform by
 *   "linux". (A CommonJS require of a built-in cannot run in an ES module anyway.)
 * - langsmith's sandbox client (deepagents' LangSmith sandbox backend, not used here) imports
 *   node:fs/promises and node:path: empty modules, so any use would fail loudly.
 */
import { build, type Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

const SHIMS: Record<string, string> = {
  util: 'module.exports = { inspect: (value) => JSON.stringify(value) };',
  path: "module.exports = { sep: '/', basename: (p) => p.slice(p.lastIndexOf('/') + 1) };",
};
const UNUSED_NODE = /^node:(fs\/promises|path)$/;

const runtimeNeutral: Plugin = {
  name: 'agentvfs-deepagents-bundle',
  setup(b) {
    b.onResolve({ filter: /^agentvfs(\/(client|langchain))?$/ }, (args) => ({
      path: `${root}dist/${args.path === 'agentvfs' ? 'index' : args.path.slice(9)}.js`,
    }));
    b.onResolve({ filter: /^(util|path)$/ }, (args) => ({ path: args.path, namespace: 'shim' }));
    b.onResolve({ filter: UNUSED_NODE }, (args) => ({ path: args.path, namespace: 'unused-node' }));
    b.onLoad({ filter: /.*/, namespace: 'shim' }, (args) => ({ contents: SHIMS[args.path]!, loader: 'js' }));
    b.onLoad({ filter: /.*/, namespace: 'unused-node' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
    // Anything else from Node would not load in a browser: fail the build, naming it.
    b.onResolve({ filter: /^node:|^(assert|buffer|events|process|stream|url|tty|os|fs|async_hooks|crypto|child_process|worker_threads|zlib)$/ }, (args) => ({
      errors: [{ text: `Node built-in "${args.path}" imported by ${args.importer}` }],
    }));
  },
};

/** The bundle of `entry` as one ES module's source text. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser', 'import'],
    define: { 'process.platform': '"linux"' },
    write: false,
    logLevel: 'error',
    plugins: [runtimeNeutral],
  });
  return result.outputFiles[0]!.text;
}
