// ripgrep (Debian `ripgrep`), single-threaded (`rg -j1`), over a copy of the corpus in
// /dev/shm (tmpfs): the near-physical reference. `-uu` so .gitignore/hidden rules do not
// drop files the in-memory systems see. Times include process spawn (a few ms).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { materialize } from '../corpus.mjs';
import { NotAvailable } from './common.mjs';

export const name = 'ripgrep';
export const DIR = '/dev/shm/agentvfs-bench-corpus';
export const reference = true;

export function available() {
  return spawnSync('rg', ['--version']).status === 0;
}

function countLines(buf) {
  let n = 0,
    i = -1;
  while ((i = buf.indexOf(10, i + 1)) !== -1) n++;
  return n;
}

function rg(args) {
  const r = spawnSync('rg', ['-j1', '-uu', '--no-config', ...args], { maxBuffer: 2 ** 31 - 1 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(' ')}: ${r.stderr}`);
  return countLines(r.stdout);
}

export async function create() {
  let root = null;
  const na = (what) => {
    throw new NotAvailable(`${what}: not an in-memory filesystem`);
  };
  return {
    async load(entries) {
      root = materialize(
        entries.map(([path, bytes]) => ({ path, bytes })),
        DIR,
      );
    },
    async grep(q) {
      const flags = ['-n', '--no-heading', '--with-filename'];
      if (q.fixed) flags.push('-F');
      if (q.ignoreCase) flags.push('-i');
      return rg([...flags, '-e', q.pattern, root]);
    },
    async glob(pattern) {
      if (pattern !== '**/*.d.ts') throw new NotAvailable('only **/*.d.ts is mapped to rg --files -g');
      return rg(['--files', '-g', '*.d.ts', root]);
    },
    listDirs: () => na('list dirs'),
    read: () => na('read'),
    edit: () => na('edit'),
    snapshotRestore: () => na('snapshot'),
    async dispose() {
      root = null;
      fs.rmSync(DIR, { recursive: true, force: true });
    }, // free the tmpfs RAM
  };
}
