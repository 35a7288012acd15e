/**
 * A workspace store in IndexedDB (browsers, main thread or a Worker): records in the object
 * store "workspaces", packed many to a value or loose (indexeddb-layout.ts); each save is one
 * transaction. The
 * snapshot the IndexedDB adapter kept under the same name in "snapshots" is migrated on open.
 */
import { checkOptionNames, optionNames } from '../option-names.ts';
import type { SaveDurability } from './adapter.ts';
import { type IDBFactoryLike, type IDBRequestLike, type IDBStoreLike, asError, openAgentvfsDatabase, SNAPSHOTS, WORKSPACES } from './indexeddb-database.ts';
import { BAD_PACK_PREFIX, lookUp, type Ops, PackedLayout, type RowKey } from './indexeddb-layout.ts';
import { asBytes } from './records.ts';
import type { StoreBatch, WorkspaceStore } from './store.ts';

/**
 * A batch as rows when the layout is unknown (before readAll, after a failed commit): each put
 * loose, each delete a tombstone (a pack may hold the key), and a bad pack kept aside deleted.
 */
function looseOps(batch: StoreBatch): Ops {
  const packs = batch.deletes.filter((k) => k.startsWith(BAD_PACK_PREFIX)).map((k) => Number(k.slice(BAD_PACK_PREFIX.length)));
  const tombstones = batch.deletes.filter((k) => !k.startsWith(BAD_PACK_PREFIX)).map((k): [string, Uint8Array] => [k, new Uint8Array(0)]);
  return { puts: [...batch.puts, ...tombstones], deletes: packs };
}

/** A commit failed because a writer this one does not know of (no Web Lock kept it out) had taken one of its pack numbers. */
const packTaken = (ops: Ops | null, error: unknown): boolean =>
  ops?.puts.some(([key]) => typeof key === 'number') === true && (error as { cause?: { name?: unknown } }).cause?.name === 'ConstraintError';

// A row that holds no bytes (not ours) reads as a failing record that keeps what it held
// (records.ts asBytes); read as bytes it would be empty, which is a deletion here, and the file
// would vanish unreported.

export interface IndexedDBStoreOptions {
  /** Database name. Default "agentvfs" (the IndexedDB adapter's, so its snapshots migrate). */
  database?: string | undefined;
  /** Which workspace in that database. Default "default". */
  key?: string | undefined;
  /** The IndexedDB factory. Default `globalThis.indexedDB` (pass fake-indexeddb in Node tests). */
  indexedDB?: IDBFactoryLike | undefined;
  /** The IDBKeyRange class. Default `globalThis.IDBKeyRange`. */
  IDBKeyRange?: { bound(lower: unknown, upper: unknown): unknown } | undefined;
}

const STORE_OPTIONS = optionNames<IndexedDBStoreOptions>({ database: true, key: true, indexedDB: true, IDBKeyRange: true });

