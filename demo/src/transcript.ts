// Every tool call made on the page (console, scripted agent, model, large grep), with its
// arguments and the exact result text the model sees. Each session's onEvent (agentvfs's
// audit trail, docs/approval.md) gives a call its outcome: duration, the files it wrote,
// the person's decision. The whole transcript exports as JSON Lines.
//
// The checkpoint timeline (timeline.ts) subscribes with onEntry: it takes a checkpoint after
// each mutating call (isMutation) and after each event that carries a `checkpoint` label.
import type { Decision, FileChange, ToolEvent, Tools, VfsErrorCode } from 'agentvfs';

export type Source = 'console' | 'agent' | 'model' | 'large grep' | 'subagent';

export interface CallEntry {
  kind: 'call';
  id: number;
  source: Source;
  tool: string;
  args: Record<string, unknown>;
  /** What the agent meant to do (scripted agent / model text), shown above the call. */
  note?: string;
  result: string;
  ms: number;
  ok: boolean;
  at: number;
  /** From the call's audit event: its number in the session, failure code, files written, the person's decision. */
  seq?: number;
  code?: VfsErrorCode;
  changed?: FileChange[];
  decision?: Decision;
}

export interface EventEntry {
  kind: 'event';
  id: number;
  /** outside: a write from outside any agent session; workspace: Reset, upload, rollback… */
  source: Source | 'outside' | 'workspace';
  text: string;
  /** This event changed files: the timeline takes a checkpoint with this label. */
  checkpoint?: string;
  at: number;
}

export type Entry = CallEntry | EventEntry;

const MUTATING = new Set(['write_file', 'edit_file']);
/**
 * A call that wrote: write_file / edit_file, or any other tool whose audit event lists files it
 * wrote (the dialects' replace, str_replace_based_edit_tool, apply_patch…, whose names say nothing).
 */
export const isMutation = (e: Entry): e is CallEntry => e.kind === 'call' && e.ok && (MUTATING.has(e.tool) || (e.changed?.length ?? 0) > 0);

/** The file a call names: `path`, or Gemini CLI's `file_path` (undefined when it names none). */
export function pathArg(args: Record<string, unknown>): string | undefined {
  const path = args.path ?? args.file_path;
  return typeof path === 'string' ? path : undefined;
}

export class Transcript {
  readonly entries: Entry[] = [];
  #next = 1;
  // Audit events waiting for their call's entry, found by the call's arguments object.
  #events = new WeakMap<object, ToolEvent>();
  /** Whether a person is asked before writes (main.ts): an "allow" no one gave is not shown as theirs. */
  personAsked: () => boolean = () => true;

  /** The onEvent every agent session of the page is made with. */
  readonly onEvent = (event: ToolEvent): void => {
    if (typeof event.args === 'object' && event.args !== null) this.#events.set(event.args, event);
  };

  /** The transcript as JSON Lines: one entry (call or event) per line. */
  toJsonLines(): string {
    return this.entries.map((e) => `${JSON.stringify(e)}\n`).join('');
  }
  #listeners = new Set<(entry: Entry | null) => void>();

  /** Listener gets each new entry, or null when the entries were replaced (cleared, or a clear undone): read `entries` again. */
  onEntry(listener: (entry: Entry | null) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  event(source: EventEntry['source'], text: string, checkpoint?: string): EventEntry {
    const entry: EventEntry = { kind: 'event', id: this.#next++, source, text, at: Date.now() };
    if (checkpoint) entry.checkpoint = checkpoint;
    return this.#push(entry);
  }

  /** Empties the transcript; returns what it held, for `restore` (the Undo of Clear). */
  clear(): Entry[] {
    const removed = this.entries.splice(0);
    for (const l of this.#listeners) l(null);
    return removed;
  }

  /** Puts cleared entries back, before any recorded since (theirs are the lower ids). */
  restore(entries: readonly Entry[]): void {
    this.entries.unshift(...entries);
    for (const l of this.#listeners) l(null);
  }

  /** Runs a tool through `tools` and records it (`signal`: the run's Stop). Never rejects for tool-level failures. */
  async call(tools: Tools<string>, source: Source, tool: string, args: Record<string, unknown>, note?: string, signal?: AbortSignal): Promise<CallEntry> {
    const started = performance.now();
    let result: string;
    let ok = false;
    try {
      const run = await tools.run(tool, args, { signal });
      result = run.text;
      ok = !run.isError;
    } catch (e) {
      // Only a dead worker gets here (tools never throw for tool-level failures).
      result = `Error: ${(e as Error).message}`;
    }
    const event = this.#events.get(args);
    this.#events.delete(args);
    const entry: CallEntry = { kind: 'call', id: this.#next++, source, tool, args, result, ms: event?.ms ?? performance.now() - started, ok, at: Date.now() };
    if (note) entry.note = note;
    if (event) {
      entry.ok = event.ok;
      entry.seq = event.seq;
      entry.changed = event.changed;
      if (event.code) entry.code = event.code;
      if (event.decision && (event.decision !== 'allow' || this.personAsked())) entry.decision = event.decision;
    }
    return this.#push(entry);
  }

  #push<T extends Entry>(entry: T): T {
    this.entries.push(entry);
    for (const l of this.#listeners) l(entry);
    return entry;
  }
}
