/**
 * The synchronous heart of the backend: the directory tree, per-path metadata
 * (kind, size, version, mtime) and byte storage. Every mutation checks all of
 * its preconditions first and only then touches storage, so a refused call
 * changes nothing.
 */
import { counted } from '../counted.ts';
import { VfsError } from '../errors.ts';
import { formatBytes, type Limits, QUOTA_NEXT_STEP } from '../limits.ts';
import { ancestorsOf, baseName, clipped, comparePaths, isChildOf, isWithin, joinPath, parentOf } from '../paths.ts';
import type { SnapshotEntry } from '../snapshot/format.ts';
import { headOf } from '../text.ts';
import { type BulkCopy, MemfsStore } from '../storage/memfs-store.ts';
import { notFoundError, rememberAsMissing } from './not-found.ts';
import { isDirMessage, tooBigMessage, underFileMessage } from './refusals.ts';
import type { FileInfo, OwnedBytes } from './types.ts';
import type { WatchEvent } from './types.ts';

/** A path's metadata. Never changed once made (a change makes a new one): checkpoints share them. */
export interface Meta {
  kind: 'file' | 'dir';
  size: number;
  mtimeMs: number;
  version: number;
  /** Set on a file a rename moved (its bytes unchanged): the Meta they were written under (see contentKey). */
  movedFrom?: Meta;
}

/**
 * The identity of a file's bytes, for caches of what is derived from them (grep's filters):
 * stored bytes never change, a write gives a new Meta, a rename keeps the key, and a rollback
 * reuses the checkpoint's Meta, so one key always means the same bytes.
 */
export function contentKey(meta: Meta): Meta {
  return meta.movedFrom ?? meta;
}

/** Files at or beneath a path, in path order, with their metadata (`metas[i]` is `paths[i]`'s). */
export interface FileList {
  readonly paths: readonly string[];
  readonly metas: readonly Meta[];
  /** The whole list `metas` is a run of, from `offset` on: the tree keeps it until a file is created or removed (caches by position use it). */
  readonly all: readonly Meta[];
  readonly offset: number;
}

/** Told about every change, so checkpoints can keep what a mutation is about to drop. */
export interface TreeObserver {
  /** A file's current content is about to be replaced or dropped (while it is still readable). */
  retiring(path: string, meta: Meta, tree: Tree): void;
  /** A path was created, changed or removed. */
  changed(path: string): void;
}

export class Tree {
  #store = new MemfsStore();
  observer: TreeObserver | null = null;
  /** Where committed changes are recorded for watchers (null: nobody listens). */
  log: { pending: WatchEvent[] | null } | null = null;
  readonly #meta = new Map<string, Meta>();
  #totalBytes = 0;
  #fileCount = 0;
  #dirCount = 0; // the root not counted
  // Every file path in path order, kept until a file is created, removed or moved (searches reuse it).
  #sortedFiles: string[] | null = null;
  // Their metadata, in the same order: searches read it without a map lookup per file.
  #sortedMetas: Meta[] | null = null;
  // Files rewritten since #sortedMetas was made, whose entry there is old. A write records its
  // path instead of finding it by bisection (~5 us over long shared prefixes, a tenth of an
  // edit); the next search patches them, or rebuilds the list when that is cheaper.
  #staleMetas: string[] = [];
  // Shared by every tree of one backend (restore builds a new tree), so a version is never reused.
  readonly #versions: { next: number };
  // A directory that exists: the parent of the last file written (cleared by remove and rename).
  // Bulk writes fill one directory after another, so most writes find their parent here.
  #lastDir = '/';

  constructor(
    readonly limits: Limits,
    readonly now: () => number,
    versions: { next: number },
    withRoot = true,
  ) {
    this.#versions = versions;
    if (withRoot) this.#meta.set('/', { kind: 'dir', size: 0, mtimeMs: now(), version: this.#nextVersion() });
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  get fileCount(): number {
    return this.#fileCount;
  }

  /** Directories, the root not counted. */
  get directoryCount(): number {
    return this.#dirCount;
  }

  #nextVersion(): number {
    return this.#versions.next++;
  }

  get(path: string): Meta | undefined {
    return this.#meta.get(path);
  }

  info(path: string, meta: Meta): FileInfo {
    return { path, name: baseName(path), isDir: meta.kind === 'dir', size: meta.size, mtimeMs: meta.mtimeMs, version: meta.version };
  }

