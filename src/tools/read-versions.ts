/**
 * The file versions one tool session has read or written. Not only the latest: a rollback
 * brings back an earlier version with its version number, and a session that saw that
 * content may edit it again without re-reading (a version number is never reused).
 */
import type { Backend } from '../backend/types.ts';
import { VfsError } from '../errors.ts';

// Versions kept per path; older ones are forgotten (a rollback past them needs a re-read).
const KEEP = 256;

export class ReadVersions {
  readonly #seen = new Map<string, number[]>();
  // Files a person rewrote when approving this session's change, not read since (see forget).
  readonly #unseen = new Set<string>();

  // For retriedAfterOwnWrites, on one counter: when this session last learned each file's
  // version (a read, a refusal that showed it, a write) and which versions its calls wrote.
  #seq = 0;
  readonly #learned = new Map<string, { version: number; seq: number }[]>();
  readonly #written = new Map<string, { version: number; seq: number }[]>();

  /** The counter `ownWritesOnlySince` compares with. */
  get seq(): number {
    return this.#seq;
  }

  /** One call of this session wrote these files (its `changed`). */
  recordWrites(changed: readonly { path: string; version: number }[]): void {
    this.#seq++;
    for (const c of changed) remember(this.#written, c.path, { version: c.version, seq: this.#seq });
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

  /** This session read or wrote `version` of `path`. */
  add(path: string, version: number): void {
    remember(this.#learned, path, { version, seq: ++this.#seq });
    this.#unseen.delete(path);
    const list = this.#seen.get(path);
    if (list === undefined) {
      this.#seen.set(path, [version]);
      return;
    }
    if (list[list.length - 1] === version) return;
    const at = list.indexOf(version);
    if (at !== -1) list.splice(at, 1);
    list.push(version);
    if (list.length > KEEP) list.shift();
  }

  /**
   * This session must read `path` again before writing it (a person put other content there, SPEC
   * §10): tools that need a read find none, and tools that need none refuse (`refuseUnseen`).
   */
  forget(path: string): void {
    this.#seen.delete(path);
    this.#unseen.add(path);
  }

  /** The session moved `from` to `to`: what it had not read there, it has not read here. */
  moved(from: string, to: string): void {
    if (this.#unseen.delete(from)) this.#unseen.add(to);
    else this.#unseen.delete(to);
  }

  /** ESTALE when a person rewrote `path` for this session and it has not read it since. */
  refuseUnseen(path: string): void {
    if (!this.#unseen.has(path)) return;
    throw new VfsError(
      'ESTALE',
      `${path} holds the content the user gave when approving your last change to it, which you have not read. It is unchanged by this call. Read it with read_file before editing it again.`,
      { path },
    );
  }

  /** Whether a person rewrote `path` for this session and it has not read it since. */
  unseen(path: string): boolean {
    return this.#unseen.has(path);
  }

  /**
   * The version a write or edit of `path` must find (undefined: never read): the file's current
   * version when this session has seen it, else the latest one it saw, which the backend then
   * refuses as stale.
   */
  async expected(backend: Backend, path: string): Promise<number | undefined> {
    const list = this.#seen.get(path);
    if (list === undefined) return undefined;
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
}

function remember(log: Map<string, { version: number; seq: number }[]>, path: string, entry: { version: number; seq: number }): void {
  const list = log.get(path);
  if (list === undefined) log.set(path, [entry]);
  else if (list.push(entry) > KEEP) list.shift();
}
