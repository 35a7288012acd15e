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

// 80 kB held the six tools and the backend (issue 6). Issues 18-22 put into the core, as the contract
// asks: five tool dialects with apply_patch (~20 kB), the guard (~6 kB), .gitignore rules (the ignore
// package) and media (~6 kB), watch, fork and merge (node-diff3, ~6 kB): 97 kB measured 2026-11-25.
// Splitting the dialects into chunks loaded on first use is the way back down (noted for planning).
// 2026-11-26: globs moved onto the grep engine (105.4 kB), then the npm buffer polyfill (25 kB
// minified) gave way to the two calls the storage makes (scripts/shims/buffer.js): 97.2 kB; the
// day's tool fixes (capped dialect reads, search hints, per-dialect wording) took it to 100.2 kB.
// 2026-11-26 night: 105.1 kB, with calls cancelled by their signal and every dialect's writes
// refusing half characters: 107 kB leaves room for fixes; the chunks above are the way down.
// 2026-11-27: 107.6 kB, with the audits' fixes (exact diffs, media checked to their end, linear
// line searches for edit_file and apply_patch, directory_tree within its cap): 109 kB.
// 2026-11-27 later: 110.9 kB, with what the audits of model mistakes and permissions asked for
// (paths a model gets wrong refused with the path meant, hints for common slips, each dialect's
// words in notes, directories asked about, unreadable files answered as missing): 112 kB.
// 2026-11-27 evening: 111.9 kB with tools.preview (a call's diffs for a framework's approval step): 114 kB.
// 2026-11-27 night: node-diff3 gave way to agentvfs's own diff3 (merges of large files no longer
// stall, and a merge that would bring back or double a line conflicts instead), whose line diff
// now also draws every unified diff: 113.9 kB: 115 kB.
export const CORE_BUDGET_GZIP = 115_000;
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