  /** Metadata of an existing path; ENOENT (with suggestions) or ENOTDIR when a parent is a file. */
  require(path: string): Meta {
    const meta = this.#meta.get(path);
    if (meta) return meta;
    this.#assertNoFileAncestor(path, false);
    throw notFoundError(path, this.#meta.keys());
  }

  requireFile(path: string): Meta {
    const meta = this.require(path);
    if (meta.kind === 'dir') {
      throw new VfsError('EISDIR', `${path} is a directory, not a file. Use ls to see what it contains.`, { path });
    }
    return meta;
  }

  requireDir(path: string): Meta {
    const meta = this.require(path);
    if (meta.kind === 'file') {
      throw rememberAsMissing(new VfsError('ENOTDIR', `${path} is a file, not a directory. Use read_file to read it.`, { path }), path, () =>
        this.#meta.keys(),
      );
    }
    return meta;
  }

  bytes(path: string): OwnedBytes {
    return this.#store.read(path);
  }

  /** Bytes without a copy: for reading inside the backend only. */
  view(path: string): Uint8Array {
    return this.#store.view(path);
  }

  /** Immediate children of a directory, by name. */
  children(dir: string): string[] {
    return this.#store.list(dir).map((name) => joinPath(dir, name));
  }

  /** Every path (files and directories, "/" included), in insertion order. */
  paths(): IterableIterator<string> {
    return this.#meta.keys();
  }

  entries(): IterableIterator<[string, Meta]> {
    return this.#meta.entries();
  }

  /** Checks that `path` could be a file or directory: no ancestor is a file, and it fits the path limit. */
  checkPlace(path: string): void {
    this.#checkLength(path);
    this.#assertNoFileAncestor(path, true);
  }

  #checkLength(path: string): void {
    if (path.length > this.limits.maxPathLength) {
      throw new VfsError(
        'EINVAL',
        `Path is ${path.length} characters, over the limit of ${this.limits.maxPathLength}: ${headOf(path, 80)}… No file was changed. Use a shorter path.`,
        { path },
      );
    }
  }

