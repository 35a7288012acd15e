/**
 * The agentvfs IndexedDB database, shared by the snapshot adapter ("snapshots": one snapshot per
 * key) and the workspace store ("workspaces": records, packed or loose, see indexeddb-layout.ts), and the slice of the
 * IndexedDB API they use, so the core needs no DOM types.
 */
export const SNAPSHOTS = 'snapshots';
export const WORKSPACES = 'workspaces';
/** 1: snapshots only; 2: adds workspaces. Both users open version 2, so neither blocks the other. */
const VERSION = 2;

type Handler = ((event: never) => unknown) | null;
export interface IDBRequestLike<T = unknown> {
  result: T;
  error: unknown;
  onsuccess: Handler;
  onerror: Handler;
}
interface IDBOpenRequestLike extends IDBRequestLike<IDBDatabaseLike> {
  onupgradeneeded: Handler;
  onblocked: Handler;
}
export interface IDBDatabaseLike {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(stores: string | string[], mode: 'readonly' | 'readwrite', options?: { durability: 'strict' | 'default' | 'relaxed' }): IDBTransactionLike;
  close(): void;
}
interface IDBTransactionLike {
  objectStore(name: string): IDBStoreLike;
  oncomplete: Handler;
  onerror: Handler;
  onabort: Handler;
  error: unknown;
  abort(): void;
}
export interface IDBStoreLike {
  get(key: unknown): IDBRequestLike;
  put(value: unknown, key: unknown): IDBRequestLike;
  add(value: unknown, key: unknown): IDBRequestLike;
  delete(key: unknown): IDBRequestLike;
  getAllKeys(range?: unknown): IDBRequestLike<unknown[]>;
  getAll(range?: unknown): IDBRequestLike<unknown[]>;
}
export interface IDBFactoryLike {
  open(name: string, version?: number): IDBOpenRequestLike;
}

export function openAgentvfsDatabase(factory: IDBFactoryLike, name: string): Promise<IDBDatabaseLike> {
  return new Promise<IDBDatabaseLike>((resolve, reject) => {
    const request = factory.open(name, VERSION);
    request.onupgradeneeded = () => {
      for (const store of [SNAPSHOTS, WORKSPACES]) if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store);
    };
    let refused = false;
    // Another connection at an older version that does not close (a tab on an earlier version, code of
    // the page's own) would keep the upgrade, and so this open, waiting for ever: refuse it instead.
    request.onblocked = () => {
      refused = true;
      reject(
        new Error(
          `agentvfs/persist: could not open IndexedDB database "${name}": another connection holds it open at an older version (another tab, or code of this page) and does not close; close that tab or connection, then open again.`,
        ),
      );
    };
    request.onsuccess = () => (refused ? request.result.close() : resolve(request.result));
    request.onerror = () => reject(asError(request.error, `could not open IndexedDB database "${name}"`));
  });
}

export function asError(error: unknown, context: string): Error {
  const message = error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error) ? (error as Error).message : String(error);
  return new Error(`agentvfs/persist: ${context}: ${message}`, { cause: error });
}
