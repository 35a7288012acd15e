/**
 * The file versions one tool session has read or written. Not only the latest: a rollback
 * brings back an earlier version with its version number, and a session that saw that
 * content may edit it again without re-reading (a version number is never reused).
 *
 * A call counts only what the model could have seen when it made the call (SPEC §10: a write
 * needs a read of the current version): what calls answered before it learned, what it learns
 * itself, and what the session's own calls wrote. A read_file made in the same turn as a
 * write_file (parallel calls) has not been seen by whoever wrote that write_file's content.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import type { Backend } from '../backend/types.ts';
import { VfsError } from '../errors.ts';

// Versions kept per path; older ones are forgotten (a rollback past them needs a re-read).
const KEEP = 256;
// Calls kept per version that learned it (a version read by many calls).
const LEARNED_BY_KEPT = 16;

/**
 * Which call of a session this is, numbered where the calls are made (createTools), so it holds
 * wherever they run: `n`, numbered in the order calls start, and the calls still unanswered then.
 */
export interface CallContext {
  readonly n: number;
  readonly unanswered: readonly number[];
  /** The caller's cancellation (RunOptions), where the call was made: it does not cross to a worker. */
  readonly signal?: AbortSignalLike;
}

/**
 * What a wrapper passes on with a call: its number, or (not numbered yet) the caller's
 * RunOptions and the turn it belongs to, when the host knows it: calls of one turn (one model
 * response) never count each other's reads, even when the host runs them one after another
 * (the AI SDK's toolCallConcurrency: 1).
 */
export type CallTag = CallContext | { readonly turn?: object; readonly signal?: AbortSignalLike };

/** `tag` when it is a numbered call. */
export function numberedCall(tag: CallTag | undefined): CallContext | undefined {
  return typeof tag === 'object' && tag !== null && 'n' in tag ? tag : undefined;
}

// The calls createTools numbered (or a worker took from its client): the only tags a tool set
// takes as numbered where a caller's options may arrive too, so `{ n: 1 }` from a caller is refused.
const numbered = new WeakSet<object>();

/** `call`, marked as a numbered call made by agentvfs (see isNumberedCall). */
export function markNumbered(call: CallContext): CallContext {
  numbered.add(call);
  return call;
}

/** Whether `tag` is a call agentvfs numbered, not options a caller passed. */
export function isNumberedCall(tag: unknown): tag is CallContext {
  return typeof tag === 'object' && tag !== null && numbered.has(tag);
}

/** A learned version, with the call that learned it (undefined: no call context). */
interface Learned {
  readonly version: number;
  readonly seq: number;
  readonly by: number | undefined;
}

/** What one call's handlers use of the session's read tracking (see ReadVersions.forCall). */
export interface CallReads {
  /** The call's number (undefined: no call context). */
  readonly n?: number;
  /** This call read or wrote `version` of `path`. */
  add(path: string, version: number): void;
  /** This call moved `from` to `to`. */
  moved(from: string, to: string): void;
  refuseUnseen(path: string): void;
  unseen(path: string): boolean;
  expected(backend: Backend, path: string): Promise<number | undefined>;
  /** Whether a call made beside this one (not answered when it was made) learned of `path` what this one does not count. */
  learnedBeside(path: string): boolean;
  /** Whether this call wrote `version` of `path` with content it knows (not a person's, not a file it moved unseen). */
  wrote(path: string, version: number): boolean;
}

export class ReadVersions implements CallReads {
  readonly #seen = new Map<string, number[]>();
  // For each version in #seen, the calls that learned it (the first few and the latest).
  readonly #seenBy = new Map<string, Map<number, (number | undefined)[]>>();
  // Files a person rewrote when approving this session's change, not read since (see forget),
  // and for the others, the read that cleared that mark.
  readonly #unseen = new Set<string>();
  readonly #seenAgain = new Map<string, Learned>();

  // For retriedAfterOwnWrites, on one counter: when this session last learned each file's
  // version (a read, a refusal that showed it, a write) and which versions its calls wrote.
  #seq = 0;
  readonly #learned = new Map<string, Learned[]>();
  readonly #written = new Map<string, { version: number; seq: number; by: number | undefined }[]>();
  // The calls that may write running now (retriedAfterOwnWrites marks them): a later one may have written without being recorded yet.
  readonly #writing = new Set<number>();

  /** The counter `ownWritesOnlySince` compares with. */
  get seq(): number {
    return this.#seq;
  }

