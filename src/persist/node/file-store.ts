/**
 * A workspace store in one file, for Node (the CLI, an MCP server): an append-only log of
 * batches, each framed with its length, an XXH32 checksum of the batch and one of that header.
 * A batch is appended in one write (and fsync'd for 'strict'), so a kill leaves the previous
 * state or the new one: a torn last batch runs past the end of the file and is cut off on open, as
 * is a last batch that power loss left all zeros (the file grew, its new blocks never reached the
 * disk); any other batch or header that fails its checksum is damage, reported with nothing opened. When the log grows to twice the live data
 * (plus 4 MiB) it is rewritten to a temporary file, fsync'd and renamed over the log.
 * A file holding a snapshot (what `agentvfs mcp --save` wrote before this store) is opened as
 * the legacy state: the first save replaces it with a log the same atomic way.
 * One process at a time: `<file>.lock` names the process (pid, host, a random token) that has the
 * file open, and a store in another process is refused while that process lives (two would write
 * over each other's batches); a lock left by a process that is gone is taken over. Stores of one
 * file in one process share the lock; one whose file another wrote since it opened it is refused
 * at its next write.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  fstatSync,
  ftruncateSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { decodeBatch, encodeBatch } from '../batch-codec.ts';
import { decodeRecords } from '../records.ts';
import type { FileStore, StoreBatch } from '../store.ts';
import { encodeSnapshot, startsLikeSnapshot } from '../../snapshot/format.ts';
import { xxh32 } from '../../snapshot/xxhash32.ts';

// Format 2 frames carry a checksum of their own header, so a damaged length is told from a batch
// cut short by a kill (format 1 read them alike: a length grown by one bad bit looked like a
// torn end, and the batches after it were dropped). Format 1 logs are read, and appended to in
// format 1, until a compaction rewrites them in format 2.
const MAGIC = { 1: new TextEncoder().encode('AVFSLOG1'), 2: new TextEncoder().encode('AVFSLOG2') } as const;
const MAGIC_BYTES = 8;
type LogFormat = keyof typeof MAGIC;
const HEADER = { 1: 8, 2: 12 } as const; // u32 length | u32 xxh32(payload) [| u32 xxh32(the 8 bytes before)]
const SLACK = 4 * 1024 * 1024;

function frame(batch: StoreBatch, format: LogFormat): Uint8Array {
  const payload = encodeBatch(batch);
  const header = HEADER[format];
  const out = new Uint8Array(header + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, payload.length, true);
  view.setUint32(4, xxh32(payload), true);
  if (format === 2) view.setUint32(8, xxh32(out.subarray(0, 8)), true);
  out.set(payload, header);
  return out;
}

function formatOf(bytes: Uint8Array): LogFormat | null {
  if (bytes.length < MAGIC_BYTES) return null;
  for (const format of [2, 1] as const) if (MAGIC[format].every((b, i) => bytes[i] === b)) return format;
  return null;
}

/** Replays the log: the live records, where the last whole batch ends, and the log's format. */
function replay(bytes: Uint8Array, path: string): { live: Map<string, Uint8Array>; end: number; format: LogFormat } {
  const live = new Map<string, Uint8Array>();
  if (bytes.length === 0) return { live, end: 0, format: 2 };
  const format = formatOf(bytes);
  if (format === null) {
    throw new Error(
      `agentvfs/persist: ${path} is not an agentvfs workspace log (it does not start with "AVFSLOG2" or "AVFSLOG1"); it was left as it is. Pass another path, or move it away.`,
    );
  }
  const damaged = (at: number, what: string) =>
    new Error(
      `agentvfs/persist: ${path} is damaged at byte ${at} (${what}); it was left as it is, nothing of it was opened. Move it away to start a new workspace there.`,
    );
  const header = HEADER[format];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lostToPowerLoss = (at: number) => format === 2 && zerosToTheEnd(bytes, at);
  let at = MAGIC_BYTES;
  while (at < bytes.length) {
    // A batch cut short by a kill is the last thing in the file: a header cut short, or (format 2)
    // a whole header whose batch runs past the end. Anything else that fails is damage.
    if (at + header > bytes.length) break;
    if (format === 2 && view.getUint32(at + 8, true) !== xxh32(bytes.subarray(at, at + 8))) {
      if (lostToPowerLoss(at)) break;
      throw damaged(at, 'a batch header fails its checksum');
    }
    const end = at + header + view.getUint32(at, true);
    if (end > bytes.length) break; // (format 1 cannot tell a damaged length from this)
    if (view.getUint32(at + 4, true) !== xxh32(bytes.subarray(at + header, end))) {
      if (format === 1 && end === bytes.length) break; // format 1 read a bad last batch as torn
      throw damaged(at, 'a batch fails its checksum');
    }
    let batch: ReturnType<typeof decodeBatch>;
    try {
      batch = decodeBatch(bytes.subarray(at + header, end));
    } catch (error) {
      // Its checksums hold, its content does not (written by something else, or a bug): damage too.
      throw damaged(at, `a batch does not decode: ${(error as Error).message}`);
    }
    for (const key of batch.deletes) live.delete(key);
    for (const [key, value] of batch.puts) live.set(key, value);
    at = end;
  }
  return { live, end: at, format };
}

