/**
 * Incremental persistence into a WorkspaceStore: after a mutation, only the records of the
 * paths it changed are written, in one atomic batch. Mutations and the reads that collect a
 * batch take turns (one lock), so each batch is a state the backend really had.
 */
import type { Backend, FileInfo } from '../backend/types.ts';
import { isVfsError, NotSavedError, VfsError } from '../errors.ts';
import { ancestorsOf, isWithin } from '../paths.ts';
import type { ToolsAround } from '../tool-host.ts';
import type { Tools, ToolsOptions } from '../tools/types.ts';
import type { SaveDurability } from './adapter.ts';
import { applyEntries, type Removal, walkTree } from './apply-entries.ts';
import { persistentMethods } from './backend-methods.ts';
import { decodeSnapshot, type SnapshotEntry } from '../snapshot/format.ts';
import { scopesOfCall } from './changed-scopes.ts';
import { saveScheduler } from './save-scheduler.ts';
import { savedToolSession } from './tool-saves.ts';
import { openFollower } from './follower.ts';
import { notFitting } from './not-fitting.ts';
import { statOrNull } from '../backend/stat-or-null.ts';
import { checkOptions, type PersistentBackend, type PersistOptions, type RestoreStatus } from './persist-options.ts';
import { META_KEY, asBytes, asideKey, decodeRecords, dirKey, encodeAside, encodeMeta, encodeRecord, fileKey, snapshotOf, workspaceKeys } from './records.ts';
import type { StoreBatch, WorkspaceStore } from './store.ts';

interface Known {
  dir: boolean;
  version: number;
  mtimeMs: number;
}

/** Loads the store into `backend` (migrating a legacy snapshot, setting aside what is corrupt), then wraps it. */
export async function openStore(
  backend: Backend,
  store: WorkspaceStore,
  options: PersistOptions = {},
): Promise<{ backend: PersistentBackend; restored: RestoreStatus }> {
  const settings = checkOptions(options);
  const held = `another tab or worker holds ${store.name ?? 'this workspace'}`;
  try {
    const claimed = !store.claim || (await store.claim({ wait: false }));
    // A refused open closes the store too: its open database would block another tab's upgrade or delete.
    if (!claimed && !settings.follow)
      throw new Error(`agentvfs/persist: ${held}. Close it there, or open with { ifHeld: 'follow' } to follow its changes read-only.`);
    return await (claimed ? openClaimed(backend, store, options) : openFollower(backend, store, options, held, openClaimed));
  } catch (error) {
    await store.close?.(); // gives the claim back (or stops following), so a later open is not refused by this failed one
    throw error;
  }
}

/**
 * openStore once this context may write (it holds the claim, or the store has none). `inPlace`
 * (a follower taking over): the backend is changed only where it differs from the store, so its
 * unchanged files keep their versions, instead of being restored.
 */
