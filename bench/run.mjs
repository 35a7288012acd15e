#!/usr/bin/env node
// Benchmark harness (issue 7). Usage:
//   node bench/run.mjs [--tiny] [--scale 1,4,16] [--runs N] [--only op1,op2] [--systems a,b] [--out file]
// then bench/cold-load.mjs (one load per fresh process at each scale; `--only` without `cold`
// leaves it out), bench/persist.mjs (persistence in Chromium; `--only` without `persist` leaves it out)
// and bench/merge.mjs (a three-way merge of one large file beside the diff3 engines and git; `--only` without `merge` leaves it out).
// Re-executes itself with --expose-gc and a large heap when started without them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
if (typeof globalThis.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=16384', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(r.status ?? 1);
}
if (!fs.existsSync(path.join(HERE, 'node_modules'))) {
  console.error('bench/node_modules is missing: run `npm install --prefix bench` first.');
  process.exit(1);
}

const { loadCorpus, scaledPaths, freshEntries, referenceCounts } = await import('./corpus.mjs');
const { NotAvailable } = await import('./systems/common.mjs');
const { GITIGNORE } = await import('./gitignore.mjs');
const { printTable, printScaling, summarizeTargets, printBaseline, addRatios } = await import('./report.mjs');

// ---- options -------------------------------------------------------------
const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const tiny = argv.includes('--tiny');
const scales = opt('scale', tiny ? '1' : '1,4,16')
  .split(',')
  .map(Number);
const RUNS = Number(opt('runs', tiny ? 2 : 9));
const only = opt('only', null)?.split(',');
const OUT = path.resolve(opt('out', path.join(HERE, tiny ? 'results-tiny.json' : 'results.json')));
// Time limits: the timed runs of one op are cut to fit the budget (halved above 1x), and an
// op whose projected single run (fitted from the smaller scales) exceeds max-op-ms is skipped.
const BUDGET_MS = Number(opt('budget-ms', 20_000));
const MAX_OP_MS = Number(opt('max-op-ms', 40_000));
let budget = BUDGET_MS;

if (argv.includes('--report')) {
  // reprint the table of an earlier run
  const rows = JSON.parse(fs.readFileSync(OUT, 'utf8'));
  printTable(rows);
  printScaling(rows);
  summarizeTargets(rows);
  process.exit(0);
}