/**
 * Whether the file is zeros from `at` (where a batch header should start) to its end: what a
 * power loss leaves when the file grew but its new blocks were never written. No batch is all
 * zeros (its header checksums its length), and bit rot does not zero a whole tail, so such a tail
 * never held an acknowledged batch ('strict' answers only after fsync): it is cut like a torn one.
 * A tail zeroed from inside a batch is reported as damage: zeros there may be the batch's content.
 */
function zerosToTheEnd(bytes: Uint8Array, at: number): boolean {
  for (let i = at; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/**
 * The workspace a file holds, as a snapshot: a workspace log's live records (as `createFileStore`
 * would open them, without writing to the file), or the file's bytes as they are otherwise (a
 * snapshot, validated by whoever restores it). Null when the file does not exist.
 */
export function readWorkspaceFile(path: string): Uint8Array | null {
  if (!existsSync(path)) return null;
  refuseDirectory(path, 'readWorkspaceFile');
  const bytes = new Uint8Array(readFileSync(path));
  if (formatOf(bytes) === null) return bytes;
  const decoded = decodeRecords(replay(bytes, path).live);
  if ('problem' in decoded) throw new Error(`agentvfs/persist: ${path} holds a record that fails its check: ${decoded.problem}`);
  return encodeSnapshot(decoded.entries);
}

/** Throws, naming it, when `path` is a directory: reading it would fail with a bare EISDIR that names no path. */
function refuseDirectory(path: string, caller: string): void {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    throw new Error(`agentvfs/persist: ${path} is a directory; ${caller} needs the path of a file (such as ${join(path, 'workspace.avfs')}).`);
  }
}

/** The locks this process holds: a second store of the same file shares it, the last close removes it. */
const held = new Map<string, { token: string; stores: number }>();

interface LockOwner {
  pid: number;
  host: string;
  token: string;
}

/**
 * Takes `<path>.lock` for this process, or throws when another process holds it. The lock is
 * made whole before it appears (a link to a file already written), names its process, host and
 * a random token, and is taken over only when its process is gone from this host: removed under a
 * gate, and only while it is still that lock, so of processes taking it over together one wins.
 */
function lockFile(path: string): () => void {
  const lock = `${path}.lock`;
  const mine = held.get(lock);
  if (mine) {
    mine.stores++;
    return release(lock);
  }
  const token = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const refuse = (why: string) =>
    new Error(
      `agentvfs/persist: ${path} is open in ${why}; two would write over each other's saves, so it was not opened. Close that one first, or use another file. (If no such process uses it, delete ${lock}.)`,
    );
  for (let attempt = 0; attempt < 50; attempt++) {
    const draft = `${lock}.${token}`;
    try {
      writeFileSync(draft, JSON.stringify({ pid: process.pid, host: hostname(), token } satisfies LockOwner), { flag: 'wx' });
    } catch (error) {
      // The draft's name would be all the error says: name the directory the file needs instead.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new Error(`agentvfs/persist: ${path} cannot be made: its directory ${dirname(path)} does not exist. Create it first, or pass another path.`, {
        cause: error,
      });
    }
    try {
      linkSync(draft, lock); // fails if a lock exists: never a half-written one
      held.set(lock, { token, stores: 1 });
      return release(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    const owner = readOwner(lock);
    if (owner === null) {
      sleep(20); // being made, or just removed: look again
      continue;
    }
    if (owner.host !== hostname()) throw refuse(`a process on host ${owner.host} (pid ${owner.pid})`);
    if (alive(owner.pid)) throw refuse(`another process (pid ${owner.pid})`);
    // Its process is gone: remove it, holding the takeover gate, and only if it is still the lock
    // that was read (another process may have taken over meanwhile). A gate left by a process
    // killed while it held it is old: removed.
    const gate = `${lock}.takeover`;
    try {
      writeFileSync(gate, token, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() - (statOrNull(gate)?.mtimeMs ?? Date.now()) > 5_000) rmSync(gate, { force: true });
      sleep(20);
      continue;
    }
    try {
      if (readOwner(lock)?.token === owner.token) rmSync(lock, { force: true });
    } finally {
      rmSync(gate, { force: true });
    }
  }
  throw refuse('another process (the lock kept changing)');
}

/** Removes the lock when this process's last store of the file closes, if it is still this process's. */
function release(lock: string): () => void {
  let done = false;
  return () => {
    const mine = held.get(lock);
    if (done || !mine) return;
    done = true;
    if (--mine.stores > 0) return;
    held.delete(lock);
    if (readOwner(lock)?.token === mine.token) rmSync(lock, { force: true });
  };
}

function readOwner(file: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string' ? (owner as LockOwner) : null;
  } catch {
    return null;
  }
}

