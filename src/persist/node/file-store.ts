/**
 * A workspace store in one file, for Node (the CLI, an MCP server): an append-only log of
 * batches, each framed with its length and XXH32 checksum. A batch is appended in one write
 * (and fsync'd for 'strict'), so a kill leaves the previous state or the new one: a torn last
 * batch fails its checksum and is cut off on open. When the log grows to twice the live data
 * (plus 4 MiB) it is rewritten to a temporary file, fsync'd and renamed over the log.
 * A file holding a snapshot (what `agentvfs mcp --save` wrote before this store) is opened as
 * the legacy state: the first save replaces it with a log the same atomic way.
 * One process at a time: the file is not locked.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { decodeBatch, encodeBatch } from '../batch-codec.ts';
import { decodeRecords } from '../records.ts';
import type { FileStore, StoreBatch } from '../store.ts';
import { encodeSnapshot, startsLikeSnapshot } from '../../snapshot/format.ts';
import { xxh32 } from '../../snapshot/xxhash32.ts';

const MAGIC = new TextEncoder().encode('AVFSLOG1');
const FRAME = 8; // u32 length | u32 xxh32
const SLACK = 4 * 1024 * 1024;

function frame(batch: StoreBatch): Uint8Array {
  const payload = encodeBatch(batch);
  const out = new Uint8Array(FRAME + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, payload.length, true);
  view.setUint32(4, xxh32(payload), true);
  out.set(payload, FRAME);
  return out;
}

/** Replays the log: the live records, and where the last whole batch ends. */
function replay(bytes: Uint8Array, path: string): { live: Map<string, Uint8Array>; end: number } {
  const live = new Map<string, Uint8Array>();
  if (bytes.length === 0) return { live, end: 0 };
  if (bytes.length < MAGIC.length || MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new Error(
      `agentvfs/persist: ${path} is not an agentvfs workspace log (it does not start with "AVFSLOG1"); it was left as it is. Pass another path, or move it away.`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = MAGIC.length;
  while (at < bytes.length) {
    const length = at + FRAME <= bytes.length ? view.getUint32(at, true) : Infinity;
    const end = at + FRAME + length;
    const whole = end <= bytes.length && view.getUint32(at + 4, true) === xxh32(bytes.subarray(at + FRAME, end));
    if (!whole) {
      // A batch cut short by a kill is the last thing in the file; damage anywhere else is reported.
      if (end >= bytes.length) break;
      throw new Error(`agentvfs/persist: ${path} is damaged at byte ${at} (a batch fails its checksum); it was left as it is, nothing of it was opened.`);
    }
    const batch = decodeBatch(bytes.subarray(at + FRAME, end));
    for (const key of batch.deletes) live.delete(key);
    for (const [key, value] of batch.puts) live.set(key, value);
    at = end;
  }
  return { live, end: at };
}

/**
 * The workspace a file holds, as a snapshot: a workspace log's live records (as `createFileStore`
 * would open them, without writing to the file), or the file's bytes as they are otherwise (a
 * snapshot, validated by whoever restores it). Null when the file does not exist.
 */
export function readWorkspaceFile(path: string): Uint8Array | null {
  if (!existsSync(path)) return null;
  const bytes = new Uint8Array(readFileSync(path));
  if (bytes.length < MAGIC.length || MAGIC.some((b, i) => bytes[i] !== b)) return bytes;
  const decoded = decodeRecords(replay(bytes, path).live);
  if ('problem' in decoded) throw new Error(`agentvfs/persist: ${path} holds a record that fails its check: ${decoded.problem}`);
  return encodeSnapshot(decoded.entries);
}

export function createFileStore(path: string): FileStore {
  let fd: number | null = null;
  let legacy: Uint8Array | null = null; // a snapshot the file held when opened, until the first save replaces it
  let size = 0; // bytes of the log
  const liveSizes = new Map<string, number>();
  let liveBytes = 0;

  function track(batch: StoreBatch): void {
    for (const key of batch.deletes) (liveBytes -= liveSizes.get(key) ?? 0), liveSizes.delete(key);
    for (const [key, value] of batch.puts) {
      liveBytes += value.length - (liveSizes.get(key) ?? 0);
      liveSizes.set(key, value.length);
    }
  }

  function open(): Map<string, Uint8Array> {
    rmSync(`${path}.tmp`, { force: true }); // a compaction cut short: the log itself is intact
    const bytes = existsSync(path) ? new Uint8Array(readFileSync(path)) : new Uint8Array(0);
    legacy = null;
    if (startsLikeSnapshot(bytes)) {
      // Nothing is written to the file until a save replaces the snapshot with a log (see write).
      legacy = bytes;
      liveSizes.clear();
      liveBytes = 0;
      return new Map();
    }
    const { live, end } = replay(bytes, path);
    fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
    if (end === 0) {
      writeSync(fd, MAGIC, 0, MAGIC.length, 0);
      ftruncateSync(fd, MAGIC.length);
      fsyncSync(fd);
      size = MAGIC.length;
    } else {
      if (end < bytes.length) ftruncateSync(fd, end); // drop the torn tail before appending after it
      size = end;
    }
    liveSizes.clear();
    liveBytes = 0;
    track({ puts: [...live], deletes: [] });
    return live;
  }

  function compact(): void {
    const { live } = replay(new Uint8Array(readFileSync(path)), path);
    replaceWith({ puts: [...live], deletes: [] });
  }

  /** Makes the file a log of this one batch: a temporary file, fsync'd, renamed over it. */
  function replaceWith(batch: StoreBatch): void {
    const framed = frame(batch);
    const tmp = openSync(`${path}.tmp`, 'w');
    writeSync(tmp, MAGIC, 0, MAGIC.length, 0);
    writeSync(tmp, framed, 0, framed.length, MAGIC.length);
    fsyncSync(tmp);
    closeSync(tmp);
    renameSync(`${path}.tmp`, path);
    syncDirectory();
    if (fd !== null) closeSync(fd);
    fd = openSync(path, 'r+');
    size = MAGIC.length + framed.length;
  }

  function syncDirectory(): void {
    try {
      const dir = openSync(dirname(path), 'r');
      fsyncSync(dir);
      closeSync(dir);
    } catch {
      // Some platforms cannot fsync a directory; the rename is still atomic.
    }
  }

  return {
    get fileBytes() {
      return size;
    },
    async readAll() {
      if (fd !== null) closeSync(fd);
      fd = null;
      return open();
    },
    async readLegacy() {
      return legacy;
    },
    async write(batch, { durability }) {
      if (fd === null && legacy === null) open();
      if (legacy !== null) {
        // The file still holds the snapshot: only the batch that migrates it (everything, and
        // dropLegacy) may replace it, in one atomic rename; anything else would lose it.
        if (!batch.dropLegacy) throw new Error(`agentvfs/persist: ${path} still holds a snapshot; the first save must migrate it (dropLegacy).`);
        replaceWith({ puts: batch.puts, deletes: [] });
        legacy = null;
        liveSizes.clear();
        liveBytes = 0;
        track({ puts: batch.puts, deletes: [] });
        return;
      }
      const framed = frame(batch);
      // One write at the end of the log: a kill mid-way leaves a torn tail that replay cuts off.
      try {
        let written = 0;
        while (written < framed.length) written += writeSync(fd!, framed, written, framed.length - written, size + written);
        if (durability === 'strict') fsyncSync(fd!);
      } catch (error) {
        // Not saved (a full disk): cut what part of the batch went in, or the next batch, written
        // at the old end, would leave the rest of this one after it, and the log would not open.
        try {
          ftruncateSync(fd!, size);
        } catch {
          // The next write still goes at the old end; replay stops at the first torn batch.
        }
        throw error;
      }
      size += framed.length;
      track(batch);
      if (size > 2 * liveBytes + SLACK) compact();
    },
    async close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
