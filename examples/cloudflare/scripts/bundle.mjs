#!/usr/bin/env node
// Bundles the example exactly as `wrangler deploy` would (wrangler's own dry run, offline)
// and prints its size, raw and gzip, next to the agentvfs core's own share.
// Usage: node examples/cloudflare/scripts/bundle.mjs [outdir] [--json]
// Exits 1 when the core is over its budget (CORE_BUDGET_GZIP below).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// What the contract puts into the core (the six tools and the backend, five dialects, the guard,
// ignore rules, media, watch, fork and merge), with a little room; its history, and the way back
// down (the dialects in chunks loaded on first use), are in docs/performance.md#bundle-size.
export const CORE_BUDGET_GZIP = 123_000;
const example = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(example, '../..');

const gz = (bytes) => gzipSync(bytes, { level: 9 }).byteLength;

/** Runs `wrangler deploy --dry-run` into `outdir` (minified or not); returns the bundle's path and sizes. */
export function bundleExample(outdir, { minify = false } = {}) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', outdir, ...(minify ? ['--minify'] : [])],
    { cwd: example, stdio: 'pipe', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' } },
  );
  const path = join(outdir, 'index.js');
  const code = readFileSync(path);
  return { path, bytes: code.byteLength, gzip: gz(code) };
}

/** The built core (dist/index.js and what it imports) in one minified module, as a bundler ships it. */
export async function coreSize() {
  const { build } = await import('esbuild');
  const r = await build({
    stdin: { contents: "export * from './dist/index.js';", resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
  });
  const code = r.outputFiles[0].contents;
  return { bytes: code.byteLength, gzip: gz(code) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2] && !process.argv[2].startsWith('--') ? resolve(process.argv[2]) : mkdtempSync(join(tmpdir(), 'agentvfs-cf-'));
  const plain = bundleExample(join(outdir, 'plain'));
  const minified = bundleExample(join(outdir, 'minified'), { minify: true });
  const core = await coreSize();
  const report = { example: { plain, minified }, core: { ...core, budgetGzip: CORE_BUDGET_GZIP, withinBudget: core.gzip <= CORE_BUDGET_GZIP } };
  if (process.argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
  else {
    const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
    console.log(`example (wrangler, unminified): ${kb(plain.bytes)}, gzip ${kb(plain.gzip)}  ${plain.path}`);
    console.log(`example (wrangler --minify):    ${kb(minified.bytes)}, gzip ${kb(minified.gzip)}  ${minified.path}`);
    console.log(
      `agentvfs core (minified):       ${kb(core.bytes)}, gzip ${kb(core.gzip)}  (budget ${CORE_BUDGET_GZIP / 1000} kB gzip: ${report.core.withinBudget ? 'within' : 'OVER'})`,
    );
  }
  process.exit(report.core.withinBudget ? 0 : 1);
}