export function createIndexedDBStore(options: IndexedDBStoreOptions = {}): WorkspaceStore {
  checkOptionNames(options, STORE_OPTIONS, 'agentvfs/persist: createIndexedDBStore');
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactoryLike }).indexedDB;
  const KeyRange = options.IDBKeyRange ?? (globalThis as { IDBKeyRange?: IndexedDBStoreOptions['IDBKeyRange'] }).IDBKeyRange;
  if (!factory || !KeyRange)
    throw new TypeError('agentvfs/persist: IndexedDB is not available here; pass options.indexedDB and options.IDBKeyRange, or use another store.');
  const name = options.database ?? 'agentvfs';
  const workspace = options.key ?? 'default';
  // [workspace] sorts before every [workspace, key]; [workspace, []] after them (arrays sort above strings).
  const range = () => KeyRange.bound([workspace], [workspace, []]);
  const db = openAgentvfsDatabase(factory, name);
  db.catch(() => {}); // reported by the first call that needs it, not as an unhandled rejection before then
  const label = `workspace "${workspace}" in IndexedDB database "${name}"`;
  const tabs = coordination(`agentvfs:${name}:${workspace}`);

  function finish(tx: { oncomplete: unknown; onerror: unknown; onabort: unknown; error: unknown }, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      // A failed request's error reaches the transaction before the abort sets tx.error.
      tx.onerror = tx.onabort = (event?: { target?: { error?: unknown } }) => reject(asError(tx.error ?? event?.target?.error, `IndexedDB ${what} failed`));
    });
  }

  // What the rows hold, learned by readAll and kept up to date by each commit (a failed one takes
  // its plan back); null until then, or once another writer took a pack's number (writes then stay
  // loose: correct whatever the rows hold).
  let layout: PackedLayout | null = null;
  let closed = false;
  // Writes and compaction steps run one at a time, so each is planned against the rows it changes.
  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  }

  function apply(store: IDBStoreLike, ops: Ops): void {
    for (const key of ops.deletes) store.delete([workspace, key]);
    // A pack is only ever written new: add() fails (ConstraintError) where a writer this one does not
    // know of (no Web Locks to keep it out) took the number, instead of replacing that writer's pack.
    for (const [key, value] of ops.puts) {
      if (typeof key === 'number') store.add(value, [workspace, key]);
      else store.put(value, [workspace, key]);
    }
  }

  /** One compaction step in a transaction of its own (it changes how records lie, not what they are), then the next. */
  function compactLater(): void {
    if (closed || !tabs.mayWrite()) return;
    void serial(async () => {
      const planned = closed ? null : layout;
      if (!planned) return false;
      planned.begin();
      let done = false;
      let ops: Ops | null = null;
      try {
        const step = planned.compaction();
        if (!step) return ((done = true), false);
        // 'strict' like an immediate save: no step ever waits in a buffer a kill can tear.
        const tx = (await db).transaction([WORKSPACES], 'readwrite', { durability: 'strict' });
        const store = tx.objectStore(WORKSPACES);
        const values = new Map<RowKey, Uint8Array>();
        let left = step.reads.length;
        // (A throw in a request's handler below aborts the transaction by itself.)
        if (left === 0) {
          try {
            apply(store, (ops = step.finish(values)));
          } catch (error) {
            tx.abort();
            throw error;
          }
        }
        for (const key of step.reads) {
          const request = store.get([workspace, key]);
          request.onsuccess = () => {
            values.set(key, asBytes(request.result));
            if (--left === 0) apply(store, (ops = step.finish(values)));
          };
        }
        await finish(tx, 'compaction');
        return (done = true);
      } catch (error) {
        if (packTaken(ops, error)) layout = null; // after the settle below: another writer's rows are not in it
        return false; // the rows are as they were; so is the layout, below
      } finally {
        planned.settle(done);
      }
    }).then((more) => more && compactLater());
  }

  return {
    async readAll() {
      return serial(async () => {
        const tx = (await db).transaction([WORKSPACES], 'readonly');
        const store = tx.objectStore(WORKSPACES);
        const keys = store.getAllKeys(range()) as IDBRequestLike<Array<[string, RowKey]>>;
        const values = store.getAll(range()) as IDBRequestLike<unknown[]>;
        await finish(tx, 'read');
        layout = new PackedLayout();
        // Compaction waits for the first save: until then the opener may still find the rows bad and keep them aside.
        return layout.load(keys.result.map((k, i) => [k[1], asBytes(values.result[i])] as const));
      });
    },
    async write(batch, { durability }: { durability: SaveDurability }) {
      await serial(async () => {
        const commit = async (ops: Ops): Promise<void> => {
          // Chromium commits 'default' transactions 'relaxed' (not power-loss safe); 'strict' waits for the disk.
          const tx = (await db).transaction([WORKSPACES, SNAPSHOTS], 'readwrite', { durability });
          try {
            apply(tx.objectStore(WORKSPACES), ops);
            if (batch.dropLegacy) tx.objectStore(SNAPSHOTS).delete(workspace);
          } catch (error) {
            tx.abort(); // nothing of a batch that did not go in whole
            throw error;
          }
          await finish(tx, 'save');
        };
        const planned = layout;
        planned?.begin();
        let ops: Ops | null = null;
        try {
          ops = planned ? planned.plan(batch) : looseOps(batch);
          await commit(ops);
          planned?.settle(true);
        } catch (error) {
          planned?.settle(false); // the rows are as they were: so is the layout
          if (!packTaken(ops, error)) throw error;
          // Another writer took a pack's number (no Web Lock kept it out): the layout is not known
          // any more, and the same records go in loose.
          layout = null;
          await commit(looseOps(batch));
        }
      });
      tabs.announce(
        batch.puts.map(([k]) => k),
        batch.deletes,
      );
      compactLater();
    },
    async readKeys(keys) {
      const tx = (await db).transaction([WORKSPACES], 'readonly');
      const store = tx.objectStore(WORKSPACES);
      const loose = keys.map((k) => [k, store.get([workspace, k])] as const);
      // A key with no loose record is in a pack, or gone: a removal the writer announced needs no pack.
      const inPacks = (k: string, r: IDBRequestLike) => r.result === undefined && !tabs.gone.has(k);
      // Every pack, read only when some key may be in one (a big commit, or compaction moved it).
      const packKeys = store.getAllKeys(KeyRange.bound([workspace, -Infinity], [workspace, Infinity])) as IDBRequestLike<Array<[string, number]>>;
      const packs: Array<[number, IDBRequestLike]> = [];
      packKeys.onsuccess = () => {
        if (!loose.some(([k, r]) => inPacks(k, r))) return;
        for (const [, n] of packKeys.result) packs.push([n, store.get([workspace, n])]);
      };
      await finish(tx, 'read');
      return lookUp(
        keys.filter((k, i) => loose[i]![1].result !== undefined || !tabs.gone.has(k)),
        new Map(loose.map(([k, r]) => [k, r.result === undefined ? undefined : asBytes(r.result)])),
        packs.map(([n, r]) => [n, asBytes(r.result)] as const),
      );
    },
    name: label,
    claim: tabs.claim,
    follow: tabs.follow,
    async readLegacy() {
      const tx = (await db).transaction([SNAPSHOTS], 'readonly');
      const request = tx.objectStore(SNAPSHOTS).get(workspace);
      await finish(tx, 'read');
      const value = request.result;
      return value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : null;
    },
    async close() {
      closed = true;
      await queue;
      tabs.close();
      (await db.catch(() => null))?.close(); // a database that never opened has nothing to close
    },
  };
}

