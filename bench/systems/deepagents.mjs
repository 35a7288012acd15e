// deepagents (LangChain) StateBackend in its standalone `new StateBackend({ state })` form:
// writes return `filesUpdate`, which the caller merges into state.files (null deletes).
import { StateBackend } from 'deepagents';
import { ROOT, NotAvailable, countDirs } from './common.mjs';

export const name = 'deepagents';

function merge(state, update) {
  if (!update) return;
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete state.files[k];
    else state.files[k] = v;
  }
}

export async function create() {
  let state = { files: {} };
  let b = new StateBackend({ state });
  return {
    async load(entries) {
      const res = b.uploadFiles(entries);
      const bad = res.find((r) => r.error);
      if (bad) throw new Error(`uploadFiles: ${bad.path}: ${bad.error}`);
      merge(state, res.filesUpdate);
    },
    async grep(q) {
      if (!q.fixed) throw new NotAvailable('grep is a literal substring search only (no regex)');
      if (q.ignoreCase) throw new NotAvailable('grep has no ignore-case option');
      const r = b.grep(q.pattern, ROOT);
      if (r.error) throw new Error(r.error);
      return r.matches.length; // one entry per matching line
    },
    async glob(pattern) {
      const r = b.glob(pattern, ROOT);
      if (r.error) throw new Error(r.error);
      return r.files.length;
    },
    listDirs() {
      return countDirs(async (d) => {
        const r = b.ls(d);
        if (r.error) throw new Error(r.error);
        return r.files.filter((e) => e.is_dir).map((e) => e.path.replace(/\/$/, ''));
      });
    },
    async read(paths) {
      let n = 0;
      for (const p of paths) {
        const r = b.readRaw(p);
        if (r.error) throw new Error(r.error);
        n += r.data.content.length;
      }
      return n;
    },
    async edit(targets) {
      for (const t of targets) {
        const r = b.edit(t.path, t.from, t.to, true);
        if (r.error) throw new Error(r.error);
        merge(state, r.filesUpdate);
      }
      return targets.length;
    },
    async snapshotRestore() {
      throw new NotAvailable('no snapshot API: state is a plain object persisted by LangGraph checkpointers');
    },
    async dispose() {
      state = b = null;
    },
  };
}
