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

  // What this session's calls wrote (each file's last version) and which files a refusal showed,
  // with when, on one counter (see retriedAfterOwnWrites).
  #seq = 0;
  readonly #written = new Map<string, { version: number; seq: number }>();
  readonly #shown = new Map<string, number>();

  /** The counter `wroteSince` and `shownSince` compare with. */
  get seq(): number {
    return this.#seq;
  }

  /** One call of this session wrote these files (its `changed`). */
  recordWrites(changed: readonly { path: string; version: number }[]): void {
    this.#seq++;
    for (const c of changed) this.#written.set(c.path, { version: c.version, seq: this.#seq });
  }

  /** Whether a call of this session that finished after `seq` was taken left `path` at `version`. */
  wroteSince(path: string, version: number, seq: number): boolean {
    const w = this.#written.get(path);
    return w !== undefined && w.version === version && w.seq > seq;
  }

  /** A refusal showed the model `version` of `path`, which counts as reading it (apply_patch's ESTALE). */
  shownOnRefusal(path: string, version: number): void {
    this.add(path, version);
    this.#shown.set(path, ++this.#seq);
  }

  /** Whether a refusal has shown `path` since `seq` was taken (a write since may rest on that read). */
  shownSince(path: string, seq: number): boolean {
    return (this.#shown.get(path) ?? 0) > seq;
  }

  /** This session read or wrote `version` of `path`. */
  add(path: string, version: number): void {
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
