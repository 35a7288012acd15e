/**
 * The snapshot binary format (version 2): a fixed 44-byte header with its own
 * checksum, then the entries, covered by a body checksum. No compression.
 * Only version 2 is read or written: version 1 (CRC-32 checksums) never
 * shipped in a release. The byte-level layout, the checks and the versioning
 * policy are in docs/snapshot-format.md; keep the two in step.
 *
 * `decodeSnapshot` validates everything before it returns anything and throws
 * `VfsError('ESNAPSHOT')` naming the first problem it finds.
 */
import { counted } from '../counted.ts';
import { VfsError } from '../errors.ts';
import { isWellFormed } from '../text.ts';
import { MAX_SEGMENT_BYTES, comparePaths, normalizePath, parentOf } from '../paths.ts';
import { sharedBufferBytes } from '../bulk-buffers.ts';
import { copyBodyHashing } from './body-copy.ts';
import { CACHE_PIECE_BYTES, Xxh32, xxh32 } from './xxhash32.ts';
import type { OwnedBytes } from '../backend/types.ts';

export interface SnapshotEntry {
  /** Absolute, normalized POSIX path; never "/" (the root is implicit). */
  path: string;
  kind: 'file' | 'dir';
  /** Modification time in ms since the epoch; any finite float64. */
  mtimeMs: number;
  /** Files only (required for files, absent for directories). */
  content?: Uint8Array;
}

export interface SnapshotLimits {
  /** Largest content of one file, in bytes. */
  maxFileBytes: number;
  /** Largest sum of all file contents, in bytes. */
  maxTotalBytes: number;
  /** Most file entries (directories do not count). */
  maxFiles: number;
  /** Most directory entries. */
  maxDirectories: number;
  /** Longest path, in UTF-8 bytes. */
  maxPathLength: number;
}

export const SNAPSHOT_FORMAT_VERSION = 2;

/** "AVFS" CR LF SUB LF: the CR/LF/SUB bytes catch text-mode and line-ending damage. */
const MAGIC = [0x41, 0x56, 0x46, 0x53, 0x0d, 0x0a, 0x1a, 0x0a] as const;
const HEADER_BYTES = 44;
/** Header bytes covered by the header checksum (everything before it). */
const HEADER_CHECKSUM_OFFSET = 40;
/** kind u8, path length u32, mtime f64, content length u64. */
const ENTRY_FIXED_BYTES = 21;
const KIND_FILE = 1;
const KIND_DIR = 2;
const TWO_POW_32 = 0x1_0000_0000;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const DOT = 0x2e;

const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF in the path (so it is rejected) instead of silently dropping it.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export interface EncodeOptions {
  /**
   * Check every entry first (default true). Pass false only for entries that come from a
   * valid tree (canonical unique paths, nothing under a file, Uint8Array contents, finite
   * times), as a backend's own snapshot does: it skips a pass over every path.
   */
  validate?: boolean;
}

/** Serializes `entries` (in the given order). Throws `EINVAL` for an entry the format cannot hold. */
export function encodeSnapshot(entries: readonly SnapshotEntry[], options: EncodeOptions = {}): OwnedBytes {
  if (options.validate !== false) validateEntries(entries);
  const pathLengths = new Uint32Array(entries.length);
  let size = HEADER_BYTES;
  let files = 0;
  let contentBytes = 0;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.kind === 'file') {
      files++;
      contentBytes += e.content!.length;
    }
    const n = utf8Length(e.path);
    pathLengths[i] = n;
    size += ENTRY_FIXED_BYTES + n;
  }
  size += contentBytes;

  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint32(8, SNAPSHOT_FORMAT_VERSION, true);
  view.setUint32(12, entries.length, true);
  view.setUint32(16, files, true);
  setUint64(view, 24, contentBytes);
  setUint64(view, 32, size - HEADER_BYTES);
  // The body is hashed in step with writing it, each piece while it is still in the CPU cache.
  const hash = new Xxh32();
  let hashed = HEADER_BYTES;
  let off = HEADER_BYTES;
  for (let i = 0; i < entries.length; i++) {
    if (off - hashed >= CACHE_PIECE_BYTES) {
      const end = hashed + ((off - hashed) & ~15);
      hash.stripes(out.subarray(hashed, end));
      hashed = end;
    }
    const e = entries[i]!;
    const pathLength = pathLengths[i]!;
    const content = e.kind === 'file' ? e.content! : undefined;
    out[off] = content === undefined ? KIND_DIR : KIND_FILE;
    view.setUint32(off + 1, pathLength, true);
    view.setFloat64(off + 5, e.mtimeMs, true);
    setUint64(view, off + 13, content === undefined ? 0 : content.length);
    off += ENTRY_FIXED_BYTES;
    writePath(e.path, pathLength, out, off);
    off += pathLength;
    if (content !== undefined) {
      out.set(content, off);
      off += content.length;
    }
  }
  view.setUint32(20, hash.digest(out.subarray(hashed)), true);
  view.setUint32(HEADER_CHECKSUM_OFFSET, xxh32(out.subarray(0, HEADER_CHECKSUM_OFFSET)), true);
  return out;
}

