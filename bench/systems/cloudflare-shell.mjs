// @cloudflare/shell: createMemoryStateBackend() (FileSystemStateBackend over its InMemoryFs).
// Search is state.searchFiles(glob, query, { regex, caseSensitive }) with native RegExp.
import { createMemoryStateBackend } from '@cloudflare/shell';
import { ROOT, countDirs } from './common.mjs';

export const name = 'cloudflare-shell';

export async function create() {
  let b = createMemoryStateBackend();
  return {
    async load(entries) {
      for (const [p, bytes] of entries) await b.writeFileBytes(p, bytes);
    },
    async grep(q) {
      const res = await b.searchFiles(`${ROOT}/**`, q.pattern, { regex: !q.fixed, caseSensitive: !q.ignoreCase });
      let lines = 0; // results are per match; count distinct matching lines
      for (const f of res) {
        let last = -1;
        for (const m of f.matches)
          if (m.line !== last) {
            lines++;
            last = m.line;
          }
      }
      return lines;
    },
    async glob(pattern) {
      return (await b.glob(`${ROOT}/${pattern}`)).length;
    },
    listDirs() {
      return countDirs(async (d) => (await b.readdirWithFileTypes(d)).filter((e) => e.type === 'directory').map((e) => `${d}/${e.name}`));
    },
    async read(paths) {
      let n = 0;
      for (const p of paths) n += (await b.readFile(p)).length;
      return n;
    },
    async edit(targets) {
      for (const t of targets) {
        const r = await b.replaceInFile(t.path, t.from, t.to); // literal, replaces all
        if (r.replaced === 0) throw new Error(`edit: not found in ${t.path}`);
      }
      return targets.length;
    },
    async snapshotRestore() {
      // tar via createArchive, restored with extractArchive into a new backend
      await b.createArchive('/snapshot.tar', [ROOT]);
      const tar = await b.readFileBytes('/snapshot.tar');
      await b.rm('/snapshot.tar');
      const next = createMemoryStateBackend();
      await next.writeFileBytes('/snapshot.tar', tar);
      await next.extractArchive('/snapshot.tar', '/');
      await next.rm('/snapshot.tar');
      b = next;
      return tar.length;
    },
    async dispose() {
      b = null;
    },
  };
}