function statOrNull(file: string): { mtimeMs: number } | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, owned by someone else
  }
}

export function createFileStore(path: string): FileStore {
  let fd: number | null = null;
  let unlock: (() => void) | null = null;
  let legacy: Uint8Array | null = null; // a snapshot the file held when opened, until the first save replaces it
  let size = 0; // bytes of the log
  let format: LogFormat = 2; // of the log open: new batches are appended in it
  let cutOwed = false; // a failed append's bytes are still after `size` (the cut failed too)
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
    refuseDirectory(path, 'createFileStore'); // before the lock: nothing is left beside it
    unlock ??= lockFile(path);
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
    const replayed = replay(bytes, path);
    const { live, end } = replayed;
    format = replayed.format;
    cutOwed = false;
    fd = openSync(path, existsSync(path) ? 'r+' : 'w+');
    if (end === 0) {
      writeSync(fd, MAGIC[format], 0, MAGIC_BYTES, 0);
      ftruncateSync(fd, MAGIC_BYTES);
      fsyncSync(fd);
      size = MAGIC_BYTES;
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
    const framed = frame(batch, 2); // a rewrite is always in the current format
    const tmp = openSync(`${path}.tmp`, 'w');
    writeSync(tmp, MAGIC[2], 0, MAGIC_BYTES, 0);
    writeSync(tmp, framed, 0, framed.length, MAGIC_BYTES);
    fsyncSync(tmp);
    closeSync(tmp);
    renameSync(`${path}.tmp`, path);
    syncDirectory();
    if (fd !== null) closeSync(fd);
    fd = openSync(path, 'r+');
    size = MAGIC_BYTES + framed.length;
    format = 2;
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
      // Cut a failed append's rest first: a shorter batch over it would leave the rest after it.
      if (cutOwed) {
        ftruncateSync(fd!, size);
        cutOwed = false;
      }
      // Another store of this process (they share the lock) wrote or rewrote the log since this
      // one read it: appending at the end this one knows would overwrite its batches.
      const file = statSync(path, { throwIfNoEntry: false });
      const mine = fstatSync(fd!);
      if (file?.ino !== mine.ino || mine.size !== size) {
        throw new Error(
          `agentvfs/persist: ${path} was written by another store of this process since this one opened it; nothing was written (two stores writing one file would overwrite each other's saves). Write through one store, or reopen.`,
        );
      }
      const framed = frame(batch, format);
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
          cutOwed = true; // tried again before the next append, which fails while it cannot be made
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
      unlock?.();
      unlock = null;
    },
  };
}
