/**
 * Persistence for any backend (in process, or a worker's RemoteBackend):
 * restore the last good snapshot on start, then save after every mutation —
 * debounced by default, or before each mutating call resolves ("immediate").
 */
import type { Backend } from '../backend/types.ts';
import { isVfsError, NotSavedError } from '../errors.ts';
import type { ToolsAround } from '../tool-host.ts';
import type { Tools, ToolsOptions } from '../tools/types.ts';
import type { PersistenceAdapter, SaveDurability } from './adapter.ts';
import { persistentMethods } from './backend-methods.ts';
import { openStore } from './incremental.ts';
import { checkOptions, type PersistentBackend, type PersistOptions, type RestoreStatus } from './persist-options.ts';
import { saveScheduler } from './save-scheduler.ts';
import { isWorkspaceStore, type WorkspaceStore } from './store.ts';
import { savedToolSession } from './tool-saves.ts';

export type { PersistentBackend, PersistOptions, RestoreStatus } from './persist-options.ts';

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

/**
 * Opens the workspace a store holds into `backend` and returns it wrapped to save after every
 * mutation: with a WorkspaceStore, only what each mutation changed (migrating a snapshot the
 * snapshot adapter saved there); with a snapshot PersistenceAdapter, a whole snapshot each time.
 */
export async function openPersistent(
  backend: Backend,
  store: WorkspaceStore | PersistenceAdapter,
  options: PersistOptions = {},
): Promise<{ backend: PersistentBackend; restored: RestoreStatus }> {
  if (isWorkspaceStore(store)) return openStore(backend, store, options);
  const adapter = store;
  const restored = await restoreFrom(backend, adapter);
  return { backend: persist(backend, adapter, options), restored };
}

/** Wraps `backend` so each mutation is saved to `adapter` (see PersistOptions). */
export function persist(backend: Backend, adapter: PersistenceAdapter, options: PersistOptions = {}): PersistentBackend {
  const { immediate, debounceMs, maxWaitMs, onError } = checkOptions(options);
  let dirty = false;
  let saving: Promise<void> | null = null;
  let lastError: Error | null = null;
  // saveNow() is a function declaration below (hoisted).
  const timers = saveScheduler({ debounceMs, maxWaitMs, save: (durability) => saveNow(durability), onError });

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

  async function mutated<T>(result: T): Promise<T> {
    if (!immediate) {
      dirty = true;
      timers.schedule();
      return result;
    }
    dirty = true;
    try {
      await saveNow('strict');
    } catch (error) {
      throw new NotSavedError(error);
    }
    return result;
  }

  const { wrapped, unsaved, mutations, track, close } = persistentMethods(backend, (_name, _args, run) => run(), mutated);
  Object.defineProperties(wrapped, {
    lastError: { get: () => lastError },
    whenWritable: { value: Promise.resolve(true) },
    flush: {
      value: () => {
        timers.cancel();
        return saveNow('strict');
      },
    },
    close: {
      // Final save, then close what we wrap (a worker's RemoteBackend terminates its worker).
      value: async () => {
        await close(); // refuses new mutations; those running finish first, so the final save has them
        timers.close();
        await wrapped.flush();
        (backend as { close?: () => unknown }).close?.();
      },
    },
    ready: { get: () => (backend as { ready?: Promise<void> }).ready ?? Promise.resolve() },
    createToolSession: {
      value(toolOptions: ToolsOptions, around?: ToolsAround, here?: boolean): Tools<string> {
        return savedToolSession({ backend, unsaved, mutations, hostCall: (_name, run) => run(), save: () => mutated(null), track }, toolOptions, around, here);
      },
    },
  });
  return wrapped;
}