// Web Locks and BroadcastChannel, as far as used here (the core has no DOM types).
interface LocksLike {
  request(name: string, options: { ifAvailable?: boolean; signal?: unknown }, work: (lock: unknown) => Promise<void> | undefined): Promise<unknown>;
}
interface ChannelLike {
  postMessage(message: unknown): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

/**
 * One writer per workspace across tabs and workers (a Web Lock, held until close), and a
 * BroadcastChannel on which the writer names the keys of each commit. Where either API is
 * missing (Node), claims always succeed and nothing is announced.
 */
function coordination(lockName: string) {
  const g = globalThis as {
    navigator?: { locks?: LocksLike };
    BroadcastChannel?: new (name: string) => ChannelLike;
    AbortController?: new () => { signal: unknown; abort(): void };
  };
  const locks = g.navigator?.locks;
  const channel = g.BroadcastChannel ? new g.BroadcastChannel(lockName) : null;
  let release: (() => void) | null = null;
  let claimed = false;
  const gone = new Set<string>();
  const waiting = g.AbortController ? new g.AbortController() : null;
  return {
    claim({ wait }: { wait: boolean }): Promise<boolean> {
      if (!locks) return Promise.resolve(true);
      return new Promise<boolean>((resolve, reject) => {
        locks
          .request(lockName, wait ? { signal: waiting?.signal } : { ifAvailable: true }, (lock) => {
            if (!lock) return (resolve(false), undefined);
            claimed = true;
            resolve(true);
            return new Promise<void>((r) => (release = r)); // held until close()
          })
          .catch((error: unknown) => (wait ? resolve(false) : reject(error)));
      });
    },
    /** Keys the writer announced removed and not written since: a follower need not look for them in packs. */
    gone,
    follow(listener: (keys: string[]) => void): () => void {
      if (!channel) return () => {};
      channel.onmessage = (event) => {
        const { keys, removed } = event.data as { keys?: unknown; removed?: unknown };
        if (!Array.isArray(keys)) return;
        const removedKeys = new Set(Array.isArray(removed) ? (removed as string[]) : []);
        for (const key of keys as string[]) {
          if (removedKeys.has(key)) gone.add(key);
          else gone.delete(key);
        }
        listener(keys as string[]);
      };
      return () => {
        channel.onmessage = null;
      };
    },
    /** True once this context holds the workspace, or when nothing is coordinated. */
    mayWrite: (): boolean => !locks || claimed,
    /** Names a commit's keys; `keys` keeps the removed ones too, as tabs on earlier versions read it. */
    announce(written: readonly string[], removed: readonly string[]): void {
      channel?.postMessage({ keys: [...written, ...removed], removed });
    },
    close(): void {
      waiting?.abort();
      release?.();
      channel?.close();
    },
  };
}
