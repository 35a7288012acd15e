/** The options and result types of persistence, and the check of the options (errors name the bad value). */
import type { Backend } from '../backend/types.ts';
import type { ToolHost } from '../tool-host.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';

export interface PersistOptions {
  /**
   * "debounced" (default): save `debounceMs` after the last mutation, and never later than
   * `maxWaitMs` after the first unsaved one, so a crash loses at most the last `maxWaitMs` of
   * mutations. "immediate": every mutating call resolves only once the new state is durable
   * (slower: one snapshot per mutation; IndexedDB is asked for `durability: 'strict'`).
   */
  durability?: 'debounced' | 'immediate' | undefined;
  /** Quiet time before a debounced save. Default 300 ms. */
  debounceMs?: number | undefined;
  /**
   * Longest a mutation waits unsaved under a steady stream of mutations (debounced only):
   * a save starts at most this long after the first unsaved mutation. Default 1,000 ms.
   */
  maxWaitMs?: number | undefined;
  /**
   * When another tab or worker already holds the workspace (stores that can tell, IndexedDB):
   * 'refuse' (default) rejects with an error that says so; 'follow' opens it read-only, applies
   * the holder's changes as they commit, and takes over writing once the holder closes.
   */
  ifHeld?: 'refuse' | 'follow' | undefined;
  /** Told about a failed background save (the data stays in memory and is retried on the next save). */
  onError?: ((error: Error) => void) | undefined;
}

export type RestoreStatus =
  | { status: 'empty' }
  /**
   * `bytes`: what opening restored, as the store held it: the files' contents from a workspace
   * store's records; a whole snapshot's size from a snapshot (a PersistenceAdapter's, or one
   * being migrated into a workspace store).
   */
  | { status: 'restored'; bytes: number }
  | { status: 'corrupt'; reason: string };

export interface PersistentBackend extends Backend, ToolHost {
  /** Saves now if anything changed since the last save; resolves when it is durable. */
  flush(): Promise<void>;
  /** Stops autosaving after a final flush, then closes the wrapped backend if it can be closed. */
  close(): Promise<void>;
  /** The wrapped backend's `ready` (a worker that answered), or resolved. */
  readonly ready: Promise<void>;
  /** The last background save error, if the latest save failed. */
  readonly lastError: Error | null;
  /**
   * False while this context only follows a workspace another tab or worker writes (`ifHeld:
   * 'follow'`), and once it is closed: its mutations are then refused, nothing changed.
   */
  readonly writable: boolean;
  /**
   * Resolves true once this context may write: at once for the holder, when a follower takes
   * over; false when it is closed (or its takeover fails, reported to `onError`) first.
   */
  readonly whenWritable: Promise<boolean>;
}

const PERSIST_OPTIONS = optionNames<PersistOptions>({ durability: true, debounceMs: true, maxWaitMs: true, ifHeld: true, onError: true });

export function checkOptions(options: PersistOptions): {
  immediate: boolean;
  debounceMs: number;
  maxWaitMs: number;
  onError: ((error: Error) => void) | undefined;
  follow: boolean;
} {
  checkOptionNames(options, PERSIST_OPTIONS, 'agentvfs/persist: openPersistent');
  const { durability = 'debounced', debounceMs = 300, maxWaitMs = 1_000, ifHeld = 'refuse' } = options;
  if (ifHeld !== 'refuse' && ifHeld !== 'follow') throw new TypeError(`agentvfs/persist: ifHeld must be 'refuse' or 'follow', not ${JSON.stringify(ifHeld)}.`);
  if (durability !== 'debounced' && durability !== 'immediate') {
    throw new TypeError(`agentvfs/persist: durability must be 'debounced' or 'immediate', not ${JSON.stringify(durability)}.`);
  }
  for (const [name, value] of [
    ['debounceMs', debounceMs],
    ['maxWaitMs', maxWaitMs],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`agentvfs/persist: ${name} must be a finite number of milliseconds >= 0, not ${JSON.stringify(value)}.`);
    }
  }
  return { immediate: durability === 'immediate', debounceMs, maxWaitMs, onError: options.onError, follow: ifHeld === 'follow' };
}
