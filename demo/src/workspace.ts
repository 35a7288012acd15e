// The one backend of the page: it lives in a Web Worker (agentvfs/client), starts with
// the sample project, and tells listeners when its files may have changed.
//
// Persistence (IndexedDB, from the Snapshots issue) plugs in here: in `start()`, wrap the
// worker backend with agentvfs/persist's openPersistent(backend, createIndexedDBAdapter())
// and seed the sample only when nothing was saved (see demo/README.md).
import { createTools, type FileInfo, type Tools } from 'agentvfs';
import { createWorkerBackend, type RemoteBackend } from 'agentvfs/client';
import { SAMPLE_PROJECT } from './sample-project.ts';

export interface TreeNode extends FileInfo {
  children?: TreeNode[];
}

export interface Stats {
  files: number;
  bytes: number;
}

type Listener = () => void;

export class Workspace {
  readonly backend: RemoteBackend;
  #listeners = new Set<Listener>();
  #pending = false;
  #sample: Uint8Array | null = null;

  constructor() {
    this.backend = createWorkerBackend({ files: SAMPLE_PROJECT });
  }

  /** Resolves when the worker answered; keeps a snapshot of the sample project for Reset. */
  async start(): Promise<void> {
    await this.backend.ready;
    this.#sample = await this.backend.snapshot();
  }

  /** A new agent session over the shared backend (it tracks which file versions it read). */
  session(): Tools {
    return createTools(this.backend);
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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

  /** Back to the sample project (the whole state is replaced at once). */
  async reset(): Promise<void> {
    if (!this.#sample) throw new Error('The workspace has not started yet.');
    await this.backend.restore(this.#sample.slice());
    this.changed();
  }

  async snapshot(): Promise<Uint8Array> {
    return this.backend.snapshot();
  }

  /** Replaces every file with the snapshot's; throws VfsError ESNAPSHOT (state untouched) on bad bytes. */
  async restore(bytes: Uint8Array): Promise<void> {
    await this.backend.restore(bytes);
    this.changed();
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
}

export function treeStats(node: TreeNode): Stats {
  if (!node.isDir) return { files: 1, bytes: node.size };
  const stats = { files: 0, bytes: 0 };
  for (const child of node.children ?? []) {
    const s = treeStats(child);
    stats.files += s.files;
    stats.bytes += s.bytes;
  }
  return stats;
}
