/**
 * Persistence for any backend (in process, or a worker's RemoteBackend):
 * restore the last good snapshot on start, then save after every mutation —
 * debounced by default, or before each mutating call resolves ("immediate").
 */
import type { Backend } from '../backend/types.ts';
import { backendCall } from '../calls.ts';
import { isVfsError } from '../errors.ts';
import { isToolHost, type ToolHost } from '../tool-host.ts';
import { createLocalTools } from '../tools/create-tools.ts';
import { toolSet } from '../tools/tool-set.ts';
import type { ToolResult, Tools, ToolsOptions } from '../tools/types.ts';
import type { PersistenceAdapter, SaveDurability } from './adapter.ts';

export interface PersistOptions {
  /**
   * "debounced" (default): save `debounceMs` after the last mutation, and never later than
   * `maxWaitMs` after the first unsaved one, so a crash loses at most the last `maxWaitMs` of
   * mutations. "immediate": every mutating call resolves only once the new state is durable
   * (slower: one snapshot per mutation; IndexedDB is asked for `durability: 'strict'`).
   */
  durability?: 'debounced' | 'immediate';
  /** Quiet time before a debounced save. Default 300 ms. */
  debounceMs?: number;
  /**
   * Longest a mutation waits unsaved under a steady stream of mutations (debounced only):
   * a save starts at most this long after the first unsaved mutation. Default 1,000 ms.
   */
  maxWaitMs?: number;
  /** Told about a failed background save (the data stays in memory and is retried on the next save). */
  onError?: (error: Error) => void;
}

export type RestoreStatus = { status: 'empty' } | { status: 'restored'; bytes: number } | { status: 'corrupt'; reason: string };

export interface PersistentBackend extends Backend, ToolHost {
  /** Saves now if anything changed since the last save; resolves when it is durable. */
  flush(): Promise<void>;
  /** Stops autosaving after a final flush, then closes the wrapped backend if it can be closed. */
  close(): Promise<void>;
  /** The wrapped backend's `ready` (a worker that answered), or resolved. */
  readonly ready: Promise<void>;
  /** The last background save error, if the latest save failed. */
  readonly lastError: Error | null;
}

function checkOptions(options: PersistOptions): { immediate: boolean; debounceMs: number; maxWaitMs: number } {
  const { durability = 'debounced', debounceMs = 300, maxWaitMs = 1_000 } = options;
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
  return { immediate: durability === 'immediate', debounceMs, maxWaitMs };
}

/**
 * Restores the adapter's last snapshot into `backend`. A snapshot that fails
 * validation is kept aside with its reason (never dropped, never half applied)
 * and reported; the backend then starts from its current state.
 */
export async function restoreFrom(backend: Backend, adapter: PersistenceAdapter): Promise<RestoreStatus> {
  const bytes = await adapter.load();
  if (bytes === null) return { status: 'empty' };
  try {
    await backend.restore(bytes);
    return { status: 'restored', bytes: bytes.byteLength };
  } catch (error) {
    if (!isVfsError(error) || error.code !== 'ESNAPSHOT') throw error;
    await adapter.keepAside(bytes, error.message);
    await adapter.clear();
    return { status: 'corrupt', reason: error.message };
  }
}

/** Restores from the adapter, then returns the backend wrapped to save after every mutation. */
export async function openPersistent(
  backend: Backend,
  adapter: PersistenceAdapter,
  options: PersistOptions = {},
): Promise<{ backend: PersistentBackend; restored: RestoreStatus }> {
  const restored = await restoreFrom(backend, adapter);
  return { backend: persist(backend, adapter, options), restored };
}

/** Wraps `backend` so each mutation is saved to `adapter` (see PersistOptions). */
export function persist(backend: Backend, adapter: PersistenceAdapter, options: PersistOptions = {}): PersistentBackend {
  const { immediate, debounceMs, maxWaitMs } = checkOptions(options);
  let dirty = false;
  let timer: unknown = null; // restarts on every mutation
  let maxTimer: unknown = null; // runs from the first unsaved mutation; never restarts
  let saving: Promise<void> | null = null;
  let lastError: Error | null = null;
  let closed = false;

  async function saveNow(durability: SaveDurability): Promise<void> {
    while (saving) await saving.catch(() => {});
    if (!dirty) return;
    dirty = false;
    saving = (async () => {
      try {
        await adapter.save(await backend.snapshot(), { durability });
        lastError = null;
      } catch (error) {
        dirty = true; // keep trying on the next save
        lastError = error instanceof Error ? error : new Error(String(error));
        throw lastError;
      }
    })();
    try {
      await saving;
    } finally {
      saving = null;
    }
  }

  function cancelTimers(): void {
    if (timer !== null) clearTimeout(timer);
    if (maxTimer !== null) clearTimeout(maxTimer);
    timer = maxTimer = null;
  }

  function saveInBackground(): void {
    cancelTimers();
    saveNow('default').catch((error: Error) => options.onError?.(error));
  }

  function schedule(): void {
    dirty = true;
    if (closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(saveInBackground, debounceMs);
    maxTimer ??= setTimeout(saveInBackground, maxWaitMs);
  }

  async function mutated<T>(result: T): Promise<T> {
    if (!immediate) {
      schedule();
      return result;
    }
    dirty = true;
    try {
      await saveNow('strict');
    } catch (error) {
      throw new Error(`agentvfs/persist: the change was applied in memory but could not be saved: ${(error as Error).message}`);
    }
    return result;
  }

  const wrapped = Object.create(null) as PersistentBackend;
  // Every method the backend has, own or inherited (a class instance, a plain object, another wrapper).
  const names = new Set<string>();
  for (let o: object | null = backend; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) names.add(key);
  }
  for (const name of names) {
    const value = (backend as unknown as Record<string, unknown>)[name];
    if (typeof value !== 'function' || name === 'constructor' || name === 'createToolSession' || name in wrapped) continue;
    (wrapped as unknown as Record<string, unknown>)[name] = backendCall(name)?.mutates
      ? async (...args: unknown[]) => mutated(await (value as (...a: unknown[]) => Promise<unknown>).apply(backend, args))
      : (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(backend, args);
  }
  Object.defineProperties(wrapped, {
    lastError: { get: () => lastError },
    flush: {
      value: () => {
        cancelTimers();
        return saveNow('strict');
      },
    },
    close: {
      // Final save, then close what we wrap (a worker's RemoteBackend terminates its worker).
      value: async () => {
        closed = true;
        await wrapped.flush();
        (backend as { close?: () => unknown }).close?.();
      },
    },
    ready: { get: () => (backend as { ready?: Promise<void> }).ready ?? Promise.resolve() },
    createToolSession: {
      value(toolOptions: ToolsOptions): Tools<string> {
        // Tools over the wrapper save through its methods; a tool host runs them elsewhere, so save after a call that wrote files.
        if (!isToolHost(backend)) return createLocalTools(wrapped, toolOptions);
        const inner = backend.createToolSession(toolOptions);
        const run = async (name: string, args?: unknown): Promise<ToolResult> => {
          const result = await inner.run(name, args);
          return result.changed.length > 0 ? mutated(result) : result;
        };
        return toolSet(inner.definitions, run);
      },
    },
  });
  return wrapped;
}
