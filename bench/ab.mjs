// A/B of grep and glob between two builds in one process, alternating calls so that the
// machine's drift hits both alike: node --expose-gc bench/ab.mjs DIST_A DIST_B [rounds]
import { loadCorpus, scaledPaths, freshEntries, ROOT } from './corpus.mjs';

const [distA, distB, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 60);
const QUERIES = {
  literal: (b) => b.grep('readFileSync', { path: ROOT, fixedStrings: true }),
  regex: (b) => b.grep(String.raw`function\s+\w+Sync\b`, { path: ROOT }),
  ignore_case: (b) => b.grep('todo', { path: ROOT, fixedStrings: true, ignoreCase: true }),
  glob: (b) => b.glob('**/*.d.ts', { path: ROOT }), // the pattern of bench/run.mjs's glob row
};
const corpus = loadCorpus();
const entries = scaledPaths(corpus, 1);
const BIG = { maxFileBytes: 2 ** 30, maxTotalBytes: 2 ** 40, maxFiles: 10_000_000 };
const backends = [];
for (const dist of [distA, distB]) {
  const { createStateBackend } = await import(`${dist}/index.js`);
  const b = createStateBackend({ limits: BIG });
  await b.uploadFiles(freshEntries(entries), { copy: false });
  await b.prepareSearch();
  backends.push(b);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, query] of Object.entries(QUERIES)) {
  const times = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (const k of r % 2 ? [1, 0] : [0, 1]) {
      const t = performance.now();
      await query(backends[k]);
      times[k].push(performance.now() - t);
    }
  }
  const [a, b] = times.map((t) => t.slice(5)); // the first runs warm up
  console.log(
    `${name.padEnd(12)} A median ${median(a).toFixed(2)} min ${Math.min(...a).toFixed(2)}   B median ${median(b).toFixed(2)} min ${Math.min(...b).toFixed(2)}   B/A ${(median(b) / median(a)).toFixed(3)}`,
  );
}
console.log(`${corpus.files.length} files, ${(corpus.bytes / 1e6).toFixed(1)} MB, ${rounds} alternating rounds`);
