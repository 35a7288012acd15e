// The one backend of the page: it lives in a Web Worker (agentvfs/client), saves what each
// change changed to IndexedDB (agentvfs/persist's incremental store), starts with what was
// saved (or the sample project when nothing was), follows another tab that holds the
// workspace, and tells listeners when its files may have changed.
import {
  type Backend,
  createStateBackend,
  createTools,
  type DialectName,
  type FileInfo,
  type OwnedBytes,
  type ToolDefinition,
  type Tools,
  type ToolsOptions,
  type WatchEvent,
} from 'agentvfs';
import { createWorkerBackend, type RemoteBackend } from 'agentvfs/client';
import { createIndexedDBStore, createMemoryStore, openPersistent, type PersistentBackend, type RestoreStatus, type WorkspaceStore } from 'agentvfs/persist';
import { SAMPLE_PROJECT } from './sample-project.ts';

export interface TreeNode extends FileInfo {
  children?: TreeNode[];
}

export interface Stats {
  files: number;
  /** Folders below the node (not counting itself). */
  folders: number;
  bytes: number;
}

/** Where the saved copy stands (shown in the status bar). */
export interface SaveStatus {
  /** off: no IndexedDB here (nothing survives a reload). following: another tab holds the workspace; this one shows its changes, read-only. */
  state: 'idle' | 'saving' | 'saved' | 'following' | 'error' | 'off';
  /** Completed saves since the page loaded. */
  saves: number;
  at?: number;
  /** Bytes the last save wrote (the files it changed). */
  bytes?: number;
  error?: string;
}

/** What start() found in IndexedDB. `unavailable`: IndexedDB could not be opened. */
export type StartStatus = RestoreStatus | { status: 'unavailable'; reason: string };

type Listener = () => void;

/** IndexedDB names (agentvfs/persist defaults): database "agentvfs", workspace "default". */
export const SAVE_LOCATION = { database: 'agentvfs', workspace: 'default' } as const;

export class Workspace {
  /** The raw worker backend. Use `backend` (it saves); this one is for tool definitions only. */
  readonly #worker: RemoteBackend;
  #backend: PersistentBackend | null = null;
  #listeners = new Set<Listener>();
  #replaceListeners = new Set<Listener>();
  #eventListeners = new Set<(events: WatchEvent[]) => void>();
  #live = false;
  #saveListeners = new Set<(s: SaveStatus) => void>();
  #pending = false;
  #sample: Uint8Array | null = null;
  #status: SaveStatus = { state: 'idle', saves: 0 };
  #started: { promise: Promise<void>; resolve: () => void };

  constructor() {
    this.#worker = createWorkerBackend();
    let resolve!: () => void;
    this.#started = { promise: new Promise<void>((r) => (resolve = r)), resolve };
  }

  /** Resolves once start() has finished (files restored or seeded). */
  get started(): Promise<void> {
    return this.#started.promise;
  }

