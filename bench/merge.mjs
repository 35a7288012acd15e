// Three-way merge of one large text file both sides changed (a subagent's fork merged back):
// agentvfs's merge() beside the JavaScript diff3 engines (node-diff3, which agentvfs used until
// 2026-11-27; diff3, isomorphic-git's) and `git merge-file` (C; its time includes starting a
// process and writing three files). Files are code-like: a share of their lines are ones code
// repeats (braces, blank lines), the rest unique; each side makes a number of small edits.
// Each engine runs in a worker of its own (a 2 GiB heap) that is stopped past --timeout-ms (default 60000).
// Then two worst cases: every line repeating, and every } one side removes being moved by the other.
// Run: npm run bench:merge   (--tiny: the small cases, a check that it runs). npm run bench runs it after its report.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
const tiny = process.argv.includes('--tiny');
const timeoutMs = Number(arg('--timeout-ms', tiny ? '20000' : '60000'));

// [lines, share of repeated lines, edits per side]
const CASES = tiny
  ? [
      [2000, 0.5, 10],
      [5000, 0.05, 10],
    ]
  : [
      [2000, 0.5, 10],
      [10000, 0.05, 10],
      [10000, 0.5, 10],
      [20000, 0.5, 10],
      [100000, 0.5, 50],
    ];

function makeCase(lines, repeated, edits, seed) {
  let state = seed;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
  const common = ['}', '', 'return x;', '  }', '{', 'return null;', '} else {', 'break;', '  return x;', '});'];
  let unique = 0;
  const make = (n) =>
    Array.from({ length: n }, () => (random() < repeated ? common[Math.floor(random() * common.length)] : `const v${unique++} = f(${unique});`));
  const edit = (base) => {
    const out = [...base];
    for (let i = 0; i < edits; i++) out.splice(Math.floor(random() * out.length), Math.floor(random() * 4), ...make(Math.floor(random() * 4)));
    return out;
  };
  const base = make(lines);
  return [base, edit(base), edit(base)].map((ls) => `${ls.join('\n')}\n`);
}

// What runs in a worker: one engine, one case; posts { ms, conflicts } (median of up to 3 runs).
const ENGINE = `
import { parentPort, workerData } from 'node:worker_threads';
const { engine, base, ours, theirs, urls } = workerData;
const lines = (text) => text.split(/(?<=\\n)/);
let merge;
if (engine === 'agentvfs') {
  const { createStateBackend } = await import(urls.agentvfs);
  merge = async () => {
    const main = createStateBackend({ files: { '/f.ts': base } });
    const fork = await main.fork();
    await fork.writeFile('/f.ts', theirs);
    await main.writeFile('/f.ts', ours);
    const t = performance.now();
    const { conflicts } = await main.merge(fork);
    return [performance.now() - t, conflicts.reduce((n, c) => n + (c.hunks?.length ?? 1), 0)];
  };
} else {
  const diff3Merge = engine === 'node-diff3' ? (await import(urls['node-diff3'])).diff3Merge : (await import(urls.diff3)).default;
  merge = async () => {
    const [o, b, t] = [lines(ours), lines(base), lines(theirs)];
    const start = performance.now();
    const regions = engine === 'node-diff3' ? diff3Merge(o, b, t, { excludeFalseConflicts: true }) : diff3Merge(o, b, t);
    return [performance.now() - start, regions.filter((r) => r.conflict).length];
  };
}
const times = [];
let conflicts = 0;
for (let run = 0; run < 3; run++) {
  const [ms, n] = await merge();
  times.push(ms);
  conflicts = n;
  if (ms > 1000) break;
}
times.sort((a, b) => a - b);
parentPort.postMessage({ ms: times[Math.floor(times.length / 2)], conflicts });
`;
// A data: URL module resolves no bare names: the engines' files are resolved here, from bench/.
const urls = {
  agentvfs: new URL('../dist/index.js', import.meta.url).href,
  'node-diff3': import.meta.resolve('node-diff3'),
  diff3: import.meta.resolve('diff3'),
};
const engineUrl = new URL(`data:text/javascript,${encodeURIComponent(ENGINE)}`);