/** Throws `EINVAL` naming the first entry the format cannot hold. */
function validateEntries(entries: readonly SnapshotEntry[]): void {
  const invalid: (message: string) => never = (message) => {
    throw new VfsError('EINVAL', `Cannot encode snapshot: ${message}.`);
  };
  if (!Array.isArray(entries)) invalid(`expected an array of entries, got ${describe(entries)}`);
  if (entries.length > 0xffff_ffff) invalid(`${entries.length} entries is more than the format holds (2^32 - 1)`);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (typeof e !== 'object' || e === null) invalid(`entry ${i} is ${describe(e)}, not an object`);
    if (typeof e.path !== 'string') invalid(`entry ${i}: the path is ${describe(e.path)}, not a string`);
    const problem = pathProblem(e.path);
    if (problem !== undefined) invalid(`${entryLabel(i, e.path)}: the path ${problem}`);
    if (typeof e.mtimeMs !== 'number' || !Number.isFinite(e.mtimeMs)) {
      invalid(`${entryLabel(i, e.path)}: mtimeMs is ${describe(e.mtimeMs)}, not a finite number`);
    }
    if (e.kind === 'file') {
      if (!isUint8Array(e.content)) invalid(`${entryLabel(i, e.path)}: a file needs its content as a Uint8Array, got ${describe(e.content)}`);
    } else if (e.kind === 'dir') {
      if (e.content !== undefined) invalid(`${entryLabel(i, e.path)}: a directory cannot have content`);
    } else {
      invalid(`${entryLabel(i, e.path)}: kind is ${JSON.stringify(e.kind)}, expected "file" or "dir"`);
    }
  }
  checkTree(entries, invalid);
}

/** UTF-8 length of a string without lone surrogates (paths are checked for those). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 2; // a pair: 4 bytes for 2 units
      i++;
    } else n += 2;
  }
  return n;
}

/** Writes `path` as UTF-8 at `off`: ASCII byte by byte (most paths; no call overhead), else with encodeInto. */
function writePath(path: string, byteLength: number, out: Uint8Array, off: number): void {
  if (byteLength === path.length) {
    for (let i = 0; i < byteLength; i++) out[off + i] = path.charCodeAt(i);
  } else {
    encoder.encodeInto(path, out.subarray(off, off + byteLength));
  }
}

/**
 * Parses and fully validates a snapshot. Returned `content` arrays are copies
 * (the caller may reuse or transfer `bytes` afterwards; laid out as
 * bulk-buffers.ts says, body-copy.ts), or with `{ copy: false }` views into
 * `bytes`, for a caller that keeps or copies them anyway.
 */
export function decodeSnapshot(bytes: Uint8Array, limits: SnapshotLimits, options: { copy?: boolean } = {}): SnapshotEntry[] {
  return decodeSnapshotEntries(bytes, limits, options).entries;
}

/**
 * `decodeSnapshot`, also telling whether the entries are in path order (`comparePaths`, as
 * agentvfs writes them), so a reader that needs that order need not check it again.
 */
