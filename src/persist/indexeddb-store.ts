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
    },
    async readLegacy() {
      const tx = (await db).transaction([SNAPSHOTS], 'readonly');
      const request = tx.objectStore(SNAPSHOTS).get(workspace);
      await finish(tx, 'read');
      const value = request.result;
      return value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : null;
    },
    async close() {
      (await db).close();
    },
  };
}
