/**
 * Brings a backend to a store's state by changing only what differs, so the files that did not
 * change keep their versions (a tool session's reads of them stay current, unlike after a
 * restore) and their search index. A follower applies each announced commit this way, and the
 * whole store when it takes over.
 */
import type { Backend, FileInfo } from '../backend/types.ts';
import { statOrNull } from '../backend/stat-or-null.ts';
import { comparePaths } from '../paths.ts';
import { sameBytes } from '../same-bytes.ts';
import type { SnapshotEntry } from '../snapshot/format.ts';

export interface Removal {
  path: string;
  /** Removed only while it is of this kind (another kind there is someone else's). */
  dir: boolean;
}

/**
 * Returns the paths it wrote or made: they have this backend's times, not the entries'. A
 * failure half way (a size limit crossed between two files) leaves what was applied so far.
 */
export async function applyEntries(backend: Backend, entries: readonly SnapshotEntry[], removals: readonly Removal[]): Promise<string[]> {
  // Removals deepest first, then directories and files parents first.
  for (const { path, dir } of [...removals].sort((a, b) => comparePaths(b.path, a.path))) {
    const info = await statOrNull(backend, path);
    if (info && info.isDir === dir) await backend.remove(path, { recursive: true });
  }
  const sorted = [...entries].sort((a, b) => comparePaths(a.path, b.path));
  const infos = new Map<string, FileInfo | null>();
  for (const entry of sorted) infos.set(entry.path, await statOrNull(backend, entry.path));
  const maybeSame = sorted.filter((e) => e.kind === 'file' && infos.get(e.path)?.isDir === false && infos.get(e.path)!.size === e.content!.length);
  const held = new Map((await backend.downloadFiles(maybeSame.map((e) => e.path))).map((r) => [r.path, r.content]));
  const changed: string[] = [];
  for (const entry of sorted) {
    const info = infos.get(entry.path);
    if (info && info.isDir !== (entry.kind === 'dir')) await backend.remove(entry.path, { recursive: true });
    if (entry.kind === 'dir') {
      if (info?.isDir) continue;
      await backend.mkdir(entry.path);
    } else if (isHeld(held.get(entry.path), entry.content!)) continue;
    else await backend.writeFile(entry.path, entry.content!);
    changed.push(entry.path);
  }
  return changed;
}

/** Every path under `dir` (not `dir` itself), with its info. */
export async function walkTree(backend: Backend, dir: string, into: Map<string, FileInfo>): Promise<void> {
  for (const info of await backend.ls(dir)) {
    into.set(info.path, info);
    if (info.isDir) await walkTree(backend, info.path, into);
  }
}

const isHeld = (held: Uint8Array | null | undefined, content: Uint8Array) => held != null && sameBytes(held, content);