async function openClaimed(
  backend: Backend,
  store: WorkspaceStore,
  options: PersistOptions,
  { inPlace }: { inPlace: boolean } = { inPlace: false },
): Promise<{ backend: PersistentBackend; restored: RestoreStatus }> {
  const settings = checkOptions(options);
  // A store of the caller's own may give anything: what is not bytes reads as a record that fails its check.
  const all = new Map([...(await store.readAll())].map(([k, v]) => [k, asBytes(v)] as const));
  const keys = workspaceKeys(all);
  let restored: RestoreStatus = { status: 'empty' };
  let dropLegacy = false;
  let rewrite = false; // the store does not hold this workspace as records yet
  let restamp: string[] = []; // changed in place: saved again, so that the store keeps the times they have here
  if (keys.length > 0) {
    const decoded = decodeRecords(all);
    let problem = 'problem' in decoded ? decoded.problem : null;
    let snapshot: Uint8Array | null = null;
    if (!('problem' in decoded)) {
      try {
        snapshot = snapshotOf(decoded.entries);
      } catch (error) {
        if (!isVfsError(error) || error.code !== 'EINVAL') throw error;
        problem = error.message; // records that make no tree: damaged
      }
    }
    if (snapshot !== null && !('problem' in decoded)) {
      try {
        if (inPlace) restamp = await applyInPlace(backend, decoded.entries, snapshot);
        else await backend.restore(snapshot, { copy: false }); // bytes made here: adopted, not copied again
        restored = { status: 'restored', bytes: decoded.entries.reduce((n, e) => n + (e.content?.length ?? 0), 0) };
      } catch (error) {
        // A sound workspace this backend's limits cannot hold is no damage: refused, the store untouched.
        // (Anything else, a closed backend, is thrown as it is.)
        throw notFitting(decoded.entries.length, error) ?? error;
      }
    }
    if (problem !== null) {
      const reason = `agentvfs/persist: the stored workspace was kept aside and not opened: ${problem}`;
      const records = keys.map((k) => [k, all.get(k)!] as const);
      await store.write({ puts: [[asideKey(), encodeAside(reason, records)]], deletes: keys }, { durability: 'strict' });
      restored = { status: 'corrupt', reason };
      rewrite = true;
    }
  } else {
    const legacy = (await store.readLegacy?.()) ?? null;
    if (legacy !== null) {
      dropLegacy = true;
      try {
        await backend.restore(legacy);
        restored = { status: 'restored', bytes: legacy.byteLength };
      } catch (error) {
        if (!isVfsError(error) || error.code !== 'ESNAPSHOT') throw error;
        if (soundSnapshot(legacy)) {
          // Sound, but over this backend's limits: refused as the records are, the snapshot kept as it is.
          throw new VfsError(
            'EQUOTA',
            `agentvfs/persist: the saved snapshot does not fit this backend: ${error.message} It was not opened, and the store is unchanged: open it into a backend whose limits hold it.`,
            { cause: error },
          );
        }
        const reason = `agentvfs/persist: the saved snapshot was kept aside and not opened: ${error.message}`;
        await store.write({ puts: [[asideKey(), encodeAside(reason, [['snapshot', legacy]])]], deletes: [], dropLegacy: true }, { durability: 'strict' });
        restored = { status: 'corrupt', reason };
        dropLegacy = false;
      }
    }
    rewrite = true;
  }
  const wrapped = wrapWithStore(backend, store, settings, new Map());
  try {
    // Opened from its records: the store already holds this state, so only learn the versions.
    if (rewrite || dropLegacy) await wrapped.resync({ meta: rewrite, dropLegacy });
    else {
      await wrapped.adopt();
      if (restamp.length > 0) await wrapped.restamp(restamp);
    }
  } catch (error) {
    wrapped.abandon();
    throw error;
  }
  return { backend: wrapped.backend, restored };
}

/**
 * A takeover: `entries` applied in place, or, when that fails half way (a size limit crossed
 * between two files), restored whole, which checks before it changes anything. Returns the
 * paths changed in place.
 */
async function applyInPlace(backend: Backend, entries: SnapshotEntry[], snapshot: Uint8Array): Promise<string[]> {
  try {
    return await applyEntries(backend, entries, await removalsFor(backend, entries));
  } catch {
    await backend.restore(snapshot, { copy: false });
    return [];
  }
}

/** What `backend` holds that `entries` do not (a kind that differs, applyEntries replaces). */
async function removalsFor(backend: Backend, entries: readonly SnapshotEntry[]): Promise<Removal[]> {
  const held = new Map<string, FileInfo>();
  await walkTree(backend, '/', held);
  const kept = new Set(entries.map((e) => e.path));
  return [...held].filter(([path]) => !kept.has(path)).map(([path, info]) => ({ path, dir: info.isDir }));
}

