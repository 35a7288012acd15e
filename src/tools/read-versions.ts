/**
 * The file versions one tool session has read or written. Not only the latest: a rollback
 * brings back an earlier version with its version number, and a session that saw that
 * content may edit it again without re-reading (a version number is never reused).
 */
import type { Backend } from '../backend/types.ts';

// Versions kept per path; older ones are forgotten (a rollback past them needs a re-read).
const KEEP = 256;

export class ReadVersions {
  readonly #seen = new Map<string, number[]>();

  /** This session read or wrote `version` of `path`. */
  add(path: string, version: number): void {
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

  /** This session must read `path` again before writing it (a person put other content there). */
  forget(path: string): void {
    this.#seen.delete(path);
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
