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
 *
 * Stored buffers are never changed in place: a write gives the file a new
 * buffer. So two stores may share one (a rollback does, see `adopt`).
 */
import { Buffer as MemfsBuffer } from '@jsonjoy.com/fs-node-builtins/lib/internal/buffer';
import { Link } from '@jsonjoy.com/fs-core/lib/Link';
import { Node } from '@jsonjoy.com/fs-core/lib/Node';
import { MIN_SHARED_BYTES, ownsBuffer, sharedBufferBytes } from '../bulk-buffers.ts';
import { baseName, isChildOf, parentOf } from '../paths.ts';
import type { OwnedBytes } from '../backend/types.ts';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

// Entries are memfs Nodes and Links made without memfs's constructors (`StoreNode`, `StoreLink`
// below: the same own fields in the same order, on memfs's prototypes, so every memfs method
// works on them). Each memfs constructor call made, per file, four Dates, two event fan-outs,
// a children Map and a path-steps array (built by concatenation) that agentvfs never reads: a
// bulk load spent more time making and collecting them than copying the bytes. Instead every
// entry shares one fan-out (nothing subscribes) and one Date (never mutated: memfs replaces
// times, never sets them), every file one children map (which refuses writes: a file has no
// children), and a link's path steps are derived from its path when asked for.
//
// This depends on the fields of memfs's Node and Link (pinned: memfs 4.80.1 /
// @jsonjoy.com/fs-core 4.80.1). src/storage/memfs-store.test.ts compares them with what
// memfs's own constructors make and fails if an upgrade changes them.
export const NODE_FIELDS = [
  'changes',
  '_uid',
  '_gid',
  '_atime',
  '_mtime',
  '_ctime',
  '_btime',
  'buf',
  'capacity',
  'size',
  'rdev',
  '_nlink',
  'mode',
  'ino',
] as const;
/** Link's own fields after `setNode`, except `_steps` (StoreLink derives steps; see `steps` below). */
export const LINK_FIELDS = ['changes', 'children', 'ino', 'length', 'vol', 'parent', 'name', 'node'] as const;

const EPOCH = new Date(0);
const EMPTY = MemfsBuffer.allocUnsafe(0);

class NoChildren extends Map<string, StoreLink | undefined> {
  override set(): this {
    throw new Error('agentvfs storage: a file entry cannot have children');
  }
}
const NO_CHILDREN = new NoChildren();
// memfs's fan-out class is not one of our dependencies: borrow one instance from a real Node.
let sharedFanOut: unknown;

/** A memfs Node (see above). */
class StoreNode {
  declare changes: unknown;
  declare _uid: number;
  declare _gid: number;
  declare _atime: Date;
  declare _mtime: Date;
  declare _ctime: Date;
  declare _btime: Date;
  declare buf: Uint8Array;
  declare capacity: number;
  declare size: number;
  declare rdev: number;
  declare _nlink: number;
  declare mode: number;
  declare ino: number;

  constructor(ino: number, mode: number, buf: Uint8Array) {
    // In NODE_FIELDS order, which is memfs's.
    this.changes = sharedFanOut;
    this._uid = 0;
    this._gid = 0;
    this._atime = EPOCH;
    this._mtime = EPOCH;
    this._ctime = EPOCH;
    this._btime = EPOCH;
    this.buf = buf;
    this.capacity = buf.length;
    this.size = buf.length;
    this.rdev = 0;
    this._nlink = 1;
    this.mode = mode;
    this.ino = ino;
  }
}
Object.setPrototypeOf(StoreNode.prototype, Node.prototype);

/** A memfs Link (see above), which also knows its own path. */
class StoreLink {
  declare changes: unknown;
  declare children: Map<string, StoreLink | undefined>;
  declare ino: number;
  declare length: number;
  declare vol: undefined;
  declare parent: StoreLink | undefined;
  declare name: string;
  declare node: StoreNode;
  /** Not memfs's: the normalized absolute path, the same string as this entry's key in the store. */
  declare path: string;

  constructor(parent: StoreLink | undefined, name: string, path: string, node: StoreNode, children: Map<string, StoreLink | undefined>) {
    // In LINK_FIELDS order, which is memfs's.
    this.changes = sharedFanOut;
    this.children = children;
    this.ino = node.ino;
    this.length = 0;
    this.vol = undefined; // memfs asks its volume only to make a node when none is given; every node here is made by the store
    this.parent = parent;
    this.name = name;
    this.node = node;
    this.path = path;
  }

  /** memfs's path steps (`['', 'a', 'b']` for `/a/b`), derived from the path instead of stored. */
  get steps(): string[] {
    return this.path === '/' ? [''] : this.path.split('/');
  }

  set steps(_steps: string[]) {
    // memfs's syncSteps() assigns them; here they always follow the path.
  }
}
Object.setPrototypeOf(StoreLink.prototype, Link.prototype);