  /** One call of this session wrote these files (its `changed`): those whose content it knows count as the session's own writes. */
  recordWrites(changed: readonly { path: string; version: number }[], by: CallReads): void {
    this.#seq++;
    for (const c of changed) if (by.wrote(c.path, c.version)) remember(this.#written, c.path, { version: c.version, seq: this.#seq, by: by.n });
  }

  /**
   * Whether the session knew nothing of `path` when `seq` was taken (no read, no write, no person's
   * content): a call refused as stale then was refused only for what it learned while it ran.
   */
  knewNothingBefore(path: string, seq: number): boolean {
    return !this.#unseen.has(path) && !(this.#learned.get(path) ?? []).some((l) => l.seq <= seq);
  }

  /**
   * Call `n` is run again from the start (it changed nothing): what it learned of `path` after
   * `seq` is forgotten, so a version it read that is gone now does not make it stale.
   */
  forgetAttempt(path: string, seq: number, n: number): void {
    const learned = this.#learned.get(path) ?? [];
    const dropped = learned.filter((l) => l.seq > seq && l.by === n);
    if (dropped.length === 0) return;
    this.#learned.set(
      path,
      learned.filter((l) => !dropped.includes(l)),
    );
    const versions = this.#seenBy.get(path);
    const written = new Set((this.#written.get(path) ?? []).map((w) => w.version));
    for (const { version } of dropped) {
      const calls = versions?.get(version)?.filter((by) => by !== n) ?? [];
      if (calls.length > 0 || written.has(version)) {
        versions?.set(version, calls);
        continue;
      }
      versions?.delete(version);
      const list = (this.#seen.get(path) ?? []).filter((v) => v !== version);
      if (list.length > 0) this.#seen.set(path, list);
      else this.#seen.delete(path);
    }
  }

  writing(n: number, yes: boolean): void {
    if (yes) this.#writing.add(n);
    else this.#writing.delete(n);
  }

  /** Whether a call made after call `n` that may write is still running (its write may not be recorded yet). */
  laterWriterRunning(n: number): boolean {
    for (const m of this.#writing) if (m > n) return true;
    return false;
  }

  /**
   * Whether a call made after call `n` wrote `path` after `seq`: running call `n` again would
   * put its change over that one's, the reverse of the order the model made them in.
   */
  laterCallWroteSince(path: string, seq: number, n: number): boolean {
    return (this.#written.get(path) ?? []).some((w) => w.seq > seq && w.by !== undefined && w.by > n);
  }

  /**
   * Whether `path` is at `version` because a call of this session, finished after `seq` was taken,
   * wrote it, and all the session learned of `path` since then is what its calls wrote or what it
   * knew already: no read of a new version, and no refusal showing one, that such a write may rest on.
   */
  ownWritesOnlySince(path: string, version: number, seq: number): boolean {
    const written = (this.#written.get(path) ?? []).filter((w) => w.seq > seq).map((w) => w.version);
    if (!written.includes(version)) return false;
    const learned = this.#learned.get(path) ?? [];
    const knewBefore = new Set(learned.filter((l) => l.seq <= seq).map((l) => l.version));
    return learned.every((l) => l.seq <= seq || written.includes(l.version) || knewBefore.has(l.version));
  }

  /** This session read or wrote `version` of `path` (in call `by`, when numbered). */
  add(path: string, version: number, by?: number): void {
    const learned: Learned = { version, seq: ++this.#seq, by };
    remember(this.#learned, path, learned);
    if (this.#unseen.delete(path)) this.#seenAgain.set(path, learned);
    this.#learnedBy(path, version, by);
    const list = this.#seen.get(path);
    if (list === undefined) {
      this.#seen.set(path, [version]);
      return;
    }
    if (list[list.length - 1] === version) return;
    const at = list.indexOf(version);
    if (at !== -1) list.splice(at, 1);
    list.push(version);
    if (list.length > KEEP) this.#seenBy.get(path)?.delete(list.shift()!);
  }

  #learnedBy(path: string, version: number, by: number | undefined): void {
    let versions = this.#seenBy.get(path);
    if (versions === undefined) this.#seenBy.set(path, (versions = new Map()));
    const calls = versions.get(version);
    if (calls === undefined) versions.set(version, [by]);
    else if (!calls.includes(by)) {
      // The first calls (long answered: they count for every later call) and the latest.
      if (calls.length === LEARNED_BY_KEPT) calls.pop();
      calls.push(by);
    }
  }

  /** Whether this session (no call context) wrote `version` of `path` knowing its content. */
  wrote(path: string, version: number): boolean {
    return !this.#unseen.has(path) && (this.#seen.get(path)?.includes(version) ?? false);
  }

  /**
   * This session must read `path` again before writing it (a person put other content there, SPEC
   * §10): tools that need a read find none, and tools that need none refuse (`refuseUnseen`).
   */
  forget(path: string): void {
    this.#seen.delete(path);
    this.#seenBy.delete(path);
    this.#unseen.add(path);
    this.#seenAgain.delete(path);
  }

  /** The session moved `from` to `to`: what it had not read there, it has not read here. */
  moved(from: string, to: string): void {
    const again = this.#seenAgain.get(from);
    this.#seenAgain.delete(from);
    this.#seenAgain.delete(to);
    if (this.#unseen.delete(from)) this.#unseen.add(to);
    else {
      this.#unseen.delete(to);
      if (again !== undefined) this.#seenAgain.set(to, again);
    }
  }

  /** ESTALE when a person rewrote `path` for this session and it has not read it since. */
  refuseUnseen(path: string): void {
    if (this.unseen(path)) refuseUnseenFile(path);
  }

  /** Whether a person rewrote `path` for this session and it has not read it since. */
  unseen(path: string): boolean {
    return this.#unseen.has(path);
  }

  /** (Outside a numbered call everything learned counts.) */
  learnedBeside(): boolean {
    return false;
  }

  /**
   * The version a write or edit of `path` must find (undefined: never read): the file's current
   * version when this session has seen it, else the latest one it saw, which the backend then
   * refuses as stale.
   */
  async expected(backend: Backend, path: string, known?: (version: number) => boolean): Promise<number | undefined> {
    const all = this.#seen.get(path);
    const list = known === undefined || all === undefined ? all : all.filter(known);
    if (list === undefined || list.length === 0) return undefined;
    const latest = list[list.length - 1]!;
    if (list.length === 1) return latest;
    let current: number;
    try {
      current = (await backend.stat(path)).version;
    } catch {
      return latest; // gone: the write reports that
    }
    return list.includes(current) ? current : latest;
  }

  /**
   * The tracking as a preview of a call sees it (Tools.preview): everything the session learned
   * counts, and what the previewed call learns as it runs stays with it: the session is unchanged.
   */
  forPreview(): CallReads {
    const learned = new Map<string, number>();
    const unseen = (path: string) => !learned.has(path) && this.unseen(path);
    return {
      add: (path, version) => void learned.set(path, version),
      moved: () => {},
      unseen,
      refuseUnseen: (path) => {
        if (unseen(path)) refuseUnseenFile(path);
      },
      expected: async (backend, path) => learned.get(path) ?? this.expected(backend, path),
      learnedBeside: () => false,
      wrote: () => false,
    };
  }

  /**
   * The tracking as call `call` sees it (see the top of this file): versions learned by calls
   * answered before it started, by itself, or written by the session count; a version only a
   * call still unanswered then read does not.
   */
  forCall(tag: CallTag | undefined, { wholeContent = false }: { wholeContent?: boolean } = {}): CallReads {
    const call = numberedCall(tag);
    if (call === undefined) return this;
    const unanswered = new Set(call.unanswered);
    const counts = (by: number | undefined): boolean => by === undefined || by === call.n || (by < call.n && !unanswered.has(by));
    // The session's own writes count, but for a call that carries a whole content not one made by a
    // later call: written over, that change would be lost (an edit or a patch lands on top of it).
    const ownWrite = (by: number | undefined) => !wholeContent || by === undefined || by <= call.n;
    const known = (path: string) => (version: number) =>
      (this.#seenBy.get(path)?.get(version) ?? []).some(counts) || (this.#written.get(path) ?? []).some((w) => w.version === version && ownWrite(w.by));
    const unseenBeside = (path: string) => !this.#unseen.has(path) && this.#seenAgain.has(path) && !counts(this.#seenAgain.get(path)!.by);
    const unseen = (path: string) => this.#unseen.has(path) || unseenBeside(path);
    return {
      n: call.n,
      add: (path, version) => this.add(path, version, call.n),
      moved: (from, to) => this.moved(from, to),
      unseen,
      refuseUnseen: (path) => {
        if (unseen(path)) refuseUnseenFile(path);
      },
      expected: (backend, path) => this.expected(backend, path, known(path)),
      learnedBeside: (path) => unseenBeside(path) || (this.#seen.get(path) ?? []).some((version) => !known(path)(version)),
      wrote: (path, version) => !unseen(path) && (this.#seenBy.get(path)?.get(version)?.includes(call.n) ?? false),
    };
  }
}

function refuseUnseenFile(path: string): never {
  throw new VfsError(
    'ESTALE',
    `${path} holds the content the user gave when approving your last change to it, which you have not read. It is unchanged by this call. Read it with read_file before editing it again.`,
    { path },
  );
}

function remember<T>(log: Map<string, T[]>, path: string, entry: T): void {
  const list = log.get(path);
  if (list === undefined) log.set(path, [entry]);
  else if (list.push(entry) > KEEP) list.shift();
}
