/** A workspace store in memory: for tests, and to count what each save writes. */
import type { StoreBatch, WorkspaceStore } from './store.ts';

export interface MemoryStore extends WorkspaceStore {
  /** What is committed now (do not modify). */
  readonly entries: ReadonlyMap<string, Uint8Array>;
  /** Every committed batch, oldest first (do not modify): what each save wrote. */
  readonly batches: readonly StoreBatch[];
}

export function createMemoryStore(): MemoryStore {
  const entries = new Map<string, Uint8Array>();
  const batches: StoreBatch[] = [];
  return {
    entries,
    batches,
    async readAll() {
      return new Map([...entries].map(([k, v]) => [k, v.slice()]));
    },
    async write(batch) {
      // Copied first, then applied with no await: all or nothing.
      const puts = batch.puts.map(([k, v]) => [k, v.slice()] as const);
      for (const key of batch.deletes) entries.delete(key);
      for (const [key, value] of puts) entries.set(key, value);
      batches.push({ puts, deletes: [...batch.deletes], ...(batch.dropLegacy ? { dropLegacy: true } : {}) });
    },
  };
}
