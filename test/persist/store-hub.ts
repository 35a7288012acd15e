// A shared in-memory store that behaves like IndexedDB between tabs (claims, follow messages),
// for the follower tests.
import type { WorkspaceStore } from '../../src/persist/store.ts';

/** Stores over one shared map: one claim at a time, commits announced to the others (unless `quiet()`: a holder killed before it announced). */
export function hub(quiet = () => false): () => WorkspaceStore {
  const entries = new Map<string, Uint8Array>();
  let holder: object | null = null;
  const waiting: Array<() => void> = [];
  const listeners = new Set<{ owner: object; fn: (keys: string[]) => void }>();
  return () => {
    const self = {};
    return {
      name: 'workspace "t" in the test hub',
      readAll: async () => new Map(entries),
      async write(batch) {
        for (const key of batch.deletes) entries.delete(key);
        for (const [key, value] of batch.puts) entries.set(key, value.slice());
        const keys = [...batch.puts.map(([k]) => k), ...batch.deletes];
        if (!quiet()) for (const l of listeners) if (l.owner !== self) l.fn(keys);
      },
      readKeys: async (keys) => new Map(keys.filter((k) => entries.has(k)).map((k) => [k, entries.get(k)!])),
      async claim({ wait }) {
        if (holder === null) return ((holder = self), true);
        if (!wait) return false;
        return new Promise<boolean>((resolve) => waiting.push(() => ((holder = self), resolve(true))));
      },
      follow(fn) {
        const l = { owner: self, fn };
        listeners.add(l);
        return () => listeners.delete(l);
      },
      async close() {
        if (holder === self) (holder = null), waiting.shift()?.();
      },
    };
  };
}
