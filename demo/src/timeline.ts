// The checkpoint timeline: a checkpoint (backend.checkpoint, in the worker) after every
// successful call that wrote (any dialect's tools: isMutation), after every event that changed files (Reset, upload,
// a teammate's save, the large-grep corpus), at start, and on demand. Rolling back
// returns the whole workspace to one of them; the others are kept (you can roll forward).
//
// Checkpoints live in the worker's memory: they are not saved, so a reload starts a new
// timeline (the files themselves come back from IndexedDB).
import type { CheckpointInfo } from 'agentvfs';
import { isMutation, pathArg, type CallEntry, type Entry, type Transcript } from './transcript.ts';
import type { Workspace } from './workspace.ts';

export interface Checkpoint extends CheckpointInfo {
  /** Who caused it: the tool call's source, or 'workspace' / 'outside' / 'start' / 'you'. */
  source: string;
  /** The transcript entry that caused it, if any. */
  entryId?: number;
}

export class Timeline {
  #items: Checkpoint[] = [];
  #meta = new Map<string, { source: string; entryId?: number }>();
  /** The checkpoint the files currently descend from (the last one taken or rolled back to). */
  #head: string | null = null;
  #listeners = new Set<() => void>();
  /** Checkpoints are taken in call order: each waits for the one before it. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private ws: Workspace,
    transcript: Transcript,
  ) {
    transcript.onEntry((entry) => entry && this.#fromEntry(entry));
  }

  get items(): readonly Checkpoint[] {
    return this.#items;
  }

  get head(): string | null {
    return this.#head;
  }

  get(id: string): Checkpoint | undefined {
    return this.#items.find((c) => c.id === id);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Takes a checkpoint of the current files. The request is sent to the worker at once (before
   * any later call), so it captures exactly the state after the change that asked for it.
   */
  take(label: string, source: string, entryId?: number): Promise<Checkpoint> {
    const sent = this.ws.backend.checkpoint(label);
    const done = this.#queue.then(async () => {
      const id = await sent;
      this.#meta.set(id, entryId === undefined ? { source } : { source, entryId });
      this.#head = id;
      await this.#reload();
      return this.get(id)!;
    });
    this.#queue = done.catch(() => {});
    return done;
  }

  /** Returns every file to checkpoint `id` (one atomic replace in the worker; saved to IndexedDB). */
  async rollback(id: string): Promise<Checkpoint> {
    await this.#queue;
    const target = this.get(id);
    if (!target) throw new Error(`No checkpoint ${id}.`);
    await this.ws.backend.rollback(id);
    this.#head = id;
    this.ws.changed();
    this.#emit();
    return target;
  }

  /** The checkpoints the current files contain: the head and its ancestors. */
  history(): Set<string> {
    const byId = new Map(this.#items.map((c) => [c.id, c]));
    const out = new Set<string>();
    for (let c = this.#head ? byId.get(this.#head) : undefined; c && !out.has(c.id); c = c.parent ? byId.get(c.parent) : undefined) out.add(c.id);
    return out;
  }

  /** Transcript entries whose changes are not in the current files (rolled back past them). */
  undoneEntries(): Set<number> {
    const kept = this.history();
    const out = new Set<number>();
    for (const c of this.#items) if (c.entryId !== undefined && !kept.has(c.id)) out.add(c.entryId);
    return out;
  }

  #fromEntry(entry: Entry): void {
    // A subagent writes in its fork, not in the workspace: its merge takes the checkpoint.
    if (isMutation(entry) && entry.source !== 'subagent') {
      void this.take(label(entry), entry.source, entry.id);
    } else if (entry.kind === 'event' && entry.checkpoint) {
      void this.take(entry.checkpoint, entry.source, entry.id);
    }
  }

  async #reload(): Promise<void> {
    const list = await this.ws.backend.listCheckpoints();
    this.#items = list.map((c) => ({ ...c, ...(this.#meta.get(c.id) ?? { source: 'you' }) }));
    this.#emit();
  }

  #emit(): void {
    for (const l of this.#listeners) l();
  }
}

/** A call's checkpoint label: the tool and the file it names, else what it wrote (a patch names its files inside). */
function label(entry: CallEntry): string {
  const written = entry.changed ?? [];
  const target = pathArg(entry.args) ?? (written.length === 1 ? written[0]!.path : written.length > 1 ? `${written.length} files` : undefined);
  return target === undefined ? entry.tool : `${entry.tool} ${target}`;
}
