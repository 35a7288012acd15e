/**
 * A snapshot kept in one file, written atomically: the bytes go to a new file beside it, are
 * flushed to disk, and replace the old file by a rename. A reader (or a crash) sees the old
 * snapshot or the new one, never a half-written file.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { PersistenceAdapter } from '../persist/adapter.ts';

let writes = 0;

/** Replaces `path` with `bytes` atomically (same directory, so the rename never crosses a filesystem). */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}-${++writes}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}

// The rename is durable only once the directory entry is on disk. Some platforms cannot open a
// directory for this (Windows): the file itself is already complete there.
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort, see above
  }
}

/** The snapshot in `path`, or null when there is no such file. */
export async function readSnapshotFile(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw error;
  }
}

/** agentvfs/persist's store interface over one file (the CLI restores by itself, so nothing is ever cleared or set aside). */
export function snapshotFile(path: string): PersistenceAdapter {
  return {
    load: () => readSnapshotFile(path),
    save: (bytes) => writeFileAtomic(path, bytes),
    clear: () => rm(path, { force: true }),
    keepAside: (bytes) => writeFileAtomic(`${path}.unreadable-${Date.now()}`, bytes),
  };
}
