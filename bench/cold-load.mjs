// Loads as a woken process makes them: each run is a fresh Node process that warms the JIT on a
// few files, then times one uploadFiles of the whole scaled corpus (the copying default, and
// { copy: false }). In bench/run.mjs the runs share a process, so the small scales reuse memory
// the allocator kept from the run before while 16x copies into memory fresh from the kernel;
// here every scale starts alike. Prints ms and minor page faults per MB (10^6 bytes) at each
// scale, and the spread of the per-MB medians (issue 22: within 1.3x).
// Run: npm run bench:cold   (--scale 1,4,16 --runs 5 by default; --tiny: the 200-file corpus, a check that it runs;
// AGENTVFS_DIST=/path/to/index.js for another build). npm run bench runs it after its report.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};

if (process.argv[2] === '--child') {
  const [scale, mode, tiny] = [Number(process.argv[3]), process.argv[4], process.argv[5] === '--tiny'];
  const { createStateBackend } = await import(process.env.AGENTVFS_DIST ?? '../dist/index.js');
  const { loadCorpus, scaledPaths, freshEntries } = await import('./corpus.mjs');
  const entries = scaledPaths(loadCorpus({ tiny }), scale);
  const options = mode === 'copying' ? {} : { copy: false };
  const limits = { limits: { maxFiles: Infinity, maxTotalBytes: Infinity, maxFileBytes: Infinity } };
  await createStateBackend(limits).uploadFiles(freshEntries(entries.slice(0, 3000)), options); // JIT warm-up
  const input = freshEntries(entries);
  const mb = input.reduce((n, [, bytes]) => n + bytes.length, 0) / 1e6;
  globalThis.gc?.();
  const faults = process.resourceUsage().minorPageFault;
  const t = performance.now();
  await createStateBackend(limits).uploadFiles(input, options);
  const ms = performance.now() - t;
  console.log(JSON.stringify({ msPerMB: ms / mb, faultsPerMB: (process.resourceUsage().minorPageFault - faults) / mb, ms }));
  process.exit(0);
}

const scales = arg('--scale', '1,4,16').split(',').map(Number);
const runs = Number(arg('--runs', '5'));
const tiny = process.argv.includes('--tiny');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const self = fileURLToPath(import.meta.url);
console.log(`\nCold loads (bench/cold-load.mjs): one per fresh process${tiny ? ', the tiny corpus' : ''}, median of ${runs}\n`);
console.log('load          scale  ms      ms/MB  faults/MB');
for (const mode of ['copying', 'copy: false']) {
  const perMB = [];
  for (const scale of scales) {
    const results = [];
    for (let run = 0; run < runs; run++) {
      const child = spawnSync(
        process.execPath,
        ['--expose-gc', '--max-old-space-size=16384', self, '--child', String(scale), mode, ...(tiny ? ['--tiny'] : [])],
        { encoding: 'utf8' },
      );
      if (child.status !== 0) throw new Error(`the ${scale}x ${mode} load failed: ${child.stderr}`);
      results.push(JSON.parse(child.stdout));
    }
    const m = median(results.map((r) => r.msPerMB));
    perMB.push(m);
    const row = [
      mode.padEnd(13),
      `${scale}x`.padEnd(6),
      median(results.map((r) => r.ms))
        .toFixed(0)
        .padEnd(7),
      m.toFixed(2).padEnd(6),
    ];
    console.log(`${row.join(' ')} ${Math.round(median(results.map((r) => r.faultsPerMB)))}`);
  }
  const spread = Math.max(...perMB) / Math.min(...perMB);
  if (perMB.length > 1)
    console.log(`${spread <= 1.3 ? 'MET ' : 'MISS'} ${mode} load linear, cold (per-MB cost within 1.3x across ${scales.join('x, ')}x): ${spread.toFixed(2)}x`);
  console.log('');
}
