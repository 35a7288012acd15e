/** What a dialect tool call works with: the backend, the session's read tracking, and the files the call writes. */
import type { Backend } from '../../../backend/types.ts';
import type { CallReads } from '../../read-versions.ts';
import type { FileChange } from '../../types.ts';
import { sameBytes } from '../../../same-bytes.ts';

export interface DialectCall {
  backend: Backend;
  reads: CallReads;
  changed: FileChange[];
}

/**
 * Moves `from` to `to` (normalized paths) and records every file that left a path or arrived at
 * one. The paths are listed before the move (a guard lets the session move only what it may
 * read) and mapped to their new place, not listed again: the destination may be unreadable.
 */
export async function moveRecorded(call: DialectCall, from: string, to: string): Promise<void> {
  const isDir = (await call.backend.stat(from)).isDir;
  const left = isDir ? (await call.backend.glob('**', { path: from })).sort() : [from];
  // What the session has seen of each file goes with it: its current content (then it has seen it
  // where it arrives, if those bytes arrive: another call may write it just before or after the
  // move), or an older version (then a write there is stale, as it was here).
  const seen = new Map<string, { version: number; content?: Uint8Array }>();
  for (const path of left) {
    const expected = await call.reads.expected(call.backend, path);
    if (expected === undefined) continue;
    const { version, content } = await call.backend.read(path);
    seen.set(path, expected === version ? { version, content } : { version: expected });
  }
  await call.backend.rename(from, to);
  for (const path of left) call.changed.push({ path, version: -1 });
  for (const path of left) {
    const dest = to + path.slice(from.length);
    const was = seen.get(path);
    // (Read atomically with its version; a destination the session may not read is taken as moved.)
    const now = was?.content && (await call.backend.read(dest).catch(() => undefined));
    const arrival = now ? { path: dest, version: now.version } : await arrived(call, dest);
    call.changed.push(arrival);
    // A file a person rewrote that the session has not read yet is still unread where it went.
    call.reads.moved(path, dest);
    if (was === undefined) continue;
    // (A version the new path never had is stale.)
    call.reads.add(dest, was.content && (!now || sameBytes(now.content, was.content)) ? arrival.version : was.version);
  }
}

async function arrived(call: DialectCall, path: string): Promise<{ path: string; version: number }> {
  return { path, version: (await call.backend.stat(path)).version };
}

/**
 * Removes `path` (a file, or a directory with all it holds) and records every file removed that
 * the session can list, and a removed directory itself (it stands for files the session may
 * remove but not read, which are not named).
 */
export async function removeRecorded(call: DialectCall, path: string): Promise<void> {
  const isDir = (await call.backend.stat(path)).isDir;
  const listed = isDir ? await call.backend.glob('**', { path }).catch(() => []) : [];
  await call.backend.remove(path, { recursive: true });
  for (const file of [...listed.sort(), path]) call.changed.push({ path: file, version: -1 });
}
