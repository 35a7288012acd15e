/**
 * The one module that imports memfs. It stores bytes and the directory tree;
 * everything the contract adds (versions, clock, limits, errors) lives above
 * it, so swapping the storage engine touches only this file.
 *
 * Callers pass normalized absolute paths and have already checked that the
 * operation is valid, so a memfs error here is a bug, not user input.
 */
import { Buffer as MemfsBuffer } from '@jsonjoy.com/fs-node-builtins/lib/internal/buffer';
import { Volume } from 'memfs';

export type NodeKind = 'file' | 'dir';

// The part of memfs's (pinned, bundled) internals that view() reads.
interface MemfsInternals {
  _core?: { getResolvedLink?(path: string): { getNode?(): { buf: unknown; size: unknown } } | null };
}

export class MemfsStore {
  #vol = new Volume();

  kind(path: string): NodeKind | null {
    const stats = this.#vol.statSync(path, { throwIfNoEntry: false });
    if (!stats) return null;
    return stats.isDirectory() ? 'dir' : 'file';
  }

  size(path: string): number {
    return Number(this.#vol.statSync(path).size);
  }

  /** A fresh copy of the file's bytes (its own ArrayBuffer), safe to hand out or transfer. */
  read(path: string): Uint8Array {
    // Not .slice(): on a Node Buffer it shares memory. This copies into a plain Uint8Array.
    return new Uint8Array(this.view(path));
  }

  /**
   * Bytes of a file without copying, for reading right away: the caller must
   * not keep them past the next mutation, nor modify them. Reads memfs's own
   * buffer (memfs's public read API copies, twice through its Buffer layer);
   * falls back to that API if memfs's internals ever differ.
   */
  view(path: string): Uint8Array {
    const node = (this.#vol as unknown as MemfsInternals)._core?.getResolvedLink?.(path)?.getNode?.();
    if (node && node.buf instanceof Uint8Array && typeof node.size === 'number') return node.buf.subarray(0, node.size);
    return this.#vol.readFileSync(path) as Uint8Array;
  }

  /** Writes a file whose parent directory exists. */
  write(path: string, bytes: Uint8Array): void {
    // memfs copies the bytes into the file once, and a second time unless it is handed its own Buffer
    // type: so hand it a Buffer view of them (no copy). This also re-views arrays from another realm.
    this.#vol.writeFileSync(path, MemfsBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** Creates one directory whose parent exists. */
  mkdir(path: string): void {
    this.#vol.mkdirSync(path);
  }

  /** Child names of a directory, unsorted. */
  list(path: string): string[] {
    return this.#vol.readdirSync(path) as string[];
  }

  /** Removes a file, or a directory and everything under it. */
  remove(path: string): void {
    this.#vol.rmSync(path, { recursive: true, force: false });
  }

  /** Moves a file or directory; the destination must not exist and its parent must. */
  rename(from: string, to: string): void {
    this.#vol.renameSync(from, to);
  }

  /** Drops every file and directory. */
  clear(): void {
    this.#vol.reset();
  }
}
