// ripgrep (Debian `ripgrep`), single-threaded (`rg -j1`), over a copy of the corpus in
// /dev/shm (tmpfs): the near-physical reference. `-uu` so .gitignore/hidden rules do not
// drop files the in-memory systems see. Times include process spawn (a few ms).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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

// `rules`: respect the corpus's own .gitignore files (only those: no global, parent, .ignore or
// .rgignore files), as agentvfs's tools do; hidden files are searched either way.
function rg(args, rules = false) {
  const mode = rules ? ['--hidden', '--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-exclude'] : ['-uu'];
  const r = spawnSync('rg', ['-j1', ...mode, '--no-config', ...args], { maxBuffer: 2 ** 31 - 1 });
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
    async grep(q, rules = false) {
      const flags = ['-n', '--no-heading', '--with-filename'];
      if (q.fixed) flags.push('-F');
      if (q.ignoreCase) flags.push('-i');
      return rg([...flags, '-e', q.pattern, root], rules);
    },
    async glob(pattern, rules = false) {
      if (pattern !== '**/*.d.ts') throw new NotAvailable('only **/*.d.ts is mapped to rg --files -g');
      return rg(['--files', '-g', '*.d.ts', root], rules);
    },
    // With a .gitignore written to the corpus's root: rg's own reading of the rules, a check of
    // agentvfs's counts. Without one there is nothing to compare: rg has no default ignores.
    respectingGitIgnore() {
      const ensure = (gitignore) => {
        if (gitignore === null) throw new NotAvailable('rg has no default ignores of .git/ and node_modules/');
        const file = path.join(root, '.gitignore');
        if (!fs.existsSync(file)) fs.writeFileSync(file, gitignore);
      };
      return {
        grep: async (q, gitignore) => (ensure(gitignore), this.grep(q, true)),
        glob: async (pattern, gitignore) => (ensure(gitignore), this.glob(pattern, true)),
      };
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
