/**
 * IndexedDB persistence for browsers (main thread or a Worker). One database,
 * one object store; the snapshot lives under `key`, and bytes that could not
 * be restored are kept under `key:aside:<time>` with their reason.
 */
import { checkOptionNames, optionNames } from '../option-names.ts';
import type { PersistenceAdapter, SaveDurability, SetAside } from './adapter.ts';
import {
  asError,
  type IDBFactoryLike,
  type IDBDatabaseLike,
  type IDBRequestLike,
  type IDBStoreLike,
  openAgentvfsDatabase,
  SNAPSHOTS as STORE,
} from './indexeddb-database.ts';

export type { IDBFactoryLike } from './indexeddb-database.ts';

export interface IndexedDBAdapterOptions {
  /** Database name. Default "agentvfs". */
  database?: string | undefined;
  /** Which filesystem in that database. Default "default". */
  key?: string | undefined;
  /** The IndexedDB factory. Default `globalThis.indexedDB` (pass fake-indexeddb in Node tests). */
  indexedDB?: IDBFactoryLike | undefined;
}

const ADAPTER_OPTIONS = optionNames<IndexedDBAdapterOptions>({ database: true, key: true, indexedDB: true });

export function createIndexedDBAdapter(options: IndexedDBAdapterOptions = {}): PersistenceAdapter & { listAside(): Promise<SetAside[]> } {
  checkOptionNames(options, ADAPTER_OPTIONS, 'agentvfs/persist: createIndexedDBAdapter');
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactoryLike }).indexedDB;
  if (!factory) throw new TypeError('agentvfs/persist: IndexedDB is not available here; pass options.indexedDB or use another adapter.');
  const name = options.database ?? 'agentvfs';
  const key = options.key ?? 'default';
  let db: Promise<IDBDatabaseLike> | null = null;
  const open = () => (db ??= openAgentvfsDatabase(factory, name));

  /** Runs `work` in one transaction and resolves when it has committed (so a save is durable). */
  async function run<T>(mode: 'readonly' | 'readwrite', work: (store: IDBStoreLike) => IDBRequestLike<T>, durability: SaveDurability = 'default'): Promise<T> {
    // Chromium commits 'default' transactions 'relaxed' (not power-loss safe); 'strict' waits for the disk.
    const tx = (await open()).transaction(STORE, mode, { durability });
    const request = work(tx.objectStore(STORE));
    return new Promise<T>((resolve, reject) => {
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = tx.onabort = () => reject(asError(tx.error ?? request.error, `IndexedDB ${mode} transaction failed`));
    });
  }

  return {
    async load() {
      const value = await run('readonly', (s) => s.get(key));
      return value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : null;
    },
    async save(bytes, options) {
      await run('readwrite', (s) => s.put(bytes.slice(), key), options?.durability);
    },
    async clear() {
      await run('readwrite', (s) => s.delete(key));
    },
    async keepAside(bytes, reason) {
      const at = Date.now();
      // Two kept aside in one millisecond each keep a key of their own (".1" sorts after the bare time).
      const taken = new Set(await run('readonly', (s) => s.getAllKeys()));
      let aside = `${key}:aside:${at}`;
      for (let n = 1; taken.has(aside); n++) aside = `${key}:aside:${at}.${n}`;
      await run('readwrite', (s) => s.put({ bytes: bytes.slice(), reason, at }, aside), 'strict');
    },
    async listAside() {
      const keys = (await run('readonly', (s) => s.getAllKeys())).filter((k): k is string => typeof k === 'string' && k.startsWith(`${key}:aside:`));
      const out: SetAside[] = [];
      for (const k of keys.sort()) out.push((await run('readonly', (s) => s.get(k))) as SetAside);
      return out;
    },
  };
}
