// Snapshot and restore of a 100 MB, 20,000-file tree, in MB/s (issue 3's benchmark; target ≥ 1 GB/s
// each way, snapshot size ≤ 1.1 × content). Run: npm run bench:snapshot   (add --tiny for a quick check)
// AGENTVFS_DIST=/path/to/index.js runs it against another build (to compare before and after a change).
const { createStateBackend } = await import(process.env.AGENTVFS_DIST ?? '../dist/index.js');

const tiny = process.argv.includes('--tiny');
const FILES = tiny ? 500 : 20_000;
const SIZE = 5_000; // bytes per file: 100 MB in all
const RUNS = tiny ? 2 : 5;
const limits = { maxTotalBytes: Infinity, maxFiles: Infinity };
const encoder = new TextEncoder();
const source = createStateBackend({ limits });
await source.uploadFiles(
  Array.from({ length: FILES }, (_, i) => [
    `/pkg${i % 100}/src/d${i % 7}/file${i}.ts`,
    encoder.encode(`// file ${i}\n${'export const x = 1;\n'.repeat(SIZE / 19)}`.slice(0, SIZE)),
  ]),
);
const content = FILES * SIZE;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const snapMs = [];
const restoreMs = [];
let size = 0;
for (let run = 0; run <= RUNS; run++) {
  let t = performance.now();
  const bytes = await source.snapshot();
  const s = performance.now() - t;
  const target = createStateBackend({ limits });
  t = performance.now();
  await target.restore(bytes);
  const r = performance.now() - t;
  if (run === 0) continue; // warm-up
  snapMs.push(s);
  restoreMs.push(r);
  size = bytes.length;
}
// Rollback of the same tree to a checkpoint taken just before one small change (rebuilds every entry).
const rollbackMs = [];
for (let run = 0; run <= RUNS; run++) {
  const id = await source.checkpoint();
  await source.writeFile('/rollback-probe.txt', `run ${run}`);
  const t = performance.now();
  await source.rollback(id);
  if (run > 0) rollbackMs.push(performance.now() - t);
}
const mbps = (ms) => (content / 1e6 / (ms / 1000)).toFixed(0);
console.log(`${FILES} files, ${(content / 1e6).toFixed(0)} MB of content, median of ${RUNS} runs after a warm-up`);
console.log(`snapshot: ${median(snapMs).toFixed(0)} ms = ${mbps(median(snapMs))} MB/s`);
console.log(`restore:  ${median(restoreMs).toFixed(0)} ms = ${mbps(median(restoreMs))} MB/s`);
console.log(`size:     ${(size / content).toFixed(3)} × content (target ≤ 1.1)`);
console.log(`rollback: ${median(rollbackMs).toFixed(0)} ms (${FILES} files, to a checkpoint one write back)`);