const isDir = (link: StoreLink): boolean => link.children !== NO_CHILDREN;
/** Names in UTF-16 code unit order, as Array.prototype.sort() orders strings. */
const byName = (a: StoreLink, b: StoreLink): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A copy of `bytes` (from any realm) in a buffer of its own size, as memfs stores file content. */
function copyOf(bytes: Uint8Array): Uint8Array {
  const n = bytes.byteLength;
  if (n === 0) return EMPTY;
  const buf = MemfsBuffer.allocUnsafe(n);
  buf.set(bytes);
  return buf;
}

/**
 * Copies for a bulk write (an upload) laid out as bulk-buffers.ts says: a buffer per file, or from
 * 128 MiB on, a few shared buffers handed out in turn, all allocated up front (a copying load of
 * 1 GB in 164,000 files, with buffers made as it went, spent 2-4 s of 5-7 in garbage collection;
 * allocated together, they cost one collection, while the heap is still small).
 */
export class BulkCopy {
  readonly #chunks: Uint8Array[] = [];
  #chunk: Uint8Array = EMPTY;
  #used = 0;
  readonly #chunkBytes: number;

  /** `sizes`: the lengths of the files the write will copy (some may be refused and copy nothing). */
  constructor(sizes: readonly number[]) {
    let total = 0;
    for (const n of sizes) total += n;
    this.#chunkBytes = sharedBufferBytes(total);
    let shared = 0; // what goes into the shared buffers: files that are not big
    for (const n of sizes) if (!this.#big(n)) shared += n;
    for (let left = shared; left > 0; left -= this.#chunkBytes) this.#chunks.push(MemfsBuffer.allocUnsafe(Math.min(left, this.#chunkBytes)));
    this.#chunks.reverse(); // taken from the end
  }

  copy(bytes: Uint8Array): Uint8Array {
    const n = bytes.byteLength;
    if (n === 0) return EMPTY;
    if (this.#big(n)) return copyOf(bytes);
    if (this.#used + n > this.#chunk.length) {
      // The next buffer, or one more when files did not pack exactly into those made up front.
      this.#chunk = this.#chunks.pop() ?? MemfsBuffer.allocUnsafe(Math.max(n, MIN_SHARED_BYTES));
      this.#used = 0;
      if (n > this.#chunk.length) this.#chunk = MemfsBuffer.allocUnsafe(n);
    }
    const out = this.#chunk.subarray(this.#used, this.#used + n);
    out.set(bytes);
    this.#used += n;
    return out;
  }

  #big(n: number): boolean {
    return ownsBuffer(n, this.#chunkBytes);
  }
}

export class MemfsStore {
  #nextIno = 1;
  readonly #links = new Map<string, StoreLink>();
  // The directory the last entry went into. Bulk writes fill one directory after another, so
  // most new entries find their parent here without slicing and hashing its path.
  #lastDir: StoreLink | undefined;

  constructor() {
    if (sharedFanOut === undefined) {
      const real = new Node(0, S_IFDIR | 0o777, 0, 0);
      sharedFanOut = real.changes;
    }
    const root = new StoreLink(undefined, '', '/', new StoreNode(this.#nextIno++, S_IFDIR | 0o777, EMPTY), new Map());
    root.children.set('.', root);
    root.node._nlink++;
    this.#links.set('/', root);
  }

  #link(path: string): StoreLink {
    const link = this.#links.get(path);
    if (link === undefined) throw new Error(`agentvfs storage: no entry at ${path}`);
    return link;
  }

  /** A fresh copy of the file's bytes (its own ArrayBuffer), safe to hand out or transfer. */
  read(path: string): OwnedBytes {
    // Not .slice(): on a Node Buffer it shares memory. This copies into a plain Uint8Array.
    return new Uint8Array(this.view(path));
  }

  /**
   * Bytes of a file without copying, for reading right away: the caller must
   * not keep them past the next mutation, nor modify them. (memfs's public
   * `getBuffer()` copies and stamps the access time on every read.)
   */
  view(path: string): Uint8Array {
    const node = this.#link(path).node;
    const buf = node.buf;
    // A plain Uint8Array view: cheaper to make than a Buffer's subarray, and the same to read.
    return new Uint8Array(buf.buffer, buf.byteOffset, node.size);
  }

  /** Writes a file whose parent directory exists. The bytes are copied (by `bulk`, in a bulk write), so the caller may reuse them. */
  write(path: string, bytes: Uint8Array, bulk?: BulkCopy): void {
    this.#put(path, bulk === undefined ? copyOf(bytes) : bulk.copy(bytes));
  }

  /**
   * write(), keeping `bytes` instead of a copy: for bytes the caller made and hands over (text it
   * just encoded), which nobody else holds and nobody will change.
   */
  writeOwned(path: string, bytes: Uint8Array): void {
    this.#put(path, bytes.byteLength === 0 ? EMPTY : MemfsBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /**
   * Makes the file at `path` (whose parent directory exists) hold the same bytes as the file at
   * `path` in `from`, without copying them: both stores then share one buffer, which is safe
   * because stored buffers are never changed in place.
   */
  adopt(path: string, from: MemfsStore): void {
    const node = from.#link(path).node;
    this.#put(path, node.size === node.buf.length ? node.buf : node.buf.subarray(0, node.size));
  }

  /**
   * A store holding the same entries as this one, sharing every file's bytes (stored buffers
   * are never changed in place): the cost is one entry per path, no byte is copied.
   */
  clone(): MemfsStore {
    const copy = new MemfsStore();
    const visit = (dir: StoreLink): void => {
      for (const [name, link] of dir.children) {
        if (name === '.' || name === '..' || link === undefined) continue;
        if (isDir(link)) {
          copy.mkdir(link.path);
          visit(link);
        } else {
          const node = link.node;
          copy.#put(link.path, node.size === node.buf.length ? node.buf : node.buf.subarray(0, node.size));
        }
      }
    };
    visit(this.#link('/'));
    return copy;
  }

  #put(path: string, buf: Uint8Array): void {
    const existing = this.#links.get(path);
    if (existing === undefined) {
      this.#add(path, new StoreNode(this.#nextIno++, S_IFREG | 0o666, buf), NO_CHILDREN);
      return;
    }
    // What memfs's Node.setBuffer does, minus its copy and its fresh times.
    const node = existing.node;
    node.buf = buf;
    node.capacity = node.size = buf.length;
  }

  /** Creates one directory whose parent exists. */
  mkdir(path: string): void {
    this.#add(path, new StoreNode(this.#nextIno++, S_IFDIR | 0o777, EMPTY), new Map());
  }

  /** Makes `node` the entry at `path`, whose parent exists: what memfs's Link.createChild does, minus times and events. */
  #add(path: string, node: StoreNode, children: Map<string, StoreLink | undefined>): void {
    let parent = this.#lastDir;
    if (parent === undefined || !isChildOf(path, parent.path)) this.#lastDir = parent = this.#link(parentOf(path));
    const link = new StoreLink(parent, baseName(path), path, node, children);
    if (children !== NO_CHILDREN) {
      children.set('.', link);
      node._nlink++;
    }
    this.#attach(parent, link);
    this.#links.set(path, link);
  }

  /** Links `link` into `parent` under its name: memfs's Link.setChild, minus times and events. */
  #attach(parent: StoreLink, link: StoreLink): void {
    parent.children.set(link.name, link);
    link.parent = parent;
    parent.length++;
    if (isDir(link)) {
      link.children.set('..', parent);
      parent.node._nlink++;
    }
  }

  /** memfs's Link.deleteChild, minus times and events. */
  #detach(link: StoreLink): void {
    const parent = link.parent!;
    if (isDir(link)) {
      link.children.delete('..');
      parent.node._nlink--;
    }
    parent.children.delete(link.name);
    parent.length--;
  }

  /** The memfs objects behind `path`, for tests that check this store against memfs. */
  memfsEntry(path: string): { link: Link; node: Node } {
    const link = this.#link(path);
    return { link: link as unknown as Link, node: link.node as unknown as Node };
  }

  /** Child names of a directory, unsorted. */
  list(path: string): string[] {
    const names: string[] = [];
    for (const name of this.#link(path).children.keys()) if (name !== '.' && name !== '..') names.push(name);
    return names;
  }

  /**
   * Calls `visit` for every entry but the root, in path order (depth first, each directory's
   * names sorted), with a file's bytes (a view to read right away, as `view` gives) or
   * `undefined` for a directory. The paths are the ones the entries were stored under.
   */
  walk(visit: (path: string, content: Uint8Array | undefined) => void): void {
    const visitDir = (dir: StoreLink): void => {
      const links: StoreLink[] = [];
      for (const [name, link] of dir.children) if (name !== '.' && name !== '..') links.push(link!);
      links.sort(byName);
      for (let i = 0; i < links.length; i++) {
        const link = links[i]!;
        if (isDir(link)) {
          visit(link.path, undefined);
          visitDir(link);
        } else {
          const node = link.node;
          visit(link.path, node.size === node.buf.length ? node.buf : node.buf.subarray(0, node.size));
        }
      }
    };
    visitDir(this.#link('/'));
  }

  /** Removes a file, or a directory and everything under it. */
  remove(path: string): void {
    this.#lastDir = undefined;
    const link = this.#link(path);
    this.#detach(link);
    this.#forget(link);
  }

  /** Moves a file or directory; the destination must not exist and its parent must. */
  rename(from: string, to: string): void {
    this.#lastDir = undefined;
    const link = this.#link(from);
    const parent = this.#link(parentOf(to));
    this.#detach(link);
    this.#forget(link);
    link.name = baseName(to);
    this.#attach(parent, link);
    this.#remember(to, link);
  }

  /** Drops `link` and everything beneath it from the lookup map. */
  #forget(link: StoreLink): void {
    this.#links.delete(link.path);
    if (!isDir(link)) return;
    for (const [name, child] of link.children) if (name !== '.' && name !== '..' && child !== undefined) this.#forget(child);
  }

  /** Files `link` (and everything beneath it) under `path`. */
  #remember(path: string, link: StoreLink): void {
    link.path = path;
    this.#links.set(path, link);
    if (!isDir(link)) return;
    for (const [name, child] of link.children) {
      if (name !== '.' && name !== '..' && child !== undefined) this.#remember(`${path}/${name}`, child);
    }
  }
}
