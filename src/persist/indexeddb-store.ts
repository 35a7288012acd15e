/**
 * A workspace store in IndexedDB (browsers, main thread or a Worker): one record per file in
 * the object store "workspaces" under [workspace, key]; each save is one transaction. The
 * snapshot the IndexedDB adapter kept under the same name in "snapshots" is migrated on open.
 */
import type { SaveDurability } from './adapter.ts';
import { type IDBFactoryLike, type IDBRequestLike, asError, openAgentvfsDatabase, SNAPSHOTS, WORKSPACES } from './indexeddb-database.ts';
import type { WorkspaceStore } from './store.ts';

export interface IndexedDBStoreOptions {
  /** Database name. Default "agentvfs" (the IndexedDB adapter's, so its snapshots migrate). */
  database?: string;
  /** Which workspace in that database. Default "default". */
  key?: string;
  /** The IndexedDB factory. Default `globalThis.indexedDB` (pass fake-indexeddb in Node tests). */
  indexedDB?: IDBFactoryLike;
  /** The IDBKeyRange class. Default `globalThis.IDBKeyRange`. */
  IDBKeyRange?: { bound(lower: unknown, upper: unknown): unknown };
}

export function createIndexedDBStore(options: IndexedDBStoreOptions = {}): WorkspaceStore {
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactoryLike }).indexedDB;
  const KeyRange = options.IDBKeyRange ?? (globalThis as { IDBKeyRange?: IndexedDBStoreOptions['IDBKeyRange'] }).IDBKeyRange;
  if (!factory || !KeyRange)
    throw new TypeError('agentvfs/persist: IndexedDB is not available here; pass options.indexedDB and options.IDBKeyRange, or use another store.');
  const name = options.database ?? 'agentvfs';
  const workspace = options.key ?? 'default';
  // [workspace] sorts before every [workspace, key]; [workspace, []] after them (arrays sort above strings).
  const range = () => KeyRange.bound([workspace], [workspace, []]);
  const db = openAgentvfsDatabase(factory, name);
  const label = `workspace "${workspace}" in IndexedDB database "${name}"`;
  const tabs = coordination(`agentvfs:${name}:${workspace}`);

  function finish(tx: { oncomplete: unknown; onerror: unknown; onabort: unknown; error: unknown }, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(asError(tx.error, `IndexedDB ${what} failed`));
    });
  }

  return {
    async readAll() {
      const tx = (await db).transaction([WORKSPACES], 'readonly');
      const store = tx.objectStore(WORKSPACES);
      const keys = store.getAllKeys(range()) as IDBRequestLike<Array<[string, string]>>;
      const values = store.getAll(range()) as IDBRequestLike<unknown[]>;
      await finish(tx, 'read');
      const out = new Map<string, Uint8Array>();
      keys.result.forEach((k, i) => {
        const v = values.result[i];
        out.set(k[1], v instanceof Uint8Array ? v : new Uint8Array(v as ArrayBuffer));
      });
      return out;
    },
    async write(batch, { durability }: { durability: SaveDurability }) {
      // Chromium commits 'default' transactions 'relaxed' (not power-loss safe); 'strict' waits for the disk.
      const tx = (await db).transaction([WORKSPACES, SNAPSHOTS], 'readwrite', { durability });
      const store = tx.objectStore(WORKSPACES);
      for (const key of batch.deletes) store.delete([workspace, key]);
      for (const [key, value] of batch.puts) store.put(value, [workspace, key]);
      if (batch.dropLegacy) tx.objectStore(SNAPSHOTS).delete(workspace);
      await finish(tx, 'save');
      tabs.announce([...batch.puts.map(([k]) => k), ...batch.deletes]);
    },
    async readKeys(keys) {
      const tx = (await db).transaction([WORKSPACES], 'readonly');
      const store = tx.objectStore(WORKSPACES);
      const requests = keys.map((k) => [k, store.get([workspace, k])] as const);
      await finish(tx, 'read');
      const out = new Map<string, Uint8Array>();
      for (const [k, r] of requests)
        if (r.result !== undefined) out.set(k, r.result instanceof Uint8Array ? r.result : new Uint8Array(r.result as ArrayBuffer));
      return out;
    },
    name: label,
    claim: tabs.claim,
    follow: tabs.follow,
    async readLegacy() {
      const tx = (await db).transaction([SNAPSHOTS], 'readonly');
      const request = tx.objectStore(SNAPSHOTS).get(workspace);
      await finish(tx, 'read');
      const value = request.result;
      return value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : null;
    },
    async close() {
      tabs.close();
      (await db).close();
    },
  };
}

// Web Locks and BroadcastChannel, as far as used here (the core has no DOM types).
interface LocksLike {
  request(name: string, options: { ifAvailable?: boolean; signal?: unknown }, work: (lock: unknown) => Promise<void> | undefined): Promise<unknown>;
}
interface ChannelLike {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

/**
 * One writer per workspace across tabs and workers (a Web Lock, held until close), and a
 * BroadcastChannel on which the writer names the keys of each commit. Where either API is
 * missing (Node), claims always succeed and nothing is announced.
 */
function coordination(lockName: string) {
  const g = globalThis as {
    navigator?: { locks?: LocksLike };
    BroadcastChannel?: new (name: string) => ChannelLike;
    AbortController?: new () => { signal: unknown; abort(): void };
  };
  const locks = g.navigator?.locks;
  const channel = g.BroadcastChannel ? new g.BroadcastChannel(lockName) : null;
  let release: (() => void) | null = null;
  const waiting = g.AbortController ? new g.AbortController() : null;
  return {
    claim({ wait }: { wait: boolean }): Promise<boolean> {
      if (!locks) return Promise.resolve(true);
      return new Promise<boolean>((resolve, reject) => {
        locks
          .request(lockName, wait ? { signal: waiting?.signal } : { ifAvailable: true }, (lock) => {
            if (!lock) return (resolve(false), undefined);
            resolve(true);
            return new Promise<void>((r) => (release = r)); // held until close()
          })
          .catch((error: unknown) => (wait ? resolve(false) : reject(error)));
      });
    },
    follow(listener: (keys: string[]) => void): () => void {
      if (!channel) return () => {};
      channel.onmessage = (event) => {
        const keys = (event.data as { keys?: unknown }).keys;
        if (Array.isArray(keys)) listener(keys as string[]);
      };
      return () => {
        channel.onmessage = null;
      };
    },
    announce(keys: string[]): void {
      channel?.postMessage({ keys });
    },
    close(): void {
      waiting?.abort();
      release?.();
      channel?.close();
    },
  };
}