export function decodeSnapshotEntries(
  bytes: Uint8Array,
  limits: SnapshotLimits,
  options: { copy?: boolean } = {},
): { entries: SnapshotEntry[]; inPathOrder: boolean } {
  const copy = options.copy !== false;
  if (!isUint8Array(bytes)) bad(`expected a Uint8Array, got ${describe(bytes)}`);
  const len = bytes.length;
  if (len === 0) bad('the data is empty (0 bytes)');
  checkMagic(bytes);
  const truncatedHeader = `truncated: expected at least ${HEADER_BYTES} bytes (the header), got ${len}`;
  if (len < 12) bad(truncatedHeader);
  const view = new DataView(bytes.buffer, bytes.byteOffset, len);
  const version = view.getUint32(8, true);
  if (version === 0) bad('format version 0 does not exist (the header is damaged)');
  if (version > SNAPSHOT_FORMAT_VERSION) {
    bad(`made by a newer agentvfs: format ${version}, this build reads up to ${SNAPSHOT_FORMAT_VERSION}; upgrade agentvfs to restore it`);
  }
  if (version < SNAPSHOT_FORMAT_VERSION) {
    bad(
      `format ${version} is a pre-release format this build does not read (it reads format ${SNAPSHOT_FORMAT_VERSION}); ` +
        'restore it with the agentvfs build that wrote it and take a new snapshot',
    );
  }
  if (len < HEADER_BYTES) bad(truncatedHeader);
  checkChecksum('header', view.getUint32(HEADER_CHECKSUM_OFFSET, true), xxh32(bytes.subarray(0, HEADER_CHECKSUM_OFFSET)));

  const entryCount = view.getUint32(12, true);
  const fileCount = view.getUint32(16, true);
  const contentBytes = getUint64(view, 24);
  const bodyLength = getUint64(view, 32);
  if (fileCount > entryCount) bad(`the header counts ${counted(fileCount, 'file')} among only ${counted(entryCount, 'entry', 'entries')}`);
  if (fileCount > limits.maxFiles) bad(`it holds ${fileCount} files, over the limit of ${limits.maxFiles} files`);
  if (entryCount - fileCount > limits.maxDirectories) {
    bad(`it holds ${counted(entryCount - fileCount, 'directory', 'directories')}, over the limit of ${limits.maxDirectories} directories`);
  }
  if (contentBytes > limits.maxTotalBytes) {
    bad(`it holds ${contentBytes} bytes of file content, over the limit of ${limits.maxTotalBytes} bytes`);
  }
  const expected = HEADER_BYTES + bodyLength;
  if (len < expected) bad(`truncated: expected ${expected} bytes, got ${len} (${counted(expected - len, 'byte')} missing)`);
  if (len > expected) bad(`${counted(len - expected, 'byte')} of trailing data after the end of the snapshot (expected ${expected} bytes, got ${len})`);
  // A copying decode copies the files while it hashes the body (body-copy.ts), and returns views
  // into that copy; else the body is only hashed, and the files are views into `bytes`.
  let contentAt = (start: number, length: number): Uint8Array => bytes.subarray(start, start + length);
  if (copy) {
    const { files: contents, count, scanned } = scanFiles(bytes, view, entryCount, fileCount, contentBytes, limits.maxFileBytes);
    const body = copyBodyHashing(bytes, HEADER_BYTES, contents, count, scanned, sharedBufferBytes(contentBytes));
    checkChecksum('body', view.getUint32(20, true), body.checksum);
    contentAt = body.contentAt;
  } else {
    checkChecksum('body', view.getUint32(20, true), xxh32(bytes.subarray(HEADER_BYTES)));
  }

  const out: SnapshotEntry[] = [];
  let off = HEADER_BYTES;
  let files = 0;
  let total = 0;
  let inPathOrder = true;
  for (let i = 0; i < entryCount; i++) {
    const at = off;
    if (len - off < ENTRY_FIXED_BYTES) bad(`entry ${i} at byte ${at} is cut short: the data ends ${len - off} bytes into it`);
    const kind = bytes[off]!;
    if (kind !== KIND_FILE && kind !== KIND_DIR) {
      bad(`entry ${i} at byte ${at}: unknown kind byte 0x${hex(kind, 2)} (1 = file, 2 = directory)`);
    }
    const pathLength = view.getUint32(off + 1, true);
    const mtimeMs = view.getFloat64(off + 5, true);
    const contentLength = getUint64(view, off + 13);
    off += ENTRY_FIXED_BYTES;
    if (pathLength === 0) bad(`entry ${i} at byte ${at}: the path is empty`);
    if (pathLength > len - off) bad(`entry ${i} at byte ${at} is cut short: its ${pathLength}-byte path runs past the end of the data`);
    let path = '';
    try {
      path = strictUtf8.decode(bytes.subarray(off, off + pathLength));
    } catch {
      bad(`entry ${i} at byte ${at}: the path is not valid UTF-8`);
    }
    const canonical = isCanonicalPathBytes(bytes, off, pathLength);
    off += pathLength;
    if (pathLength > limits.maxPathLength) {
      bad(`${entryLabel(i, path)}: the path is ${pathLength} bytes, over the limit of ${limits.maxPathLength} bytes`);
    }
    if (!canonical) {
      const problem = pathProblem(path);
      if (problem !== undefined) bad(`${entryLabel(i, path)}: the path ${problem}`);
    }
    if (inPathOrder && out.length > 0 && comparePaths(out[out.length - 1]!.path, path) >= 0) inPathOrder = false;
    if (!Number.isFinite(mtimeMs)) bad(`${entryLabel(i, path)}: the modification time is ${mtimeMs}, not a finite number`);
    if (kind === KIND_DIR) {
      if (contentLength !== 0) bad(`${entryLabel(i, path)}: a directory entry with ${contentLength} bytes of content (directories have none)`);
      out.push({ path, kind: 'dir', mtimeMs });
      continue;
    }
    files++;
    if (contentLength > limits.maxFileBytes) {
      bad(`${entryLabel(i, path)}: the file is ${contentLength} bytes, over the per-file limit of ${limits.maxFileBytes} bytes`);
    }
    if (contentLength > len - off) bad(`${entryLabel(i, path)} is cut short: its ${contentLength} bytes of content run past the end of the data`);
    total += contentLength;
    out.push({ path, kind: 'file', mtimeMs, content: contentAt(off, contentLength) });
    off += contentLength;
  }
  if (off !== len) bad(`${counted(len - off, 'byte')} of unexpected data after the last of the ${entryCount} entries`);
  if (files !== fileCount) bad(`the header counts ${counted(fileCount, 'file')} but the entries hold ${files}`);
  if (total !== contentBytes) bad(`the header counts ${contentBytes} content bytes but the files hold ${total}`);
  if (inPathOrder) checkTreeInPathOrder(out, bad);
  else checkTree(out, bad);
  return { entries: out, inPathOrder };
}

