// What respecting .gitignore rules costs grep and glob, in one process with the calls of every
// variant alternated, so the machine's drift hits them alike:
//   node --expose-gc bench/ignore-ab.mjs [dist] [rounds]
// Variants, over the 1x corpus (its packages hold nested node_modules/, which the defaults ignore):
//   off            respectGitIgnore: false (the backend's default)
//   defaults       respectGitIgnore: true, no .gitignore
//   gitignore      respectGitIgnore: true, GITIGNORE at the corpus's root
//   changed        the same, right after the .gitignore was rewritten (the verdicts are worked out again)
//   nested         the same, right after a package's own .gitignore was rewritten (only its files are worked out again)
//   created        the same, right after a file was created (the file list is new: the verdicts are read again)
//   created off    respectGitIgnore: false, right after a file was created (what a new file costs a search anyway)
// and over the corpus without its node_modules/ directories (nothing to ignore at all):
//   clean off      respectGitIgnore: false
//   clean on       respectGitIgnore: true
import path from 'node:path';
import { freshEntries, loadCorpus, ROOT, scaledPaths } from './corpus.mjs';
import { GITIGNORE } from './gitignore.mjs';

const [distArg, roundsArg] = process.argv.slice(2);
const dist = distArg ?? new URL('../dist', import.meta.url).pathname;
const rounds = Number(roundsArg ?? 40);
const { createStateBackend } = await import(new URL(`file://${path.resolve(dist)}/index.js`).href);
const BIG = { maxFileBytes: 2 ** 30, maxTotalBytes: 2 ** 40, maxFiles: 10_000_000 };
const corpus = loadCorpus();
const entries = scaledPaths(corpus, 1);

async function backendOf(list, gitignore) {
  const b = createStateBackend({ limits: BIG });
  await b.uploadFiles(freshEntries(list), { copy: false });
  if (gitignore) await b.writeFile(`${ROOT}/.gitignore`, GITIGNORE);
  await b.prepareSearch();
  return b;
}
const full = await backendOf(entries, false);
const withRules = await backendOf(entries, true);
const changing = await backendOf(entries, true);
const growing = await backendOf(entries, true);
const nesting = await backendOf(entries, true);
// The package with the most files: its .gitignore decides the most verdicts a nested one can.
const perPackage = new Map();
for (const e of entries) {
  const pkg = e.path
    .split('/')
    .slice(0, e.path.startsWith(`${ROOT}/@`) ? 4 : 3)
    .join('/');
  perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + 1);
}
const [biggest, biggestFiles] = [...perPackage].sort((a, b) => b[1] - a[1])[0];
const growingOff = await backendOf(entries, true);
const cleanEntries = entries.filter((e) => !e.path.includes('/node_modules/') && !e.path.includes('/.git/'));
const clean = await backendOf(cleanEntries, false);

let flip = 0;
const SEARCHES = {
  grep_literal: (b, respect) => b.grep('readFileSync', { path: ROOT, fixedStrings: true, respectGitIgnore: respect }),
  grep_regex: (b, respect) => b.grep(String.raw`function\s+\w+Sync\b`, { path: ROOT, respectGitIgnore: respect }),
  glob: (b, respect) => b.glob('**/*.d.ts', { path: ROOT, respectGitIgnore: respect }),
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, search] of Object.entries(SEARCHES)) {
  const variants = {
    off: () => search(full, false),
    defaults: () => search(full, true),
    gitignore: () => search(withRules, true),
    // Its .gitignore is rewritten before each run, untimed (see the loop): only the search is timed.
    changed: () => search(changing, true),
    nested: () => search(nesting, true),
    created: () => search(growing, true),
    'created off': () => search(growingOff, false),
    'clean off': () => search(clean, false),
    'clean on': () => search(clean, true),
  };
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const counts = {};
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const n of order) {
      if (n === 'changed') await changing.writeFile(`${ROOT}/.gitignore`, `${GITIGNORE}# ${flip++}\n`);
      if (n === 'nested') await nesting.writeFile(`${biggest}/.gitignore`, `*.map\n# ${flip++}\n`);
      if (n === 'created') await growing.writeFile(`${ROOT}/new/${flip++}.txt`, 'new\n');
      if (n === 'created off') await growingOff.writeFile(`${ROOT}/new/${flip++}.txt`, 'new\n');
      const t = performance.now();
      const out = await variants[n]();
      times[n].push(performance.now() - t);
      counts[n] = out.length;
    }
  }
  const base = median(times.off.slice(5));
  const cleanBase = median(times['clean off'].slice(5));
  console.log(`\n${name}`);
  for (const n of names) {
    const t = times[n].slice(5); // the first rounds warm up
    const ref = n.startsWith('clean') ? cleanBase : base;
    console.log(
      `  ${n.padEnd(10)} median ${median(t).toFixed(2).padStart(7)} ms  min ${Math.min(...t)
        .toFixed(2)
        .padStart(7)} ms  x ${(median(t) / ref).toFixed(3)}  results ${counts[n]}`,
    );
  }
}
console.log(`\nnested: ${biggest}/.gitignore (${biggestFiles} files beneath)`);
console.log(
  `${corpus.files.length} files (${cleanEntries.length} outside node_modules/), ${(corpus.bytes / 1e6).toFixed(1)} MB, ${rounds} alternating rounds; x: median / the "off" median of the same corpus`,
);
