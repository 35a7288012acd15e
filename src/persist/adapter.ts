/**
 * Where snapshots are persisted. Small on purpose, so any store fits: IndexedDB
 * in browsers, Durable Object storage, a file in Node, memory in tests.
 */
export interface PersistenceAdapter {
  /** The last saved snapshot, or null when nothing was saved. */
  load(): Promise<Uint8Array | null>;
  /**
   * Replaces the saved snapshot; resolves once the store has committed it. With `durability:
   * 'strict'` (immediate saves, flush, close) it must survive a crash or power loss once resolved;
   * 'default' lets the store choose (IndexedDB in Chromium: flushed to disk later).
   */
  save(bytes: Uint8Array, options?: { durability: SaveDurability }): Promise<void>;
  /** Forgets the saved snapshot (not what was kept aside). */
  clear(): Promise<void>;
  /** Keeps bytes that could not be restored, with the reason, out of the way of later saves. */
  keepAside(bytes: Uint8Array, reason: string): Promise<void>;
}

/** IndexedDB's names: 'strict' waits for the disk, 'default' is the store's own choice. */
export type SaveDurability = 'strict' | 'default';

export interface SetAside {
  bytes: Uint8Array;
  reason: string;
  at: number;
}

/** An adapter that keeps everything in memory: for tests and for hosts without storage. */
export function createMemoryAdapter(): PersistenceAdapter & { readonly current: Uint8Array | null; readonly aside: SetAside[] } {
  let current: Uint8Array | null = null;
  const aside: SetAside[] = [];
  return {
    get current() {
      return current;
    },
    aside,
    async load() {
      return current === null ? null : current.slice();
    },
    async save(bytes) {
      current = bytes.slice();
    },
    async clear() {
      current = null;
    },
    async keepAside(bytes, reason) {
      aside.push({ bytes: bytes.slice(), reason, at: Date.now() });
    },
  };
}
