// memfs Volume with a plain recursive walk: the baseline ("what you get for free").
// Snapshot via @jsonjoy.com/fs-snapshot (memfs' binary CBOR snapshot package).
import { Volume } from 'memfs';
import { toBinarySnapshotSync, fromBinarySnapshotSync } from '@jsonjoy.com/fs-snapshot';
import { ROOT, NotAvailable, dirname, makeLineTest, countDirs } from './common.mjs';

export const name = 'memfs';

export async function create() {
  let vol = new Volume();
  function* files(dir) {
    for (const e of vol.readdirSync(dir, { withFileTypes: true })) {
      const p = `${dir}/${e.name}`;
      if (e.isDirectory()) yield* files(p);
      else yield p;
    }
  }
  return {
    async load(entries) {
      const made = new Set();
      for (const [p, bytes] of entries) {
        const d = dirname(p);
        if (!made.has(d)) {
          vol.mkdirSync(d, { recursive: true });
          made.add(d);
        }
        vol.writeFileSync(p, bytes);
      }
    },
    async grep(q) {
      const test = makeLineTest(q);
      let n = 0;
      for (const p of files(ROOT)) for (const line of vol.readFileSync(p, 'utf8').split('\n')) if (test(line)) n++;
      return n;
    },
    async glob(pattern) {
      if (pattern !== '**/*.d.ts') throw new NotAvailable('no glob: the walk only tests a basename suffix');
      let n = 0;
      for (const p of files(ROOT)) if (p.endsWith('.d.ts')) n++;
      return n;
    },
    listDirs() {
      return countDirs(async (d) =>
        vol
          .readdirSync(d, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => `${d}/${e.name}`),
      );
    },
    async read(paths) {
      let n = 0;
      for (const p of paths) n += vol.readFileSync(p, 'utf8').length;
      return n;
    },
    async edit(targets) {
      // no edit API: read, replace all, write
      for (const t of targets) {
        const s = vol.readFileSync(t.path, 'utf8');
        if (!s.includes(t.from)) throw new Error(`edit: not found in ${t.path}`);
        vol.writeFileSync(t.path, s.split(t.from).join(t.to));
      }
      return targets.length;
    },
    async snapshotRestore() {
      const bytes = toBinarySnapshotSync({ fs: vol, path: ROOT });
      const next = new Volume();
      next.mkdirSync(ROOT, { recursive: true });
      fromBinarySnapshotSync(bytes, { fs: next, path: ROOT });
      vol = next;
      return bytes.length;
    },
    async dispose() {
      vol = null;
    },
  };
}
