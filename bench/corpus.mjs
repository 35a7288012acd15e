// Corpus for the benchmark: real text files nobody here wrote, taken from
// bench/node_modules, which bench/package-lock.json pins, so the corpus stays the same when the
// project's own dependencies change. Rule (stated in README.md):
//   - regular files only (symlinks skipped), size <= 1 MiB,
//   - no NUL byte in the first 8 KiB (binary) and valid UTF-8 (so every
//     system, string- or byte-based, sees exactly the same text),
//   - whole packages of bench/node_modules, sorted, until the corpus has
//     >= 10,000 files AND >= 50 MB.
// Order is deterministic (sorted directory walk). `--tiny` keeps 200 files.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BENCH_NM = path.resolve(HERE, 'node_modules');
export const ROOT = '/corpus';
export const MAX_FILE_BYTES = 1 << 20;
export const MIN_FILES = 10_000;
export const MIN_BYTES = 50_000_000;
export const TINY_FILES = 200;

const utf8 = new TextDecoder('utf-8', { fatal: true });
const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

function isText(buf) {
  if (buf.subarray(0, 8192).includes(0)) return false;
  try {
    utf8.decode(buf);
    return true;
  } catch {
    return false;
  }
}

function walk(dir, rel, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort(byName)) {
    const abs = path.join(dir, e.name);
    const r = `${rel}/${e.name}`;
    if (e.isDirectory()) walk(abs, r, out);
    else if (e.isFile() && fs.statSync(abs).size <= MAX_FILE_BYTES) {
      const buf = fs.readFileSync(abs);
      if (isText(buf)) out.push({ rel: r, bytes: new Uint8Array(buf) });
    }
  }
  return out;
}

/** Top-level package dirs of a node_modules folder ("x", "@scope/x"), sorted. */
function packages(nm) {
  const out = [];
  for (const e of fs.readdirSync(nm, { withFileTypes: true }).sort(byName)) {
    if (!e.isDirectory()) continue; // .bin holds symlinks; .package-lock.json is a file
    if (e.name.startsWith('@')) {
      for (const s of fs.readdirSync(path.join(nm, e.name), { withFileTypes: true }).sort(byName)) if (s.isDirectory()) out.push(`${e.name}/${s.name}`);
    } else out.push(e.name);
  }
  return out;
}

/** @returns {{ files: {rel: string, bytes: Uint8Array}[], bytes: number, sources: string }} */
export function loadCorpus({ tiny = false } = {}) {
  if (!fs.existsSync(BENCH_NM)) throw new Error('the corpus comes from bench/node_modules: run npm ci --prefix bench');
  const files = [];
  let bytes = 0;
  let added = 0;
  for (const pkg of packages(BENCH_NM)) {
    if (files.length >= (tiny ? TINY_FILES : MIN_FILES) && (tiny || bytes >= MIN_BYTES)) break;
    const before = files.length;
    walk(path.join(BENCH_NM, pkg), pkg, files);
    for (let i = before; i < files.length; i++) bytes += files[i].bytes.length;
    added++;
  }
  const picked = tiny ? files.slice(0, TINY_FILES) : files;
  return { files: picked, bytes: picked.reduce((s, f) => s + f.bytes.length, 0), sources: `${added} packages of bench/node_modules` };
}

/** Virtual path of file i at a scale: /corpus/<rel> at 1x, /corpus/copyK/<rel> above. */
export function scaledPaths(corpus, scale) {
  const out = [];
  for (let k = 0; k < scale; k++) {
    const pre = scale === 1 ? ROOT : `${ROOT}/copy${k}`;
    for (const f of corpus.files) out.push({ path: `${pre}/${f.rel}`, bytes: f.bytes });
  }
  return out;
}

/** Fresh, independent copies (one ArrayBuffer per file) for one load run. */
export function freshEntries(entries) {
  return entries.map((e) => [e.path, e.bytes.slice()]);
}

/** Write the scaled corpus under dir (for ripgrep); returns the directory that maps to /corpus. */
export function materialize(entries, dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  const made = new Set();
  for (const { path: p, bytes } of entries) {
    const abs = path.join(dir, p);
    const parent = path.dirname(abs);
    if (!made.has(parent)) {
      fs.mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    fs.writeFileSync(abs, bytes);
  }
  return path.join(dir, ROOT);
}

/** Reference counts computed from the corpus list itself. */
export function referenceCounts(entries) {
  const dirs = new Set([ROOT]);
  let dts = 0;
  for (const { path: p } of entries) {
    if (p.slice(p.lastIndexOf('/') + 1).endsWith('.d.ts')) dts++;
    for (let i = p.lastIndexOf('/'); i > ROOT.length; i = p.lastIndexOf('/', i - 1)) {
      const d = p.slice(0, i);
      if (dirs.has(d)) break;
      dirs.add(d);
    }
  }
  return { dts, dirs: dirs.size };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const c = loadCorpus({ tiny: process.argv.includes('--tiny') });
  console.log(`${c.files.length} files, ${(c.bytes / 1e6).toFixed(1)} MB from ${c.sources}`);
}