/**
 * Where the file contents lie, from the entry headers alone (offsets in `bytes`, [start, end)
 * pairs): what a copying decode lays its copy out by, before the checksum is checked. Stops at
 * the first entry that does not fit, or that goes past the header's counts or the per-file limit
 * (`scanned`), so a damaged body costs no more than the snapshot it claims to be: decoding
 * rejects the snapshot then (at that entry, or at the end for the counts).
 */
function scanFiles(
  bytes: Uint8Array,
  view: DataView,
  entryCount: number,
  fileCount: number,
  contentBytes: number,
  maxFileBytes: number,
): { files: Float64Array; count: number; scanned: number } {
  const len = bytes.length;
  let files = new Float64Array(2 * Math.min(entryCount, 1024));
  let count = 0; // files with content
  let seen = 0; // files
  let total = 0;
  let off = HEADER_BYTES;
  for (let i = 0; i < entryCount && len - off >= ENTRY_FIXED_BYTES; i++) {
    const kind = bytes[off];
    const pathLength = view.getUint32(off + 1, true);
    const contentLength = getUint64(view, off + 13);
    if (pathLength > len - off - ENTRY_FIXED_BYTES || contentLength > len - off - ENTRY_FIXED_BYTES - pathLength) break;
    if (kind === KIND_FILE && (seen++ === fileCount || contentLength > maxFileBytes || contentLength > contentBytes - total)) break;
    off += ENTRY_FIXED_BYTES + pathLength;
    if (kind === KIND_FILE && contentLength > 0) {
      if (2 * count === files.length) {
        const more = new Float64Array(2 * files.length);
        more.set(files);
        files = more;
      }
      files[2 * count] = off;
      files[2 * count + 1] = off + contentLength;
      count++;
      total += contentLength;
    }
    off += contentLength;
  }
  return { files, count, scanned: off };
}

function bad(message: string): never {
  throw new VfsError('ESNAPSHOT', `Invalid snapshot: ${message}.`);
}

function entryLabel(i: number, path: string): string {
  return `entry ${i} (${JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path)})`;
}

