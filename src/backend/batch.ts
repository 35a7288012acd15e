/**
 * applyBatch: several files written or removed as one change. Everything is checked against
 * the state and the limits first (versions, kinds, places, sizes, totals); only then is the
 * tree touched, in an order whose every step stays within what was checked, so no step fails
 * and no half of a batch is ever left behind.
 */
import { VfsError } from '../errors.ts';
import { formatBytes, QUOTA_NEXT_STEP } from '../limits.ts';
import { ancestorsOf } from '../paths.ts';
import type { BatchResult } from './types.ts';
import type { Tree } from './tree.ts';
import { tooBigMessage, underFileMessage } from './refusals.ts';

/** One change, its path normalized and its content encoded (null: remove the file). */
export interface PreparedChange {
  path: string;
  bytes: Uint8Array | null;
  /** The bytes were made for this write (encoded text): storage may keep them as they are. */
  owned: boolean;
  expectedVersion: number | undefined;
}

export function applyBatch(tree: Tree, changes: readonly PreparedChange[], checkVersion: (path: string, expected: number | undefined) => void): BatchResult[] {
  const byPath = new Map<string, PreparedChange>();
  for (const change of changes) {
    if (byPath.has(change.path)) {
      throw new VfsError('EINVAL', `${change.path} appears twice in one batch; give each file once. Nothing was written.`, { path: change.path });
    }
    byPath.set(change.path, change);
  }
  for (const change of changes) {
    const { path, bytes } = change;
    checkVersion(path, change.expectedVersion);
    const existing = tree.get(path);
    if (existing?.kind === 'dir' || path === '/') {
      throw new VfsError('EISDIR', `${path} is a directory; a batch writes and removes files only. Nothing was written. Give a file path.`, { path });
    }
    if (bytes === null) {
      if (existing === undefined) tree.require(path); // ENOENT, with suggestions
      continue;
    }
    checkPlace(tree, path, byPath);
  }
  checkBatchLimits(
    tree,
    changes.map(({ path, bytes }) => [path, bytes === null ? null : bytes.byteLength]),
  );
  // The directories the writes need made: missing ones, and files this batch removes to put one there.
  const newDirectories = new Set<string>();
  for (const { path, bytes } of changes) {
    if (bytes === null) continue;
    for (const ancestor of ancestorsOf(path).reverse()) {
      if (tree.get(ancestor)?.kind === 'dir' || newDirectories.has(ancestor)) break;
      newDirectories.add(ancestor);
    }
  }
  if (tree.directoryCount + newDirectories.size > tree.limits.maxDirectories) {
    throw new VfsError('EQUOTA', `${theseChanges(changes.length)} would exceed the limit of ${tree.limits.maxDirectories} directories. ${QUOTA_NEXT_STEP}`);
  }

  // Removals first (they free room and may clear a file that a write needs as a directory), then
  // writes from the one that shrinks most to the one that grows most: the running total only
  // rises toward the checked final total, so no single write can trip a limit.
  const results = new Map<string, BatchResult>();
  for (const { path, bytes } of changes) {
    if (bytes !== null) continue;
    tree.remove(path, false);
    results.set(path, { path, version: null, created: false });
  }
  const growth = (c: PreparedChange) => c.bytes!.byteLength - (tree.get(c.path)?.size ?? 0);
  const writes = changes.filter((c) => c.bytes !== null).sort((a, b) => growth(a) - growth(b));
  for (const { path, bytes, owned } of writes) {
    const { meta, created } = tree.writeFile(path, bytes!, owned);
    results.set(path, { path, version: meta.version, created });
  }
  return changes.map((c) => results.get(c.path)!);
}

/** No ancestor of `path` is, or becomes in this batch, a file; and the path fits the limit. */
function checkPlace(tree: Tree, path: string, batch: ReadonlyMap<string, PreparedChange>): void {
  if (path.length > tree.limits.maxPathLength) tree.checkPlace(path); // its EINVAL
  // Nearest first: once an existing directory is reached, everything above it is one too.
  for (const ancestor of ancestorsOf(path).reverse()) {
    const planned = batch.get(ancestor);
    if (planned !== undefined) {
      if (planned.bytes === null) continue; // a file removed by this batch: a directory may take its place
      throw new VfsError(
        'ENOTDIR',
        `${ancestor} is written as a file in the same batch, so ${path} cannot exist under it. No file was changed. Use a path outside ${ancestor}.`,
        { path },
      );
    }
    const meta = tree.get(ancestor);
    if (meta === undefined) continue;
    if (meta.kind === 'dir') return; // a directory's ancestors are all directories
    throw new VfsError('ENOTDIR', underFileMessage(ancestor, path), { path });
  }
}

/**
 * The limits applyBatch checks (a file's size, the total, the file count), for a batch of
 * `[path, size]` (size null: removed) before it is made, with the same arithmetic and words: the
 * batch as a whole, so a file another removes room for fits. What the batch refuses for other
 * reasons (a directory, a missing file to remove) is left to it.
 */
export function checkBatchLimits(tree: Tree, changes: ReadonlyArray<readonly [string, number | null]>): void {
  let total = tree.totalBytes;
  let files = tree.fileCount;
  for (const [path, size] of changes) {
    const existing = tree.get(path);
    if (existing?.kind === 'dir') continue;
    if (size === null) {
      if (existing === undefined) continue;
      total -= existing.size;
      files--;
      continue;
    }
    if (size > tree.limits.maxFileBytes) throw new VfsError('ETOOBIG', tooBigMessage(path, size, tree.limits.maxFileBytes), { path });
    total += size - (existing?.size ?? 0);
    if (existing === undefined) files++;
  }
  if (total > tree.limits.maxTotalBytes) {
    throw new VfsError(
      'EQUOTA',
      `${theseChanges(changes.length)} would bring the filesystem to ${formatBytes(total)}, over its limit of ${formatBytes(tree.limits.maxTotalBytes)} (now ${formatBytes(tree.totalBytes)}). ${QUOTA_NEXT_STEP}`,
    );
  }
  if (files > tree.limits.maxFiles) {
    throw new VfsError('EQUOTA', `${theseChanges(changes.length)} would exceed the limit of ${tree.limits.maxFiles} files. ${QUOTA_NEXT_STEP}`);
  }
}

const theseChanges = (n: number): string => (n === 1 ? 'This change' : `These ${n} changes`);
