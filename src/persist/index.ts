/**
 * agentvfs/persist — keep a filesystem across reloads and restarts.
 *
 * @example
 * import { createTools } from 'agentvfs';
 * import { createWorkerBackend } from 'agentvfs/client';
 * import { createIndexedDBAdapter, openPersistent } from 'agentvfs/persist';
 * const { backend, restored } = await openPersistent(createWorkerBackend(), createIndexedDBAdapter());
 * if (restored.status === 'corrupt') console.warn(restored.reason); // the bad snapshot was kept aside
 * const tools = createTools(backend); // every write is saved to IndexedDB within a second (debounced)
 */
export { createMemoryAdapter, type PersistenceAdapter, type SaveDurability, type SetAside } from './adapter.ts';
export { createIndexedDBAdapter, type IDBFactoryLike, type IndexedDBAdapterOptions } from './indexeddb-adapter.ts';
export { openPersistent, persist, restoreFrom, type PersistentBackend, type PersistOptions, type RestoreStatus } from './persistent.ts';
