/**
 * IndexedDB persistence for browsers (main thread or a Worker). One database,
 * one object store; the snapshot lives under `key`, and bytes that could not
 * be restored are kept under `key:aside:<time>` with their reason.
 */
import type { PersistenceAdapter, SaveDurability, SetAside } from './adapter.ts';

export interface IndexedDBAdapterOptions {
  /** Database name. Default "agentvfs". */
  database?: string;
  /** Which filesystem in that database. Default "default". */
  key?: string;
  /** The IndexedDB factory. Default `globalThis.indexedDB` (pass fake-indexeddb in Node tests). */
  indexedDB?: IDBFactoryLike;
}

// The slice of the IndexedDB API used here, so the core needs no DOM types.
type Handler = ((event: never) => unknown) | null;
interface IDBRequestLike<T = unknown> {
  result: T;
  error: unknown;
  onsuccess: Handler;
  onerror: Handler;
}
interface IDBOpenRequestLike extends IDBRequestLike<IDBDatabaseLike> {
  onupgradeneeded: Handler;
}
interface IDBDatabaseLike {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(store: string, mode: 'readonly' | 'readwrite', options?: { durability: SaveDurability }): IDBTransactionLike;
  close(): void;
}
interface IDBTransactionLike {
  objectStore(name: string): IDBStoreLike;
  oncomplete: Handler;
  onerror: Handler;
  onabort: Handler;
  error: unknown;
}
interface IDBStoreLike {
  get(key: string): IDBRequestLike;
  put(value: unknown, key: string): IDBRequestLike;
  delete(key: string): IDBRequestLike;
  getAllKeys(): IDBRequestLike<unknown[]>;
}
export interface IDBFactoryLike {
  open(name: string, version?: number): IDBOpenRequestLike;
}

const STORE = 'snapshots';

export function createIndexedDBAdapter(options: IndexedDBAdapterOptions = {}): PersistenceAdapter & { listAside(): Promise<SetAside[]> } {
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactoryLike }).indexedDB;
  if (!factory) throw new TypeError('agentvfs/persist: IndexedDB is not available here; pass options.indexedDB or use another adapter.');
  const name = options.database ?? 'agentvfs';
  const key = options.key ?? 'default';
  let db: Promise<IDBDatabaseLike> | null = null;

  const open = () =>
    (db ??= new Promise<IDBDatabaseLike>((resolve, reject) => {
      const request = factory.open(name, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(asError(request.error, `could not open IndexedDB database "${name}"`));
    }));

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
      await run('readwrite', (s) => s.put({ bytes: bytes.slice(), reason, at }, `${key}:aside:${at}`), 'strict');
    },
    async listAside() {
      const keys = (await run('readonly', (s) => s.getAllKeys())).filter((k): k is string => typeof k === 'string' && k.startsWith(`${key}:aside:`));
      const out: SetAside[] = [];
      for (const k of keys.sort()) out.push((await run('readonly', (s) => s.get(k))) as SetAside);
      return out;
    },
  };
}

function asError(error: unknown, context: string): Error {
  const message = error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error) ? (error as Error).message : String(error);
  return new Error(`agentvfs/persist: ${context}: ${message}`);
}
