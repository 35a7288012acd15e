// agentvfs: the built bundle ../../dist/index.js, driven through its backend API.
import { createStateBackend } from '../../dist/index.js';
import { ROOT, BIG_LIMITS, countDirs } from './common.mjs';

export const name = 'agentvfs';
export const create = () => adapterOf(createStateBackend);

function check(results) {
  const bad = results.find((r) => r.error);
  if (bad) throw new Error(`uploadFiles: ${bad.path}: ${bad.error}`);
}

/** The harness's adapter over one build's createStateBackend (agentvfs-baseline.mjs runs another build). */
export async function adapterOf(createStateBackend) {
  let b = createStateBackend({ limits: BIG_LIMITS });
  return {
    // The harness makes fresh arrays for each load and never touches them again: agentvfs may keep them.
    async load(entries) {
      check(await b.uploadFiles(entries, { copy: false }));
    },
    async loadCopying(entries) {
      check(await b.uploadFiles(entries));
    },
    async prepareSearch() {
      await b.prepareSearch();
    },
    async grep(q) {
      const hits = await b.grep(q.pattern, { path: ROOT, ignoreCase: q.ignoreCase, fixedStrings: q.fixed });
      return hits.length; // one entry per matching line
    },
    async glob(pattern) {
      return (await b.glob(pattern, { path: ROOT })).length;
    },
    listDirs() {
      return countDirs(async (d) => (await b.ls(d)).filter((e) => e.isDir).map((e) => e.path));
    },
    async read(paths) {
      let n = 0;
      for (const p of paths) n += (await b.readText(p)).length;
      return n;
    },
    async edit(targets) {
      for (const t of targets) await b.edit(t.path, t.from, t.to, { replaceAll: true });
      return targets.length;
    },
    async snapshotRestore() {
      const bytes = await b.snapshot();
      await b.restore(bytes);
      return bytes.length;
    },
    // The snapshot is made for this restore and never touched again: agentvfs may keep it (as the load keeps its arrays).
    async snapshotRestoreAdopting() {
      const bytes = await b.snapshot();
      await b.restore(bytes, { copy: false });
      return bytes.length;
    },
    snapshot: () => b.snapshot(),
    // A fresh instance holding `bytes` (a snapshot of this one): what a woken process starts from.
    async restored(bytes) {
      const fresh = await adapterOf(createStateBackend);
      await fresh.restoreFrom(bytes);
      return fresh;
    },
    async restoreFrom(bytes) {
      await b.restore(bytes);
    },
    // Searches as the tools run them: respecting .gitignore rules, after writing `gitignore` (if
    // not null and not yet there) to the corpus's root .gitignore.
    respectingGitIgnore() {
      const ensure = async (gitignore) => {
        if (gitignore !== null && !(await b.exists(`${ROOT}/.gitignore`))) await b.writeFile(`${ROOT}/.gitignore`, gitignore);
      };
      return {
        async grep(q, gitignore) {
          await ensure(gitignore);
          const hits = await b.grep(q.pattern, { path: ROOT, ignoreCase: q.ignoreCase, fixedStrings: q.fixed, respectGitIgnore: true });
          return hits.length;
        },
        async glob(pattern, gitignore) {
          await ensure(gitignore);
          return (await b.glob(pattern, { path: ROOT, respectGitIgnore: true })).length;
        },
      };
    },
    async dispose() {
      b = null;
    },
    // A copy-on-write fork (builds that have one): the harness times it, keeps some, and writes once into each.
    ...(typeof b.fork === 'function'
      ? {
          async fork() {
            const f = await b.fork();
            return { writeFile: (path, data) => f.writeFile(path, data) };
          },
        }
      : {}),
  };
}