function checkMagic(bytes: Uint8Array): void {
  const n = Math.min(bytes.length, MAGIC.length);
  let same = 0;
  while (same < n && bytes[same] === MAGIC[same]) same++;
  if (same === MAGIC.length) return;
  if (same === n) bad(`truncated: expected at least ${HEADER_BYTES} bytes (the header), got ${bytes.length}`);
  if (same >= 4) {
    bad(
      'not an agentvfs snapshot as written: the bytes after "AVFS" should be 0D 0A 1A 0A; ' +
        'it was probably copied in text mode, which rewrites line endings',
    );
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bad('not an agentvfs snapshot: the data is gzip-compressed; decompress it first');
  bad('not an agentvfs snapshot (it does not start with the "AVFS" signature)');
}

function checkChecksum(what: 'header' | 'body', stored: number, computed: number): void {
  if (stored !== computed) {
    bad(`${what} checksum mismatch (stored 0x${hex(stored, 8)}, computed 0x${hex(computed, 8)}): the data is corrupted`);
  }
}

/** Why `path` is not a canonical entry path, or undefined when it is one. */
function pathProblem(path: string): string | undefined {
  if (path === '/') return 'is the root "/", which is implicit and must not be listed';
  let normal: string;
  try {
    normal = normalizePath(path);
  } catch (error) {
    return `is not a valid path (${error instanceof Error ? error.message : String(error)})`;
  }
  if (normal !== path) return `is not absolute and normalized (normalized it would be ${JSON.stringify(normal)})`;
  if (!isWellFormed(path)) return 'contains a lone UTF-16 surrogate, which has no UTF-8 form';
  return undefined;
}

/**
 * A fast sufficient test that a well-formed UTF-8 path (`n` bytes at `off`) is canonical, so that
 * `pathProblem` would find nothing: starts with "/", is not "/", no empty, "." or ".." segment, no
 * trailing "/", no backslash, NUL or line break, no segment over 255 bytes. (Valid UTF-8 has no surrogates.)
 * False means "ask pathProblem", which names the problem.
 */
function isCanonicalPathBytes(bytes: Uint8Array, off: number, n: number): boolean {
  if (n < 2 || bytes[off] !== SLASH) return false;
  let segmentStart = off + 1;
  const end = off + n;
  for (let i = off + 1; i <= end; i++) {
    const b = i === end ? SLASH : bytes[i]!;
    if (b === SLASH) {
      const len = i - segmentStart;
      if (len === 0 || len > MAX_SEGMENT_BYTES) return false;
      if (bytes[segmentStart] === DOT && (len === 1 || (len === 2 && bytes[segmentStart + 1] === DOT))) return false;
      segmentStart = i + 1;
    } else if (b === 0 || b === BACKSLASH || b === 0x0a || b === 0x0d) {
      return false;
    }
  }
  return true;
}

/**
 * checkTree for entries strictly in path order (so no duplicates). In that order everything under
 * a path comes right after it, so an entry lies under a file exactly when the entry after that
 * file does; the first such entry, and the message, are the ones checkTree reports.
 */
function checkTreeInPathOrder(entries: readonly SnapshotEntry[], fail: (message: string) => never): void {
  for (let j = 0; j + 1 < entries.length; j++) {
    const e = entries[j]!;
    if (e.kind !== 'file') continue;
    const next = entries[j + 1]!.path;
    if (next.length > e.path.length && next.charCodeAt(e.path.length) === SLASH && next.startsWith(e.path)) {
      fail(`entry ${j + 1} (${JSON.stringify(next)}) is under a file: ${JSON.stringify(e.path)} (entry ${j}) is a file, not a directory`);
    }
  }
}

/** Rejects duplicate paths and any entry beneath a file. Unlisted ancestors count as implied directories. */
function checkTree(entries: readonly SnapshotEntry[], fail: (message: string) => never): void {
  const index = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const path = entries[i]!.path;
    const first = index.get(path);
    if (first !== undefined) fail(`entries ${first} and ${i} both have the path ${JSON.stringify(path)}`);
    index.set(path, i);
  }
  const checked = new Set<string>(); // ancestors known not to be (or lie under) a file
  for (let i = 0; i < entries.length; i++) {
    const path = entries[i]!.path;
    for (let p = parentOf(path); p !== '/' && !checked.has(p); p = parentOf(p)) {
      const j = index.get(p);
      if (j !== undefined && entries[j]!.kind === 'file') {
        fail(`entry ${i} (${JSON.stringify(path)}) is under a file: ${JSON.stringify(p)} (entry ${j}) is a file, not a directory`);
      }
      checked.add(p);
      if (j !== undefined) break; // a listed directory: its own ancestors are checked as its own entry
    }
  }
}

function getUint64(view: DataView, offset: number): number {
  const hi = view.getUint32(offset + 4, true);
  // Above 2^53 - 1 the value is not exact, but it is then far over any length or limit and rejected.
  return hi * TWO_POW_32 + view.getUint32(offset, true);
}

function setUint64(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value >>> 0, true);
  view.setUint32(offset + 4, Math.floor(value / TWO_POW_32), true);
}

function isUint8Array(value: unknown): value is Uint8Array {
  // Not `instanceof`: also true for a Uint8Array from another realm (iframe, vm context) and for Node Buffers.
  return ArrayBuffer.isView(value) && (value as Uint8Array).BYTES_PER_ELEMENT === 1 && Object.prototype.toString.call(value) === '[object Uint8Array]';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'object') return typeof value;
  if (Array.isArray(value)) return 'an array';
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  return tag === 'ArrayBuffer' ? 'an ArrayBuffer (wrap it: new Uint8Array(buffer))' : `an object (${tag})`;
}

const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

/** True when `bytes` start like a snapshot (its magic), whether or not the rest is valid: what a file holds, before restoring it. */
export function startsLikeSnapshot(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b);
}