  /** The persistent backend (the worker, saved to IndexedDB after every change). */
  get backend(): PersistentBackend {
    if (!this.#backend) throw new Error('The workspace has not started yet.');
    return this.#backend;
  }

  /** The worker backend itself, where a fork names the workspace it was forked from (fork.merge(worker)). */
  get worker(): RemoteBackend {
    return this.#worker;
  }

  get saveStatus(): SaveStatus {
    return this.#status;
  }

  /** A dialect's tool definitions (the same in every session; needs no started backend). */
  definitionsOf(dialect: DialectName = 'agentvfs'): ToolDefinition<string>[] {
    return createTools(this.#worker, { dialect }).definitions;
  }

  /** The six tool definitions. */
  get definitions(): ToolDefinition[] {
    return createTools(this.#worker).definitions;
  }

  /**
   * Waits for the worker, opens the workspace saved in IndexedDB (following it read-only when
   * another tab holds it), and seeds the sample project only when nothing was restored
   * (nothing saved, or a corrupt save that agentvfs/persist kept aside).
   */
  async start(): Promise<StartStatus> {
    await this.#worker.ready;
    // Every committed change in the worker, whoever made it (a tool, a restore, a merge): the
    // file tree follows these instead of re-listing, and the other views refresh.
    // Before start() has finished (a restore from IndexedDB, the seed) there is nothing to update:
    // the views list the workspace once it has started.
    this.#worker.watch(
      (events) => {
        if (!this.#live) return;
        for (const listener of this.#eventListeners) listener(events);
        this.changed();
      },
      { directories: true }, // the file tree shows empty directories too
    );
    this.#sample = await createStateBackend({ files: SAMPLE_PROJECT }).snapshot();
    let status: StartStatus;
    try {
      const opened = await openPersistent(this.#worker, this.#watch(createIndexedDBStore()), {
        ifHeld: 'follow',
        onError: (e) => this.#setStatus({ state: 'error', error: e.message }),
      });
      this.#backend = opened.backend;
      status = opened.restored;
    } catch (e) {
      // No IndexedDB (or it refused to open): keep working, in memory only.
      this.#backend = (await openPersistent(this.#worker, createMemoryStore())).backend;
      status = { status: 'unavailable', reason: (e as Error).message };
      this.#setStatus({ state: 'off', error: status.reason });
    }
    if (!this.#backend.writable) {
      this.#setStatus({ state: 'following' });
      void this.#backend.whenWritable.then((writable) => writable && this.#tookOver());
    }
    // Seeded through the raw worker; the store hears of it (watch) and saves it like any change.
    if (status.status !== 'restored' && this.#backend.writable) await this.#worker.restore(this.#sample.slice());
    else if (status.status === 'restored' && this.#backend.writable) this.#setStatus({ state: 'saved', at: Date.now() });
    this.#live = true;
    this.#started.resolve();
    return status;
  }

  /** Saves now if anything changed (called when the page is hidden or unloaded). */
  flush(): Promise<void> {
    return this.#backend?.flush() ?? Promise.resolve();
  }

  /** What every agent session is made with: the page's approve() and onEvent (main.ts). */
  sessionOptions: Pick<ToolsOptions, 'approve' | 'onEvent' | 'permissions'> = {};

  /** A new agent session over the shared backend (it tracks which file versions it read), with a dialect's tools. */
  session(): Tools;
  session(dialect: DialectName): Tools<string>;
  session(dialect: DialectName = 'agentvfs'): Tools<string> {
    return createTools(this.backend, { ...this.sessionOptions, dialect });
  }

  /**
   * A subagent's session over a fork of the workspace, made with the same options as every agent
   * session: its writes are asked about and audited (onEvent) like the main agent's, so the
   * transcript shows their decisions too.
   */
  forkSession(fork: Backend): Tools {
    return createTools(fork, this.sessionOptions);
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The events of each committed change (backend.watch through the worker), in commit order. */
  onEvents(listener: (events: WatchEvent[]) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /** After reset() or restore(): every file was replaced at once (the files open in a view may be gone). */
  onReplace(listener: Listener): () => void {
    this.#replaceListeners.add(listener);
    return () => this.#replaceListeners.delete(listener);
  }

  onSaveStatus(listener: (s: SaveStatus) => void): () => void {
    this.#saveListeners.add(listener);
    return () => this.#saveListeners.delete(listener);
  }

  /** Call after anything that may have changed files; bursts of calls notify listeners once. */
  changed(): void {
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => {
      this.#pending = false;
      for (const listener of this.#listeners) listener();
    });
  }

  /** Back to the sample project: the whole state is replaced at once, and saved as one change (only the differences). */
  async reset(): Promise<void> {
    if (!this.#sample) throw new Error('The workspace has not started yet.');
    await this.backend.restore(this.#sample.slice());
    this.changed();
    for (const listener of this.#replaceListeners) listener();
  }

  async snapshot(): Promise<OwnedBytes> {
    return this.backend.snapshot();
  }

  /** Replaces every file with the snapshot's; throws VfsError ESNAPSHOT (state untouched) on bad bytes. */
  async restore(bytes: Uint8Array): Promise<void> {
    await this.backend.restore(bytes);
    this.changed();
    for (const listener of this.#replaceListeners) listener();
  }

  /** The whole tree, directories first, then by name (as ls returns them). */
  async tree(): Promise<TreeNode> {
    const root: TreeNode = await this.backend.stat('/');
    const walk = async (dir: TreeNode): Promise<void> => {
      dir.children = await this.backend.ls(dir.path);
      await Promise.all(dir.children.filter((c) => c.isDir).map(walk));
    };
    await walk(root);
    return root;
  }

  /** The store, watched: the status bar shows when a save starts, lands or fails. */
  #watch(store: WorkspaceStore): WorkspaceStore {
    return {
      name: store.name,
      readAll: () => store.readAll(),
      readLegacy: store.readLegacy?.bind(store),
      close: store.close?.bind(store),
      follow: store.follow?.bind(store),
      readKeys: store.readKeys?.bind(store),
      claim: store.claim?.bind(store),
      write: async (batch, options) => {
        this.#setStatus({ state: 'saving' });
        try {
          await store.write(batch, options);
        } catch (e) {
          this.#setStatus({ state: 'error', error: (e as Error).message });
          throw e;
        }
        const bytes = batch.puts.reduce((sum, [, value]) => sum + value.byteLength, 0);
        this.#setStatus({ state: 'saved', saves: this.#status.saves + 1, at: Date.now(), bytes, error: undefined });
      },
    };
  }

  // This tab followed another and now writes (backend.whenWritable).
  #tookOver(): void {
    if (this.#status.state === 'following') this.#setStatus({ state: 'idle' });
    this.changed();
  }

  #setStatus(patch: Partial<SaveStatus>): void {
    this.#status = { ...this.#status, ...patch };
    for (const l of this.#saveListeners) l(this.#status);
  }
}

export function treeStats(node: TreeNode): Stats {
  if (!node.isDir) return { files: 1, folders: 0, bytes: node.size };
  const stats = { files: 0, folders: 0, bytes: 0 };
  for (const child of node.children ?? []) {
    const s = treeStats(child);
    stats.files += s.files;
    stats.folders += s.folders + (child.isDir ? 1 : 0);
    stats.bytes += s.bytes;
  }
  return stats;
}