function runEngine(engine, [base, ours, theirs]) {
  return new Promise((resolve) => {
    // A heap of its own: an engine that runs out of memory stops its worker, not the benchmark.
    const worker = new Worker(engineUrl, { workerData: { engine, base, ours, theirs, urls }, resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    const timer = setTimeout(() => {
      worker.terminate();
      resolve({ timedOut: true });
    }, timeoutMs);
    worker.once('message', (result) => {
      clearTimeout(timer);
      worker.terminate();
      resolve(result);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      resolve({ error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : error.message });
    });
  });
}

function gitMerge([base, ours, theirs]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentvfs-merge-bench-'));
  try {
    const times = [];
    let conflicts = 0;
    for (let run = 0; run < 3; run++) {
      const t = performance.now();
      const files = ['ours', 'base', 'theirs'].map((name) => path.join(dir, name));
      for (const [i, text] of [ours, base, theirs].entries()) fs.writeFileSync(files[i], text);
      try {
        execFileSync('git', ['merge-file', '-p', ...files], { stdio: ['ignore', 'ignore', 'ignore'] });
        conflicts = 0;
      } catch (error) {
        if (typeof error.status !== 'number' || error.status < 0) return { error: String(error.message) };
        conflicts = error.status;
      }
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { ms: times[1], conflicts };
  } catch (error) {
    return { error: error.code === 'ENOENT' ? 'git not installed' : String(error.message) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const show = (r) =>
  r.timedOut
    ? `> ${timeoutMs / 1000} s`
    : r.error
      ? `(${r.error})`
      : `${r.ms < 10 ? r.ms.toFixed(1) : Math.round(r.ms)} ms, ${r.conflicts} conflict${r.conflicts === 1 ? '' : 's'}`;
const engines = ['agentvfs', 'node-diff3', 'diff3'];
console.log('\nMerge of one text file both sides changed (median of up to 3 runs; conflicts = regions marked)\n');
const header = ['case', ...engines, 'git merge-file'];
const rows = [];
let failed = false;
// Worst cases: every line repeats (three unrelated versions of random lines of a few kinds), and
// one side removing every `}` the other moves to the end (each removal looks like the other's).
const randomLines = (n, kinds, seed) => {
  let state = seed;
  return `${Array.from({ length: n }, () => `${((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) % kinds}`).join('\n')}\n`;
};
const pairs = Array.from({ length: tiny ? 2000 : 20000 }, (_, i) => [`u${i}`, '}']).flat();
const unique = pairs.filter((line) => line !== '}');
const WORST = [
  [`${tiny ? '5,000' : '100,000'} random lines of 16 kinds, three unrelated`, [1, 2, 3].map((seed) => randomLines(tiny ? 5000 : 100000, 16, seed))],
  [
    `${(pairs.length).toLocaleString('en')} lines: ours moves every } to the end, theirs removes them`,
    [pairs, [...unique, ...pairs.filter((line) => line === '}')], unique].map((lines) => `${lines.join('\n')}\n`),
  ],
];
const cases = [
  ...CASES.map(([lines, repeated, edits]) => [
    `${lines.toLocaleString('en')} lines, ${Math.round(repeated * 100)} % repeated, ${edits} edits a side`,
    makeCase(lines, repeated, edits, lines + edits),
  ]),
  ...WORST,
];
for (const [label, files] of cases) {
  const results = [];
  for (const engine of engines) results.push(await runEngine(engine, files));
  results.push(gitMerge(files));
  if (results[0].timedOut || results[0].error) failed = true;
  rows.push([label, ...results.map(show)]);
  const widths = [64, 22, 22, 22, 22];
  if (rows.length === 1) console.log(header.map((h, i) => h.padEnd(widths[i])).join(' | '));
  console.log(
    rows
      .at(-1)
      .map((c, i) => c.padEnd(widths[i]))
      .join(' | '),
  );
}
process.exit(failed ? 1 : 0);
