/**
 * The one module that imports memfs. It stores bytes and the directory tree;
 * everything the contract adds (versions, clock, limits, errors) lives above
 * it, so swapping the storage engine touches only this file.
 *
 * It uses memfs's in-memory core directly: its i-nodes (`Node`, which own the
 * bytes) and directory entries (`Link`), from `@jsonjoy.com/fs-core`, the
 * package memfs 4 keeps its storage in. memfs's `Volume` (the Node `fs` API on
 * top: file descriptors, streams, watchers, path parsing on every call) is not
 * used: it tripled the bundle and cost most of the time of a bulk load or a
 * restore. A path-to-entry map makes every lookup O(1).
 *
 * Callers pass normalized absolute paths and have already checked that the
 * operation is valid, so a missing entry here is a bug, not user input.
 */
import { Buffer as MemfsBuffer } from '@jsonjoy.com/fs-node-builtins/lib/internal/buffer';
import { Link } from '@jsonjoy.com/fs-core/lib/Link';
import { Node } from '@jsonjoy.com/fs-core/lib/Node';
import type { Superblock } from '@jsonjoy.com/fs-core/lib/Superblock';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

// memfs gives every node four Date objects and an event fan-out, and every directory entry
// a fan-out and a children Map. agentvfs never reads them (the tree keeps its own times) and
// nothing subscribes, yet for a file they are about 9 of its 16 heap objects, and garbage
// collection of those was most of a bulk load's time (a 42,000-file tree: 110 MB of heap
// before, 66 MB after). So every entry shares one fan-out (no listeners) and one Date (never
// mutated: memfs replaces times, never sets them), and every file one children map, which
// refuses writes (a file has no children).
const EPOCH = new Date(0);
class NoChildren extends Map<string, Link | undefined> {
  override set(): this {
    throw new Error('agentvfs storage: a file entry cannot have children');
  }
}
const NO_CHILDREN = new NoChildren();
let sharedFanOut: Node['changes'] | undefined;

interface MemfsNodeFields {
  changes: Node['changes'];
  _atime: Date;
  _mtime: Date;
  _ctime: Date;
  _btime: Date;
}

/** Points a node's times and fan-out at the shared ones (see above). */
function slimNode(node: Node): void {
  const n = node as unknown as MemfsNodeFields;
  sharedFanOut ??= n.changes;
  n.changes = sharedFanOut;
  n._atime = n._mtime = n._ctime = n._btime = EPOCH;
}

// A Link only asks its volume to make a node when none is given; every node here is made by this store.
const NO_VOLUME = undefined as unknown as Superblock;

export class MemfsStore {
  #nextIno = 1;
  readonly #links = new Map<string, Link>();

  constructor() {
    const root = new Link(NO_VOLUME, undefined, '');
    root.setNode(this.#node(S_IFDIR | 0o777));
    root.children.set('.', root);
    this.#links.set('/', root);
  }

  #node(mode: number): Node {
    return new Node(this.#nextIno++, mode, 0, 0);
  }

  #link(path: string): Link {
    const link = this.#links.get(path);
    if (link === undefined) throw new Error(`agentvfs storage: no entry at ${path}`);
    return link;
  }

  /** The entry's parent link and its name in it. */
  #place(path: string): [Link, string] {
    const slash = path.lastIndexOf('/');
    return [this.#link(slash === 0 ? '/' : path.slice(0, slash)), path.slice(slash + 1)];
  }

  /** A fresh copy of the file's bytes (its own ArrayBuffer), safe to hand out or transfer. */
  read(path: string): Uint8Array {
    // Not .slice(): on a Node Buffer it shares memory. This copies into a plain Uint8Array.
    return new Uint8Array(this.view(path));
  }

  /**
   * Bytes of a file without copying, for reading right away: the caller must
   * not keep them past the next mutation, nor modify them. (memfs's public
   * `getBuffer()` copies and stamps the access time on every read.)
   */
  view(path: string): Uint8Array {
    const node = this.#link(path).getNode();
    const buf = node.buf;
    // A plain Uint8Array view: cheaper to make than a Buffer's subarray, and the same to read.
    return new Uint8Array(buf.buffer, buf.byteOffset, node.getSize());
  }

  /** Writes a file whose parent directory exists: memfs copies the bytes once, so the caller may reuse them. */
  write(path: string, bytes: Uint8Array): void {
    // A Buffer view of the bytes (no copy) also re-views arrays from another realm.
    const node = this.#fileNode(path);
    node.setBuffer(MemfsBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    slimNode(node); // setBuffer stamped new times
  }

  /** The node of the file at `path`, created empty (with its directory entry) if missing. */
  #fileNode(path: string): Node {
    const existing = this.#links.get(path);
    if (existing !== undefined) return existing.getNode();
    const node = this.#node(S_IFREG | 0o666);
    this.#attach(path, node).children = NO_CHILDREN;
    return node;
  }

  /** Makes `node` the entry at `path` (whose parent exists), with the shared times and fan-out. */
  #attach(path: string, node: Node): Link {
    const [parent, name] = this.#place(path);
    const link = parent.createChild(name, node);
    slimNode(node);
    slimNode(parent.getNode()); // createChild stamped the directory's times
    (link as unknown as { changes: unknown }).changes = sharedFanOut;
    this.#links.set(path, link);
    return link;
  }

  /** Creates one directory whose parent exists. */
  mkdir(path: string): void {
    this.#attach(path, this.#node(S_IFDIR | 0o777));
  }

  /** Child names of a directory, unsorted. */
  list(path: string): string[] {
    const names: string[] = [];
    for (const name of this.#link(path).children.keys()) if (name !== '.' && name !== '..') names.push(name);
    return names;
  }

  /** Removes a file, or a directory and everything under it. */
  remove(path: string): void {
    const link = this.#link(path);
    link.parent!.deleteChild(link);
    this.#forget(path, link);
  }

  /** Moves a file or directory; the destination must not exist and its parent must. */
  rename(from: string, to: string): void {
    const link = this.#link(from);
    const [parent, name] = this.#place(to);
    link.parent!.deleteChild(link);
    this.#forget(from, link);
    link.name = name;
    parent.setChild(name, link);
    link.syncSteps();
    this.#remember(to, link);
  }

  /** Drops `path` and everything beneath it from the lookup map. */
  #forget(path: string, link: Link): void {
    this.#links.delete(path);
    for (const [name, child] of link.children) {
      if (name !== '.' && name !== '..' && child !== undefined) this.#forget(`${path}/${name}`, child);
    }
  }

  #remember(path: string, link: Link): void {
    this.#links.set(path, link);
    for (const [name, child] of link.children) {
      if (name !== '.' && name !== '..' && child !== undefined) this.#remember(`${path}/${name}`, child);
    }
  }
}
