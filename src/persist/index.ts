/**
 * agentvfs/persist — keep a filesystem across reloads and restarts.
 *
 * @example
 * import { createTools } from 'agentvfs';
 * import { createWorkerBackend } from 'agentvfs/client';
 * import { createIndexedDBStore, openPersistent } from 'agentvfs/persist';
 * const { backend, restored } = await openPersistent(createWorkerBackend(), createIndexedDBStore());
 * if (restored.status === 'corrupt') console.warn(restored.reason); // the bad workspace was kept aside
 * const tools = createTools(backend); // each write saves only what it changed, within a second (debounced)
 */
export {
  isNotSavedError,
  isWorkspaceClosedError,
  isWorkspaceHeldError,
  NotSavedError,
  WorkspaceClosedError,
  WorkspaceHeldError,
} from '../errors.ts';
export { createMemoryAdapter, type PersistenceAdapter, type SaveDurability, type SetAside } from './adapter.ts';
export { createIndexedDBAdapter, type IDBFactoryLike, type IndexedDBAdapterOptions } from './indexeddb-adapter.ts';
export {
  createDurableObjectStore,
  type DurableObjectStorageLike,
  type DurableObjectStoreOptions,
  type DurableObjectTransactionLike,
} from './durable-object-store.ts';
export { createIndexedDBStore, type IndexedDBStoreOptions } from './indexeddb-store.ts';
export { createMemoryStore, type MemoryStore } from './memory-store.ts';
export { type KeptAside, readKeptAside } from './kept-aside.ts';
// Node's build of this entry (node/persist.ts) has the real ones; elsewhere they say they need Node.
export { createFileStore, readWorkspaceFile } from './file-store-elsewhere.ts';
export type { FileStore, StoreBatch, WorkspaceStore } from './store.ts';
export { openPersistent, persist, restoreFrom, type PersistentBackend, type PersistOptions, type RestoreStatus } from './persistent.ts';