const SYSTEM_FILES = ['ripgrep', 'agentvfs', 'agentvfs-baseline', 'deepagents', 'just-bash', 'cloudflare-shell', 'memfs'];
const wanted = opt('systems', null)?.split(',');
// Each system runs each scale in a process of its own (this script with --child NAME --scale N),
// so what one leaves in the heap cannot slow the next one's garbage collections: just-bash keeps
// its 1x files alive after dispose(), which made agentvfs's 4x snapshot + restore 3x slower in a
// shared process. Every system runs a scale before any runs the next, so the figures compared at
// one scale are minutes apart, not half an hour: this shared VM's speed drifts, and two full runs
// in which each system ran all its scales in a row had the peers' 1x grep medians 2x apart.
const child = opt('child', null);
if (child === null) {
  const rows = [];
  const crashed = new Set();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentvfs-bench-'));
  const pass = (flags) => argv.filter((a, i) => !flags.includes(a) && !flags.includes(argv[i - 1]));
  for (const scale of scales) {
    for (const f of SYSTEM_FILES.filter((f) => (!wanted || wanted.includes(f)) && !crashed.has(f))) {
      const rowsFile = path.join(dir, 'rows.json');
      const historyFile = path.join(dir, 'history.json'); // earlier scales' rows: what the child projects op times from
      fs.writeFileSync(historyFile, JSON.stringify(rows));
      const args = [...pass(['--systems', '--out', '--scale']), '--scale', String(scale), '--child', f, '--rows', rowsFile, '--history', historyFile];
      const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=16384', fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
      if (r.status !== 0) {
        console.warn(`! ${f}: its process exited with ${r.status ?? r.signal}; its larger scales are skipped`);
        crashed.add(f);
      }
      if (fs.existsSync(rowsFile)) rows.push(...JSON.parse(fs.readFileSync(rowsFile, 'utf8')));
      fs.rmSync(rowsFile, { force: true });
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  // Every system's result count against the first one's (ripgrep's when it ran), per op and scale.
  for (const r of rows) {
    if (r.matches == null || r.op === 'glob' || r.op === 'list_dirs') continue; // those two are checked against the corpus list
    const ref = rows.find((x) => x.op === r.op && x.scale === r.scale && x.matches != null);
    if (ref !== r && ref.matches !== r.matches) {
      console.warn(`!! MISMATCH ${r.op} @${r.scale}x: ${r.system} returned ${r.matches}, ${ref.system} returned ${ref.matches}`);
      r.mismatch = `expected ${ref.matches} (${ref.system})`;
    }
  }
  addRatios(rows);
  fs.writeFileSync(OUT, `${JSON.stringify(rows, null, 1)}\n`);
  printTable(rows);
  printScaling(rows);
  summarizeTargets(rows);
  printBaseline(rows);
  console.log(`\nwrote ${path.relative(process.cwd(), OUT)}`);
  // Cold loads (a process each), persistence (Chromium, IndexedDB), then merges, each in processes of their own; --tiny runs their small versions.
  const cold =
    only && !only.includes('cold')
      ? { status: 0 }
      : spawnSync(process.execPath, [path.join(HERE, 'cold-load.mjs'), '--scale', scales.join(','), ...(tiny ? ['--tiny', '--runs', '1'] : [])], {
          stdio: 'inherit',
        });
  const persisted =
    only && !only.includes('persist')
      ? { status: 0 }
      : spawnSync(process.execPath, [path.join(HERE, 'persist.mjs'), ...(tiny ? ['--tiny'] : [])], { stdio: 'inherit' });
  const merged =
    only && !only.includes('merge')
      ? { status: 0 }
      : spawnSync(process.execPath, [path.join(HERE, 'merge.mjs'), ...(tiny ? ['--tiny'] : [])], { stdio: 'inherit' });
  process.exit(rows.length > 0 && crashed.size === 0 && cold.status === 0 && persisted.status === 0 && merged.status === 0 ? 0 : 1);
}
const ROWS_OUT = opt('rows', null);
const systems = [];
for (const f of SYSTEM_FILES) {
  if (f !== child) continue;
  try {
    const mod = await import(`./systems/${f}.mjs`);
    if (mod.available && !mod.available()) {
      console.warn(`! ${f}: not installed, skipped`);
      continue;
    }
    systems.push(mod);
  } catch (e) {
    console.warn(`! ${f}: failed to load (${e.message.split('\n')[0]}), skipped`);
  }
}

const QUERIES = {
  grep_literal: { pattern: 'readFileSync', fixed: true, ignoreCase: false },
  grep_regex: { pattern: String.raw`function\s+\w+Sync\b`, fixed: false, ignoreCase: false },
  grep_ignore_case: { pattern: 'todo', fixed: true, ignoreCase: true },
};
const GLOB = '**/*.d.ts';
const OPS = [
  'load',
  ...Object.keys(QUERIES),
  'glob',
  'list_dirs',
  'read_1000_unread',
  'read_1000',
  'edit_1000',
  'snapshot_restore',
  'snapshot_restore_adopting',
  'snapshot_copy_floor',
  'retained_memory',
  // agentvfs's tools respect .gitignore rules: without any .gitignore (the defaults only), then with GITIGNORE.
  'grep_literal_respect',
  'glob_respect',
  'grep_literal_gitignore',
  'grep_regex_gitignore',
  'glob_gitignore',
  'fork',
];
// read_1000_unread reads another 1,000 files each run, between read_1000's picks: 5 runs after a
// warm-up fit between them at 1x (10,501 files) without reading a file twice.
const UNREAD_RUNS = 5;
// first_grep and first_grep_restored: fresh instances timed (each after a load or a restore).
const FIRST_GREP_RUNS = (scale) => (tiny ? 1 : scale >= 16 ? 2 : 5);
const runOp = (op) => !only || only.includes(op) || op === 'load';

// ---- helpers ---------------------------------------------------------------
const now = () => performance.now();
const mem = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const gc = () => {
  globalThis.gc();
  globalThis.gc();
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x) => Math.round(x * 100) / 100;

/** Warm-up + timed runs of fn(i); cuts the run count to fit BUDGET_MS, planned from the faster
 *  of the warm-up and the first timed run (a first run can include one-time work, such as
 *  building an index, that later runs do not repeat). Always times at least one run after the
 *  warm-up, unless the warm-up alone took over MAX_OP_MS.
 *  selfTimed: fn returns its own elapsed ms (load excludes input copies and gc). */
async function measure(fn, selfTimed = false, maxRuns = RUNS) {
  let t = now();
  const result = await fn(0);
  const warm = selfTimed ? result : now() - t;
  const first = `first run ${warm < 1000 ? `${warm.toFixed(0)} ms` : `${(warm / 1000).toFixed(1)} s`}`;
  if (warm > MAX_OP_MS) return { result, times: [warm], note: `1 run, no warm-up (${first})` };
  const runsFor = (ms) => Math.max(1, Math.min(maxRuns, Math.floor(budget / Math.max(ms, 1e-3))));
  let runs = runsFor(warm);
  const times = [];
  for (let i = 1; i <= runs; i++) {
    t = now();
    const r = await fn(i);
    times.push(selfTimed ? r : now() - t);
    // A slow warm-up may be one-time work (an index build): plan the runs from the first timed one.
    if (i === 1) runs = Math.max(runs, runsFor(times[0]));
  }
  const slowStart = warm > 2 * median(times); // say so: the first run did one-time work
  const note = runs < maxRuns ? `runs cut to ${runs} after a warm-up (${first})` : slowStart ? first : undefined;
  return { result, times, note };
}

/** Projected single-run time at `scale` from earlier scales (exponent fitted, 1..2.5). */
const history = new Map();
// Seeded from the earlier scales' rows (run in other processes), as push() records them.
const historyFile = opt('history', null);
for (const row of historyFile === null ? [] : JSON.parse(fs.readFileSync(historyFile, 'utf8'))) {
  if (row.system !== child || row.median_ms == null) continue;
  const key = `${row.system}/${row.op}`;
  history.set(key, [...(history.get(key) ?? []), { scale: row.scale, ms: Math.max(row.max_ms, 1e-3) }]);
}
function projected(sys, op, scale) {
  const h = history.get(`${sys}/${op}`) ?? [];
  if (!h.length) return 0;
  const last = h[h.length - 1];
  let k = 1;
  if (h.length >= 2) {
    const a = h[h.length - 2];
    k = Math.log(last.ms / a.ms) / Math.log(last.scale / a.scale);
  }
  k = Math.min(2.5, Math.max(1, Number.isFinite(k) ? k : 1));
  return last.ms * (scale / last.scale) ** k;
}

// ---- run -------------------------------------------------------------------
const corpus = loadCorpus({ tiny });
console.log(`corpus: ${corpus.files.length} files, ${(corpus.bytes / 1e6).toFixed(1)} MB (${corpus.sources})`);
console.log(`${child}: scale ${scales.join(',')}; ${RUNS} runs after a warm-up, in a process of its own\n`);
const rows = [];

for (const scale of scales) {
  const entries = scaledPaths(corpus, scale);
  const files = entries.length,
    bytes = corpus.bytes * scale;
  const base = { corpus_files: files, corpus_bytes: bytes, scale };
  const refs = { glob: { value: referenceCounts(entries).dts, by: 'corpus list' }, list_dirs: { value: referenceCounts(entries).dirs, by: 'corpus list' } };
  const paths = entries.map((e) => e.path);
  const readAt = (offset) => Array.from({ length: Math.min(1000, files) }, (_, i) => paths[(Math.floor((i * files) / Math.min(1000, files)) + offset) % files]);
  const readPaths = readAt(0);
  const editTargets = pickEditTargets(entries, 1000);
  budget = scale > 1 ? BUDGET_MS / 2 : BUDGET_MS;
  console.log(`== scale ${scale}x: ${files} files, ${(bytes / 1e6).toFixed(1)} MB`);

  for (const sys of systems) {
    const record = (op, extra) => rows.push({ op, system: sys.name, ...base, runs: 0, median_ms: null, min_ms: null, max_ms: null, ...extra });
    const proj = projected(sys.name, 'load', scale);
    if (proj > MAX_OP_MS) {
      for (const op of OPS.filter(runOp)) record(op, { note: `skipped: load projected ${(proj / 1000).toFixed(0)} s` });
      continue;
    }
    // load: every run builds a fresh instance from fresh byte copies; memory from the last one.
    let inst = null,
      retained = 0,
      before = 0;
    const load = await measure(async () => {
      if (inst) await inst.dispose();
      inst = null;
      gc();
      before = mem();
      let input = freshEntries(entries);
      const fresh = await sys.create();
      const t = now();
      await fresh.load(input);
      const ms = now() - t;
      input = null;
      gc();
      retained = mem() - before;
      inst = fresh;
      return ms;
    }, true).catch((e) => ({ error: e }));
    if (load.error) {
      console.warn(`! ${sys.name} load failed: ${load.error.message}`);
      record('load', { note: `failed: ${load.error.message}` });
      continue;
    }
    push('load', sys, base, load.times, { note: load.note });
    // agentvfs copies the bytes it is given unless told it may keep them (uploadFiles(…, { copy:
    // false }), which its load above uses: the harness' copies are never touched again, and
    // @cloudflare/shell keeps arrays by default). Its default, copying load is measured too.
    if (typeof inst.loadCopying === 'function') {
      // Minor page faults per MB (10^6 bytes) copied: 244 is one per 4 KiB page, memory fresh from the OS;
      // far fewer, memory the allocator recycled from the run before (bench/README.md, issue 22).
      const faults = [];
      const copying = await measure(async () => {
        gc();
        let input = freshEntries(entries);
        const fresh = await sys.create();
        const f = process.resourceUsage().minorPageFault;
        const t = now();
        await fresh.loadCopying(input);
        const ms = now() - t;
        faults.push(process.resourceUsage().minorPageFault - f);
        input = null;
        await fresh.dispose();
        return ms;
      }, true).catch((e) => ({ error: e }));
      if (!copying.error) {
        const note = copying.note ?? 'the default: uploadFiles copies every file';
        // As the times: without the warm-up run (unless it was the only one).
        push('load_copying', sys, base, copying.times, {
          note,
          faults_per_mb: Math.round(median(faults.length > 1 ? faults.slice(1) : faults) / (bytes / 1e6)),
        });
      }
    }
    // agentvfs's first search right after a load, with no prepareSearch(): it indexes about an
    // eighth of the corpus and scans the rest directly. On a fresh instance, so index_build below
    // still times the whole index.
    if (typeof inst.prepareSearch === 'function' && runOp('grep_literal')) {
      // A few fresh instances (after one untimed, so the first does not also pay for compiling the search code).
      const firstGreps = async (fresh) => {
        const times = [];
        for (let i = 0; i <= FIRST_GREP_RUNS(scale); i++) {
          gc();
          const inst = await fresh();
          gc();
          const t = now();
          await inst.grep(QUERIES.grep_literal);
          if (i > 0) times.push(now() - t);
          await inst.dispose();
        }
        return times;
      };
      const fromLoad = await firstGreps(async () => {
        const fresh = await sys.create();
        await fresh.load(freshEntries(entries));
        return fresh;
      });
      push('first_grep', sys, base, fromLoad, { note: 'grep_literal right after a load into a fresh instance, before any prepareSearch()' });
      // The same after a restore (a Durable Object or a page waking up, persistence opening a store).
      if (typeof inst.restored === 'function') {
        const bytes = await inst.snapshot();
        const fromRestore = await firstGreps(() => inst.restored(bytes));
        push('first_grep_restored', sys, base, fromRestore, { note: 'grep_literal right after restore() into a fresh instance, before any prepareSearch()' });
      }
    }
    if (runOp('retained_memory')) {
      if (sys.reference) record('retained_memory', { note: 'n/a: separate process' });
      else record('retained_memory', { retained_bytes: retained, x_corpus: round(retained / bytes) });
    }
    // agentvfs builds grep's index (per-file trigram filters) a part at each search, or all of it
    // ahead with prepareSearch() (a worker does that when idle). Timed here on its own, once: the
    // grep rows then measure searches with the whole index built.
    if (typeof inst.prepareSearch === 'function' && Object.keys(QUERIES).some(runOp)) {
      const t = now();
      await inst.prepareSearch();
      push('index_build', sys, base, [now() - t], {
        note: 'one-time: prepareSearch() right after a load (the first searches build it a part at a time otherwise)',
      });
    }

    const ops = {
      ...Object.fromEntries(Object.entries(QUERIES).map(([op, q]) => [op, () => inst.grep(q)])),
      glob: () => inst.glob(GLOB),
      list_dirs: () => inst.listDirs(),
      read_1000_unread: (i) => inst.read(readAt(1 + i)),
      read_1000: () => inst.read(readPaths),
      edit_1000: (i) => inst.edit(editTargets.map((t) => (i % 2 ? { path: t.path, from: t.to, to: t.from } : t))),
      snapshot_restore: () => inst.snapshotRestore(),
      snapshot_restore_adopting: () => {
        if (typeof inst.snapshotRestoreAdopting !== 'function') throw new NotAvailable('no restore(bytes, { copy: false })');
        return inst.snapshotRestoreAdopting();
      },
      // What snapshot + restore are measured against: two plain copies of that many bytes (into fresh memory, as a snapshot and a restore make).
      snapshot_copy_floor: () => {
        if (snapshotBytes === null) throw new NotAvailable('no snapshot_restore to compare with');
        const a = new Uint8Array(snapshotBytes.length);
        a.set(snapshotBytes);
        const b = new Uint8Array(a.length);
        b.set(a);
        return a.length + b.length - 2 * snapshotBytes.length; // 0: counts nothing
      },
      // Last: the *_gitignore ops add a .gitignore to the corpus (on their warm-up run, whose time the note then gives).
      grep_literal_respect: () => ignoring(inst).grep(QUERIES.grep_literal, null),
      glob_respect: () => ignoring(inst).glob(GLOB, null),
      grep_literal_gitignore: () => ignoring(inst).grep(QUERIES.grep_literal, GITIGNORE),
      grep_regex_gitignore: () => ignoring(inst).grep(QUERIES.grep_regex, GITIGNORE),
      glob_gitignore: () => ignoring(inst).glob(GLOB, GITIGNORE),
      // Last: a fork makes the next write of its parent copy the path table (see forkRows below).
      fork: () => {
        if (typeof inst.fork !== 'function') throw new NotAvailable('no fork()');
        return inst.fork().then(() => undefined);
      },
    };
    // Memory again once the searches have run: what a system builds for them (agentvfs's
    // trigram filters) is part of its memory. Later ops replace the state (restore), so this
    // runs before the first op that is not a search.
    let searched = false;
    const pushRetained = (op) => {
      const after = mem() - before;
      rows.push({ op, system: sys.name, ...base, runs: 0, median_ms: null, min_ms: null, max_ms: null, retained_bytes: after, x_corpus: round(after / bytes) });
    };
    const afterGrep = () => {
      if (!searched || !runOp('retained_memory') || sys.reference) return;
      searched = false;
      gc();
      pushRetained('retained_after_grep');
    };
    // And once more after the reads and edits, before the restore replaces the state: agentvfs
    // keeps the decoded text of files read or edited (up to 16 MiB).
    const afterEdits = () => {
      if (!runOp('retained_memory') || sys.reference) return;
      gc();
      pushRetained('retained_after_edits');
    };
    let snapshotBytes = null;
    for (const [op, fn] of Object.entries(ops)) {
      if (op in QUERIES) searched ||= runOp(op);
      else afterGrep();
      if (op === 'snapshot_restore') afterEdits();
      if (!runOp(op)) continue;
      const p = projected(sys.name, op, scale);
      if (p > MAX_OP_MS) {
        record(op, { note: `skipped: projected ${(p / 1000).toFixed(0)} s per run` });
        continue;
      }
      // Garbage an earlier op left (a disposed instance, decoded strings) is collected here, not
      // inside this op's timed runs; what the op itself allocates still counts.
      gc();
      let m;
      try {
        m = await measure(fn, false, op === 'read_1000_unread' ? UNREAD_RUNS : RUNS);
      } catch (e) {
        if (e instanceof NotAvailable) record(op, { note: `n/a: ${e.message}` });
        else {
          console.warn(`! ${sys.name} ${op} failed: ${e.message}`);
          record(op, { note: `failed: ${e.message.slice(0, 200)}` });
        }
        continue;
      }
      const extra = { note: m.note };
      if (typeof m.result === 'number' && op !== 'edit_1000' && !op.startsWith('snapshot_')) {
        extra.matches = m.result;
        const ref = refs[op];
        if (!ref) refs[op] = { value: m.result, by: sys.name };
        else if (ref.value !== m.result) {
          console.warn(`!! MISMATCH ${op} @${scale}x: ${sys.name} returned ${m.result}, ${ref.by} returned ${ref.value}`);
          extra.mismatch = `expected ${ref.value} (${ref.by})`;
        }
      }
      if (op === 'snapshot_restore') {
        extra.snapshot_bytes = m.result;
        snapshotBytes = copyOfCorpus(m.result);
      }
      push(op, sys, base, m.times, extra);
    }
    afterGrep();
    if (runOp('fork') && typeof inst.fork === 'function') await forkRows(inst, sys, base);
    await inst.dispose();
    inst = null;
    gc();
  }
  fs.writeFileSync(ROWS_OUT, `${JSON.stringify(rows)}\n`); // after every scale: a crash later keeps these
}

/** `n` bytes of corpus content (repeated), in memory already touched: what the copy floor copies. */
function copyOfCorpus(n) {
  const out = new Uint8Array(n);
  let at = 0;
  while (at < n) {
    for (const f of corpus.files) {
      if (at >= n) break;
      const part = f.bytes.subarray(0, n - at);
      out.set(part, at);
      at += part.length;
    }
  }
  return out;
}

/** A system's searches that respect .gitignore rules (`gitignore`: the root .gitignore to have first, or null for none). */
function ignoring(inst) {
  if (typeof inst.respectingGitIgnore !== 'function') throw new NotAvailable('no .gitignore support');
  return inst.respectingGitIgnore();
}

// ---- helpers that need the state above ---------------------------------------
/**
 * What a fork costs beyond its time (the `fork` row): the memory it holds while nobody writes
 * (20 forks kept, divided by 20), and its first write, which copies the path table (bytes stay
 * shared), with the memory that copy holds.
 */
async function forkRows(inst, sys, base) {
  const N = 20;
  gc();
  let m0 = mem();
  const forks = [];
  for (let i = 0; i < N; i++) forks.push(await inst.fork());
  gc();
  const idle = (mem() - m0) / N;
  rows.push({
    op: 'fork_retained',
    system: sys.name,
    ...base,
    runs: N,
    median_ms: null,
    min_ms: null,
    max_ms: null,
    retained_bytes: Math.round(idle),
    note: `per fork, ${N} kept, none written`,
  });
  const times = [];
  gc();
  m0 = mem();
  for (const f of forks) {
    const t = now();
    await f.writeFile('/bench-fork-first-write.txt', 'x');
    times.push(now() - t);
  }
  gc();
  const written = (mem() - m0) / N;
  push('fork_first_write', sys, base, times, {
    retained_bytes: Math.round(written),
    note: `per fork: the first write copies the path table (file bytes stay shared)`,
  });
  forks.length = 0;
  gc();
}

function push(op, sys, base, times, extra = {}) {
  const row = {
    op,
    system: sys.name,
    ...base,
    runs: times.length,
    median_ms: round(median(times)),
    min_ms: round(Math.min(...times)),
    max_ms: round(Math.max(...times)),
    ...extra,
  };
  for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
  rows.push(row);
  const key = `${sys.name}/${op}`;
  history.set(key, [...(history.get(key) ?? []), { scale: base.scale, ms: Math.max(row.max_ms, 1e-3) }]);
}

/** 1000 files spread over the corpus, each with a short literal from its first line. */
function pickEditTargets(entries, n) {
  const dec = new TextDecoder();
  const out = [];
  const used = new Set();
  for (let i = 0; i < n && out.length < Math.min(n, entries.length); i++) {
    for (let j = Math.floor(((i + 0.5) * entries.length) / n); j < entries.length; j++) {
      if (used.has(j)) continue;
      const line = dec
        .decode(entries[j].bytes.subarray(0, 256))
        .split('\n')[0]
        .replace(/^\uFEFF/, '')
        .replace(/\r$/, '')
        .replace(/\uFFFD.*$/, '')
        .slice(0, 24);
      if (line.length < 3 || !/\S/.test(line)) continue;
      used.add(j);
      out.push({ path: entries[j].path, from: line, to: `@@BENCH@@${line}` });
      break;
    }
  }
  return out;
}