  /** `changing`: for a write (which then says nothing changed), else for a read. */
  #assertNoFileAncestor(path: string, changing: boolean): void {
    // A directory's ancestors are all directories: an existing parent directory settles it in one lookup.
    if (this.#meta.get(parentOf(path))?.kind === 'dir') return;
    for (const ancestor of ancestorsOf(path)) {
      const meta = this.#meta.get(ancestor);
      if (!meta) return;
      if (meta.kind === 'file') {
        const message = changing ? underFileMessage(ancestor, path) : `${ancestor} is a file, so ${path} cannot exist under it. Use read_file to read it.`; // (each dialect says it in its words: next-actions.ts)
        throw rememberAsMissing(new VfsError('ENOTDIR', message, { path }), path, () => this.#meta.keys());
      }
    }
  }

  /** Throws EQUOTA/ETOOBIG unless `size` bytes written to `path` (a file, or a new one) fit the limits. */
  checkFits(path: string, size: number): void {
    const existing = this.#meta.get(path);
    if (existing?.kind === 'dir') return; // (the write is refused for that, by the write itself)
    this.checkQuota(path, size, existing?.size ?? 0, existing === undefined ? 1 : 0);
  }

  /** Throws EQUOTA/ETOOBIG unless replacing `oldSize` bytes by `newSize` (and adding `newFiles`) fits. */
  checkQuota(path: string, newSize: number, oldSize: number, newFiles: number): void {
    const { maxFileBytes, maxTotalBytes, maxFiles } = this.limits;
    if (newSize > maxFileBytes) {
      throw new VfsError('ETOOBIG', tooBigMessage(path, newSize, maxFileBytes), { path });
    }
    const total = this.#totalBytes - oldSize + newSize;
    if (total > maxTotalBytes) {
      throw new VfsError(
        'EQUOTA',
        `Writing ${path} would bring the filesystem to ${formatBytes(total)}, over its limit of ${formatBytes(maxTotalBytes)} (now ${formatBytes(this.#totalBytes)}). ${QUOTA_NEXT_STEP}`,
        { path },
      );
    }
    if (this.#fileCount + newFiles > maxFiles) {
      throw new VfsError('EQUOTA', `Creating ${path} would exceed the limit of ${maxFiles} files. ${QUOTA_NEXT_STEP}`, { path });
    }
  }

  /**
   * Writes a file, creating missing parents. All checks happen before storage is touched.
   * The bytes are copied (by `bulk`, in a bulk write), unless `owned`: bytes made for this write
   * (encoded text) are kept as they are.
   */
  writeFile(path: string, bytes: Uint8Array, owned = false, bulk?: BulkCopy): { meta: Meta; created: boolean } {
    const mtimeMs = this.now();
    if (path === '/') throw new VfsError('EISDIR', 'The root "/" is a directory. Nothing was written. Give a file path.', { path });
    const existing = this.#meta.get(path);
    if (existing?.kind === 'dir') {
      throw new VfsError('EISDIR', isDirMessage(path), { path });
    }
    this.#checkLength(path);
    // The common case, an existing parent directory, settles the place (checkPlace's rule).
    let parent: string | undefined;
    let parentKind: Meta['kind'] | undefined = 'dir';
    if (!isChildOf(path, this.#lastDir)) {
      parent = parentOf(path);
      parentKind = this.#meta.get(parent)?.kind;
      if (parentKind !== 'dir') this.#assertNoFileAncestor(path, true);
    }
    const oldSize = existing === undefined ? 0 : existing.size;
    this.checkQuota(path, bytes.byteLength, oldSize, existing ? 0 : 1);
    if (parentKind === undefined) {
      this.#checkDirectories(path, parent!);
      this.#mkdirs(parent!, mtimeMs);
    }
    if (parent !== undefined) this.#lastDir = parent;
    if (existing) this.observer?.retiring(path, existing, this);
    if (owned) this.#store.writeOwned(path, bytes);
    else this.#store.write(path, bytes, bulk);
    const meta: Meta = { kind: 'file', size: bytes.byteLength, mtimeMs, version: this.#nextVersion() };
    this.#meta.set(path, meta);
    this.observer?.changed(path);
    this.log?.pending?.push({ type: existing ? 'modify' : 'create', path, version: meta.version, isDir: false });
    this.#totalBytes += bytes.byteLength - oldSize;
    if (!existing) {
      this.#fileCount++;
      this.#forgetOrder(true);
    } else if (this.#sortedMetas) {
      // A bisection costs about as much as 64 map lookups: past that, rebuilding is cheaper.
      if (this.#staleMetas.push(path) > this.#sortedMetas.length / 64) this.#forgetOrder(false);
    }
    return { meta, created: !existing };
  }

  /**
   * A tree with this one's state (paths, Metas, versions) for another owner to change: the
   * bytes and Meta objects are shared (neither is ever changed in place), the maps are copied.
   * No observer or log: the new owner attaches its own.
   */
  clone(): Tree {
    const copy = new Tree(this.limits, this.now, this.#versions, false);
    copy.#store = this.#store.clone();
    for (const [path, meta] of this.#meta) copy.#meta.set(path, meta);
    copy.#totalBytes = this.#totalBytes;
    copy.#fileCount = this.#fileCount;
    copy.#dirCount = this.#dirCount;
    copy.#sortedFiles = this.#sortedFiles; // replaced, never changed in place
    return copy;
  }

  /**
   * Fills this new, empty tree from snapshot entries that `decodeSnapshot` has validated
   * against this tree's limits (canonical and unique paths, nothing under a file), in path
   * order (parents first). Skips the per-write checks that validation already made.
   * `time` stamps directories the snapshot only implies. The contents are kept as they are: the
   * caller hands them over (decoding copied them, or the caller gave up the snapshot).
   */
  load(entries: readonly SnapshotEntry[], time: number): void {
    for (const entry of entries) {
      const { path, mtimeMs } = entry;
      this.#checkLength(path); // in the units the tree counts (decoding checked UTF-8 bytes)
      this.#ensureParent(path, time);
      if (entry.kind === 'dir') {
        const implied = this.#meta.get(path); // only if the entries were out of order
        if (implied) implied.mtimeMs = mtimeMs;
        else {
          this.#checkDirectories(path, path);
          this.#dirCount++;
          this.#store.mkdir(path);
          this.#meta.set(path, { kind: 'dir', size: 0, mtimeMs, version: this.#nextVersion() });
        }
        continue;
      }
      const content = entry.content!;
      this.#store.writeOwned(path, content);
      this.#meta.set(path, { kind: 'file', size: content.byteLength, mtimeMs, version: this.#nextVersion() });
      this.#totalBytes += content.byteLength;
      this.#fileCount++;
    }
    this.#forgetOrder(true);
  }

  /**
   * Fills this new, empty tree with the state of another tree of the same backend (a rollback):
   * `paths` with the metadata `state` gives them (versions and times are kept, and the Meta
   * objects shared), in path order (parents first), from a tree that was
   * valid under the same limits. A file's bytes are shared with `from` when it holds the same
   * version at that path (stored bytes never change), else copied from `bytesOf(path, meta)`.
   */
  adopt(paths: readonly string[], state: ReadonlyMap<string, Meta>, from: Tree, bytesOf: (path: string, meta: Meta) => Uint8Array): void {
    for (const path of paths) {
      const meta = state.get(path)!;
      this.#ensureParent(path, meta.mtimeMs); // as a write would have (a valid state lists its directories)
      if (meta.kind === 'dir') {
        // (made above as a parent only if out of order)
        if (!this.#meta.has(path)) {
          this.#store.mkdir(path);
          this.#dirCount++;
        }
      } else {
        if (from.#meta.get(path)?.version === meta.version) this.#store.adopt(path, from.#store);
        else this.#store.write(path, bytesOf(path, meta));
        this.#totalBytes += meta.size;
        this.#fileCount++;
      }
      this.#meta.set(path, meta);
    }
    this.#forgetOrder(true);
  }

  /** For bulk loads of checked entries: creates the parent of `path` (and its missing parents) unless it exists. */
  #ensureParent(path: string, mtimeMs: number): void {
    if (isChildOf(path, this.#lastDir)) return;
    const parent = parentOf(path);
    if (!this.#meta.has(parent)) {
      this.#checkDirectories(path, parent);
      this.#mkdirs(parent, mtimeMs);
    }
    this.#lastDir = parent;
  }

  /** Every entry but the root, in path order (depth first, each directory's names sorted), for encodeSnapshot. */
  snapshotEntries(): SnapshotEntry[] {
    const out: SnapshotEntry[] = [];
    const meta = this.#meta;
    // File contents are views to encode right away, as view() gives.
    this.#store.walk((path, content) => {
      const mtimeMs = meta.get(path)!.mtimeMs;
      out.push(content === undefined ? { path, kind: 'dir', mtimeMs } : { path, kind: 'file', mtimeMs, content });
    });
    return out;
  }

  /** Creates a directory and its missing parents; an existing directory is fine. */
  mkdir(path: string): Meta {
    const mtimeMs = this.now();
    const existing = this.#meta.get(path);
    if (existing?.kind === 'file') throw new VfsError('EEXIST', `${path} already exists as a file.`, { path });
    if (existing) return existing;
    this.checkPlace(path);
    this.#checkDirectories(path, path);
    this.#mkdirs(path, mtimeMs);
    return this.#meta.get(path)!;
  }

  /** Throws EQUOTA unless the directories `dir` needs made (it and its missing ancestors) fit the limit; `path` is what is being created. */
  #checkDirectories(path: string, dir: string): void {
    let missing = 0;
    for (let d = dir; d !== '/' && !this.#meta.has(d); d = parentOf(d)) missing++;
    const { maxDirectories } = this.limits;
    if (this.#dirCount + missing > maxDirectories) {
      throw new VfsError(
        'EQUOTA',
        `Creating ${clipped(path, 200)} would exceed the limit of ${maxDirectories} directories (${missing} more needed). ${QUOTA_NEXT_STEP}`,
        { path },
      );
    }
  }

  // Callers have checked that no ancestor is a file, and the directory limit.
  #mkdirs(path: string, mtimeMs: number): void {
    if (this.#meta.has(path)) return;
    for (const dir of [...ancestorsOf(path), path]) {
      if (this.#meta.has(dir)) continue;
      this.#store.mkdir(dir);
      const meta: Meta = { kind: 'dir', size: 0, mtimeMs, version: this.#nextVersion() };
      this.#meta.set(dir, meta);
      this.#dirCount++;
      this.observer?.changed(dir);
      this.log?.pending?.push({ type: 'create', path: dir, version: meta.version, isDir: true });
    }
  }

  remove(path: string, recursive: boolean): void {
    if (path === '/') throw new VfsError('EINVAL', 'Refusing to remove the root "/". Remove its entries instead.', { path });
    const meta = this.require(path);
    const removed = meta.kind === 'dir' ? this.#descendants(path) : [path];
    if (meta.kind === 'dir' && removed.length > 1 && !recursive) {
      throw new VfsError(
        'EISDIR',
        `${path} is a directory with ${counted(removed.length - 1, 'entry', 'entries')}; pass { recursive: true } to remove it and everything in it.`,
        { path },
      );
    }
    if (this.observer) for (const p of removed) if (this.#meta.get(p)!.kind === 'file') this.observer.retiring(p, this.#meta.get(p)!, this);
    this.#lastDir = '/';
    this.#store.remove(path);
    this.#forgetOrder(true);
    for (const p of removed) {
      const m = this.#meta.get(p)!;
      if (m.kind === 'file') {
        this.#totalBytes -= m.size;
        this.#fileCount--;
      } else this.#dirCount--;
      this.#meta.delete(p);
      this.observer?.changed(p);
      this.log?.pending?.push({ type: 'remove', path: p, isDir: m.kind === 'dir' });
    }
  }

  rename(from: string, to: string, overwrite: boolean): Meta {
    const mtimeMs = this.now(); // before anything changes: a clock that fails leaves the tree as it was
    if (from === '/') throw new VfsError('EINVAL', 'The root "/" cannot be moved.', { path: from });
    const source = this.require(from);
    if (from === to) return source;
    if (to === '/' || isWithin(to, from)) {
      throw new VfsError('EINVAL', `Cannot move ${from} into itself (${to}).`, { path: to });
    }
    const target = this.#meta.get(to);
    if (target && (target.kind === 'dir' || source.kind === 'dir' || !overwrite)) {
      const hint = target.kind === 'file' && source.kind === 'file' ? ' Pass { overwrite: true } to replace it.' : '';
      throw new VfsError('EEXIST', `${to} already exists.${hint} Nothing was moved.`, { path: to });
    }
    this.checkPlace(to);
    const moved = source.kind === 'dir' ? this.#descendants(from) : [from];
    for (const p of moved) this.checkPlace(to + p.slice(from.length));
    this.#checkDirectories(to, parentOf(to));
    if (target) this.remove(to, false);
    this.#mkdirs(parentOf(to), mtimeMs);
    if (this.observer) for (const p of moved) if (this.#meta.get(p)!.kind === 'file') this.observer.retiring(p, this.#meta.get(p)!, this);
    this.#lastDir = '/';
    this.#store.rename(from, to);
    this.#forgetOrder(true);
    for (const p of moved) {
      const m = this.#meta.get(p)!;
      const dest = to + p.slice(from.length);
      this.#meta.delete(p);
      // A moved file is new content at its new path: give it a fresh version so old reads there are stale.
      const moved: Meta = { ...m, version: this.#nextVersion() };
      if (m.kind === 'file') moved.movedFrom = contentKey(m);
      this.#meta.set(dest, moved);
      this.observer?.changed(p);
      this.observer?.changed(dest);
      this.log?.pending?.push({ type: 'rename', path: dest, oldPath: p, version: moved.version, isDir: m.kind === 'dir' });
    }
    return this.#meta.get(to)!;
  }

  /** `dir` and every path beneath it. */
  #descendants(dir: string): string[] {
    const prefix = `${dir}/`;
    const out = [dir];
    for (const p of this.#meta.keys()) if (p.startsWith(prefix)) out.push(p);
    return out;
  }

  /** Drops the cached path order (`files`: of the files too, when one was created or removed). */
  #forgetOrder(files: boolean): void {
    if (files) this.#sortedFiles = null;
    this.#sortedMetas = null;
    this.#staleMetas = [];
  }

  #metasInOrder(sorted: readonly string[]): Meta[] {
    if (!this.#sortedMetas) {
      this.#sortedMetas = sorted.map((p) => this.#meta.get(p)!);
      this.#staleMetas = [];
    }
    const metas = this.#sortedMetas;
    for (const path of this.#staleMetas) metas[partitionPoint(sorted, 0, (p) => comparePaths(p, path) < 0)] = this.#meta.get(path)!;
    this.#staleMetas = [];
    return metas;
  }

  /** Files (not directories) at or beneath `path`, sorted by path, with their metadata. Do not modify the result. */
  fileListUnder(path: string): FileList {
    const meta = this.#meta.get(path);
    if (meta?.kind === 'file') {
      const metas = [meta];
      return { paths: [path], metas, all: metas, offset: 0 };
    }
    if (!this.#sortedFiles) {
      const all: string[] = [];
      for (const [p, m] of this.#meta) if (m.kind === 'file') all.push(p);
      this.#sortedFiles = all.sort(comparePaths);
    }
    const sorted = this.#sortedFiles;
    const metas = this.#metasInOrder(sorted);
    if (path === '/') return { paths: sorted, metas, all: metas, offset: 0 };
    // In this order the paths under `path/` are one run: find its ends by bisection.
    const prefix = `${path}/`;
    const first = partitionPoint(sorted, 0, (p) => comparePaths(p, prefix) < 0);
    const end = partitionPoint(sorted, first, (p) => p.startsWith(prefix));
    return { paths: sorted.slice(first, end), metas: metas.slice(first, end), all: metas, offset: first };
  }
}

/** The first index at or after `from` where `before` turns false (it must be true, then false). */
function partitionPoint(items: readonly string[], from: number, before: (item: string) => boolean): number {
  let lo = from;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