function wrapWithStore(
  backend: Backend,
  store: WorkspaceStore,
  settings: ReturnType<typeof checkOptions>,
  known: Map<string, Known>,
): {
  backend: PersistentBackend;
  resync(first: { meta: boolean; dropLegacy: boolean }): Promise<void>;
  adopt(): Promise<void>;
  restamp(paths: readonly string[]): Promise<void>;
  /** The open failed: schedule nothing more (and let go of the page's events). */
  abandon(): void;
} {
  const { immediate, debounceMs, maxWaitMs, onError } = settings;
  const pending = new Set<string>();
  let everything = false;
  let lastError: Error | null = null;
  // save() is a function declaration below (hoisted).
  const timers = saveScheduler({ debounceMs, maxWaitMs, save: (durability) => save(durability), onError });
  let first: { meta: boolean; dropLegacy: boolean } | null = null;

  // One lock for mutations and for collecting a batch; one queue for commits, in order.
  let turn: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = turn.then(work, work);
    turn = run.catch(() => {});
    return run;
  }
  let commits: Promise<unknown> = Promise.resolve();

  function note(paths: readonly string[]): void {
    for (const p of paths) {
      if (p === '/') everything = true;
      else pending.add(p);
    }
  }

  // A backend with watch() names every path each committed call changed (a restore or rollback:
  // only the differences), even calls made on it directly; otherwise the calls table's path
  // arguments say where to look. A direct call is saved by a debounced save, also with
  // 'immediate' (a wrapped call's own save follows it: `wrappedCalls` counts those running).
  let wrappedCalls = 0;
  const watched = typeof (backend as Partial<Backend>).watch === 'function';
  const unwatch = watched
    ? backend.watch(
        (events) => {
          for (const e of events) {
            pending.add(e.path);
            if (e.oldPath !== undefined) pending.add(e.oldPath);
          }
          if (!immediate || wrappedCalls === 0) timers.schedule();
        },
        { directories: true },
      ) // (a directory is a record of its own)
    : null;
  const noteCall = (paths: readonly string[]) => {
    if (!watched) note(paths);
  };

  const walk = (dir: string, into: Map<string, FileInfo>) => walkTree(backend, dir, into);

  const statAt = (path: string) => statOrNull(backend, path);

  const differs = (info: FileInfo, was: Known | undefined) =>
    !was || was.dir !== info.isDir || (info.isDir ? was.mtimeMs !== info.mtimeMs : was.version !== info.version);

  /** Reads what changed under the pending scopes and turns it into one batch (the caller holds the lock). */
  async function collect(): Promise<{ batch: StoreBatch; apply: () => void } | null> {
    // Taken now: a change committed while this batch is read (a call on the unwrapped backend,
    // another tab's) notes its paths for the next batch instead of being cleared with these.
    const scopes = [...pending];
    const all = everything;
    pending.clear();
    everything = false;
    try {
      return await collectFrom(scopes, all);
    } catch (error) {
      for (const path of scopes) pending.add(path);
      if (all) everything = true;
      throw error;
    }
  }

  async function collectFrom(scopes: readonly string[], all: boolean): Promise<{ batch: StoreBatch; apply: () => void } | null> {
    const now = new Map<string, FileInfo>(); // current state of every path looked at
    const looked: string[] = []; // scopes: anything known under them and not in `now` is gone
    if (all) {
      await walk('/', now);
      looked.push('/');
    } else {
      for (const raw of scopes) {
        const path = await backend.resolvePath(raw).catch(() => null);
        if (path === null || path === '/') {
          now.clear();
          await walk('/', now);
          looked.length = 0;
          looked.push('/');
          break;
        }
        const info = await statAt(path);
        looked.push(path);
        if (info) now.set(path, info);
        if (info?.isDir || known.get(path)?.dir) {
          if (info?.isDir) await walk(path, now);
        }
        // A new file makes new parents and changes its parent's time: walk up to the first unchanged one.
        for (const ancestor of ancestorsOf(path).reverse()) {
          const a = await statAt(ancestor);
          if (!a) continue;
          const same = !differs(a, known.get(ancestor));
          now.set(ancestor, a);
          if (same) break;
        }
      }
    }
    const changedFiles: string[] = [];
    const dirPuts: Array<[string, Uint8Array]> = [];
    const deletes = new Set<string>();
    for (const [path, info] of now) {
      const was = known.get(path);
      if (!differs(info, was)) continue;
      if (was && was.dir !== info.isDir) deletes.add(was.dir ? dirKey(path) : fileKey(path));
      if (info.isDir) dirPuts.push([dirKey(path), encodeRecord(dirKey(path), info.mtimeMs)]);
      else changedFiles.push(path);
    }
    const gone: string[] = [];
    for (const scope of looked) {
      if (scope !== '/' && !known.get(scope)?.dir) {
        if (known.has(scope) && !now.has(scope)) gone.push(scope);
        continue;
      }
      for (const path of known.keys()) if (isWithin(path, scope) && !now.has(path)) gone.push(path);
    }
    for (const path of gone) deletes.add(known.get(path)!.dir ? dirKey(path) : fileKey(path));
    const filePuts: Array<[string, Uint8Array]> = [];
    const downloaded = changedFiles.length ? await backend.downloadFiles(changedFiles) : [];
    for (const { path, content } of downloaded) {
      // Cannot vanish under the lock; if a backend says so anyway, save it as gone.
      if (content === null) deletes.add(fileKey(path));
      else filePuts.push([fileKey(path), encodeRecord(fileKey(path), now.get(path)!.mtimeMs, content)]);
    }
    const puts = [...dirPuts, ...filePuts];
    const head = first;
    if (head?.meta) puts.push([META_KEY, encodeMeta()]);
    if (puts.length === 0 && deletes.size === 0 && !head?.dropLegacy) return null;
    const batch: StoreBatch = { puts, deletes: [...deletes], ...(head?.dropLegacy ? { dropLegacy: true } : {}) };
    return {
      batch,
      apply() {
        first = null;
        for (const path of gone) known.delete(path);
        for (const [path, info] of now) known.set(path, { dir: info.isDir, version: info.version, mtimeMs: info.mtimeMs });
      },
    };
  }

  /** Collects under the lock, commits in order; resolves when this save (and every earlier one) is committed. */
  function save(durability: SaveDurability): Promise<void> {
    const run = commits.then(async () => {
      const next = await exclusive(collect);
      if (!next) return;
      try {
        await store.write(next.batch, { durability });
      } catch (error) {
        // Not committed: the next save compares against what the store last held, so it is rewritten then.
        everything = true;
        lastError = error instanceof Error ? error : new Error(String(error));
        throw lastError;
      }
      next.apply();
      lastError = null;
    });
    commits = run.catch(() => {});
    return run;
  }

  async function mutated<T>(result: T): Promise<T> {
    if (!immediate) {
      timers.schedule();
      return result;
    }
    try {
      await save('strict');
    } catch (error) {
      throw new NotSavedError(error);
    }
    return result;
  }

  const { wrapped, unsaved, mutations, track, close } = persistentMethods(
    backend,
    (name, args, run) =>
      exclusive(async () => {
        wrappedCalls++;
        try {
          const result = await run();
          noteCall(scopesOfCall(name, args));
          return result;
        } finally {
          wrappedCalls--;
        }
      }),
    mutated,
  );
  Object.defineProperties(wrapped, {
    lastError: { get: () => lastError },
    whenWritable: { value: Promise.resolve(true) },
    flush: {
      value: () => {
        timers.cancel();
        return save('strict');
      },
    },
    close: {
      value: async () => {
        await close(); // refuses new mutations; those running finish first, so the final save has them
        timers.close();
        await wrapped.flush();
        unwatch?.();
        (backend as { close?: () => unknown }).close?.();
        await store.close?.();
      },
    },
    ready: { get: () => (backend as { ready?: Promise<void> }).ready ?? Promise.resolve() },
    createToolSession: {
      value(toolOptions: ToolsOptions, around?: ToolsAround, here?: boolean): Tools<string> {
        return savedToolSession(
          {
            backend,
            unsaved,
            mutations,
            // A tool host runs tools elsewhere: a call that may change files takes the lock, and is
            // saved when its result names changed files.
            hostCall: (_name, run) =>
              exclusive(async () => {
                wrappedCalls++;
                try {
                  const r = await run();
                  noteCall(r.changed.map((c) => c.path));
                  return r;
                } finally {
                  wrappedCalls--;
                }
              }),
            save: () => mutated(null),
            track,
          },
          toolOptions,
          around,
          here,
        );
      },
    },
  });
  return {
    backend: wrapped,
    abandon: () => {
      timers.cancel();
      timers.close();
    },
    adopt: () =>
      exclusive(async () => {
        const now = new Map<string, FileInfo>();
        await walk('/', now);
        for (const [path, info] of now) known.set(path, { dir: info.isDir, version: info.version, mtimeMs: info.mtimeMs });
      }),
    async resync(head) {
      first = head;
      everything = true;
      await save('strict');
    },
    /** Saves `paths` and their parents again, as they are here (adopt() took their times as saved). */
    restamp(paths) {
      for (const path of paths) {
        pending.add(path);
        for (const p of [path, ...ancestorsOf(path)]) known.delete(p);
      }
      return save('strict');
    },
  };
}

/** Whether `bytes` are a snapshot that decodes with no limits (so a restore refused it for its size). */
function soundSnapshot(bytes: Uint8Array): boolean {
  try {
    decodeSnapshot(
      bytes,
      { maxFiles: Infinity, maxDirectories: Infinity, maxTotalBytes: Infinity, maxFileBytes: Infinity, maxPathLength: Infinity },
      { copy: false },
    );
    return true;
  } catch {
    return false;
  }
}
