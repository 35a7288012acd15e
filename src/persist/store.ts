/**
 * A workspace store: where `openPersistent` keeps a filesystem one record per file, so a
 * mutation writes only what it changed. Small on purpose (read everything once, then apply
 * atomic batches), so any transactional key-value store fits: IndexedDB, Durable Object
 * storage, an append-only file, memory.
 */
import type { SaveDurability } from './adapter.ts';

/** One atomic change: every put and delete lands, or none does. */
export interface StoreBatch {
  /** Keys to set (a value replaces what the key held). */
  puts: ReadonlyArray<readonly [key: string, value: Uint8Array]>;
  /** Keys to remove (a missing key is no error). */
  deletes: readonly string[];
  /** Also forget the snapshot a legacy adapter saved here (migration done), in the same transaction. */
  dropLegacy?: boolean;
}

export interface WorkspaceStore {
  /**
   * Every key and value, as last committed (a batch cut short by a crash is absent, never half
   * there). A store may leave out what was kept aside (`aside:` keys); `readAside` then reads it.
   */
  readAll(): Promise<Map<string, Uint8Array>>;
  /** What was kept aside (`aside:` keys), for a store whose readAll leaves it out. */
  readAside?(): Promise<Map<string, Uint8Array>>;
  /**
   * Applies `batch` in one transaction; resolves once committed. `durability: 'strict'` must mean
   * it survives a killed process (and, where the store can promise it, power loss) once resolved.
   */
  write(batch: StoreBatch, options: { durability: SaveDurability }): Promise<void>;
  /** A whole snapshot saved here by the snapshot adapter this store replaces, if any (read once, to migrate). */
  readLegacy?(): Promise<Uint8Array | null>;
  /** Closes handles (a database, a file) and gives up the claim; the store may not be used afterwards. */
  close?(): Promise<void>;
  /**
   * For stores that several tabs or workers can open at once (IndexedDB): takes the right to
   * write, held until close(). `wait: false` resolves false at once when another context holds
   * it; `wait: true` resolves true once it is free.
   */
  claim?(options: { wait: boolean }): Promise<boolean>;
  /** Calls `listener` with the keys each commit by another context changed; returns the unsubscribe. */
  follow?(listener: (keys: string[]) => void): () => void;
  /** The current values of `keys` (a key that is gone is absent). */
  readKeys?(keys: readonly string[]): Promise<Map<string, Uint8Array>>;
  /** Names the workspace in errors, e.g. `workspace "default" in IndexedDB database "agentvfs"`. */
  readonly name?: string;
}

/** True for a WorkspaceStore (as opposed to a snapshot PersistenceAdapter). */
export function isWorkspaceStore(value: unknown): value is WorkspaceStore {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WorkspaceStore).readAll === 'function' &&
    typeof (value as WorkspaceStore).write === 'function'
  );
}

/** The workspace store in one file, for Node (`createFileStore`). */
export interface FileStore extends WorkspaceStore {
  /** The log's size in bytes now (the live data plus superseded batches not yet compacted). */
  readonly fileBytes: number;
}
