/**
 * How a workspace lies in a store: one record per file or directory, each with its own
 * checksum, and a `meta` record naming the format. Keys:
 *   meta          JSON {"format":"agentvfs-workspace","version":1}
 *   f:<path>      xxh32 u32 | kind u8 (1) | 3 zero bytes | mtime f64 | content
 *   d:<path>      xxh32 u32 | kind u8 (2) | 3 zero bytes | mtime f64
 *   aside:<id>    what a corrupt or foreign workspace held, with the reason (never opened; readKeptAside reads it)
 * The checksum covers the key and everything after it, so a value moved to another key is
 * caught too. All numbers little-endian.
 */
import { comparePaths } from '../paths.ts';
import { toWellFormed } from '../text.ts';
import { encodeSnapshot, type SnapshotEntry } from '../snapshot/format.ts';
import { xxh32 } from '../snapshot/xxhash32.ts';

export const META_KEY = 'meta';
export const ASIDE_PREFIX = 'aside:';
/** The key under which the IndexedDB store gives a pack that does not decode (`pack:<n>`). */
export const BAD_PACK_PREFIX = 'pack:';
const FILE_PREFIX = 'f:';
const DIR_PREFIX = 'd:';
const FORMAT = 'agentvfs-workspace';
const VERSION = 1;
const HEADER = 16;
const KIND_FILE = 1;
const KIND_DIR = 2;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const fileKey = (path: string) => FILE_PREFIX + path;
export const dirKey = (path: string) => DIR_PREFIX + path;

export function encodeMeta(): Uint8Array {
  return encoder.encode(JSON.stringify({ format: FORMAT, version: VERSION }));
}

/** One file's or directory's record (content absent for a directory). */
export function encodeRecord(key: string, mtimeMs: number, content?: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER + (content?.length ?? 0));
  const view = new DataView(out.buffer);
  out[4] = content ? KIND_FILE : KIND_DIR;
  view.setFloat64(8, mtimeMs, true);
  if (content) out.set(content, HEADER);
  view.setUint32(0, xxh32(out.subarray(4), xxh32(encoder.encode(key))), true);
  return out;
}

/** Why a store's contents are not a workspace this version can open, or null when they are. */
function checkMeta(value: Uint8Array | undefined): string | null {
  if (value === undefined) return 'it has records but no "meta" record: not an agentvfs workspace';
  let meta: unknown;
  try {
    meta = JSON.parse(decoder.decode(value));
  } catch {
    return 'its "meta" record is not JSON';
  }
  const { format, version } = (meta ?? {}) as { format?: unknown; version?: unknown };
  if (format !== FORMAT) return `its "meta" record names format ${JSON.stringify(format)}, not "${FORMAT}"`;
  if (version !== VERSION) return `it is workspace format version ${JSON.stringify(version)}; this agentvfs reads version ${VERSION}`;
  return null;
}

let keyBytes = new Uint8Array(1024);
/** xxh32 of the key's UTF-8, the seed of its record's checksum (encoded into one reused buffer: opening checks every record). */
function keySeed(key: string): number {
  if (keyBytes.length < key.length * 3) keyBytes = new Uint8Array(key.length * 3);
  const { written } = encoder.encodeInto(key, keyBytes);
  return xxh32(keyBytes.subarray(0, written));
}

/** The file or directory one record holds, or why it is not a good record. */
export function decodeRecord(key: string, value: Uint8Array): SnapshotEntry | string {
  const isFile = key.startsWith(FILE_PREFIX);
  if (key.startsWith(BAD_PACK_PREFIX)) return `record ${JSON.stringify(key)} (an IndexedDB pack of many records) does not decode: it is damaged`;
  if (!isFile && !key.startsWith(DIR_PREFIX)) return `unknown record ${JSON.stringify(key.slice(0, 80))}`;
  if (!(value instanceof Uint8Array) || value.length < HEADER) return `record ${JSON.stringify(key)} is truncated`;
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  if (view.getUint32(0, true) !== xxh32(value.subarray(4), keySeed(key))) return `record ${JSON.stringify(key)} fails its checksum`;
  if (value[4] !== (isFile ? KIND_FILE : KIND_DIR) || (!isFile && value.length !== HEADER)) return `record ${JSON.stringify(key)} has the wrong kind or length`;
  // A name with a lone surrogate (accepted before paths refused them) opens as it did then, with U+FFFD for it.
  const path = toWellFormed(key.slice(2));
  const mtimeMs = view.getFloat64(8, true);
  return isFile ? { path, kind: 'file', mtimeMs, content: value.subarray(HEADER) } : { path, kind: 'dir', mtimeMs };
}

/** A stored value as bytes: an ArrayBuffer viewed, anything else that is not bytes as notBytes(). */
export function asBytes(value: unknown): Uint8Array {
  return value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : notBytes(value);
}

/**
 * What a store row that holds no bytes (not ours: a string, an object, null) is read as: a
 * record that fails its check, so the workspace is reported and kept aside, and that keeps what
 * the row held, as text, for the person who looks at what was kept aside.
 */
function notBytes(value: unknown): Uint8Array {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  return encoder.encode(`not bytes: ${shown}`);
}

/** `entries` as a snapshot for `restore`, in path order (so restore need not sort them). */
export function snapshotOf(entries: SnapshotEntry[]): Uint8Array {
  // Validated (EINVAL for records that make no tree), so a restore that refuses it can only be refusing its size.
  return encodeSnapshot(entries.sort((a, b) => comparePaths(a.path, b.path)));
}

/** True for the key of a file or directory record. */
export const isEntryKey = (key: string) => key.startsWith(FILE_PREFIX) || key.startsWith(DIR_PREFIX);

/**
 * The entries a store holds, checked record by record (nothing is returned unless all are
 * good), or the first problem found. Records under `aside:` are skipped.
 */
export function decodeRecords(all: ReadonlyMap<string, Uint8Array>): { entries: SnapshotEntry[] } | { problem: string } {
  // A damaged pack may have held "meta" as well: named first, it is not reported as a store without one.
  for (const [key, value] of all) if (key.startsWith(BAD_PACK_PREFIX)) return { problem: decodeRecord(key, value) as string };
  const metaProblem = checkMeta(all.get(META_KEY));
  if (metaProblem) return { problem: metaProblem };
  const entries: SnapshotEntry[] = [];
  for (const [key, value] of all) {
    if (key === META_KEY || key.startsWith(ASIDE_PREFIX)) continue;
    const entry = decodeRecord(key, value);
    if (typeof entry === 'string') return { problem: entry };
    entries.push(entry);
  }
  return { entries };
}

/** Every workspace key of a store (everything but what was kept aside). */
export function workspaceKeys(all: ReadonlyMap<string, Uint8Array>): string[] {
  return [...all.keys()].filter((k) => !k.startsWith(ASIDE_PREFIX));
}

/**
 * What is kept aside: the reason, then each key and value, so nothing is lost and a person can
 * still recover it. Layout: u32 JSON length | JSON {reason, at, keys: [[key, length], …]} | values.
 */
export function encodeAside(reason: string, records: ReadonlyArray<readonly [string, Uint8Array]>): Uint8Array {
  const head = encoder.encode(JSON.stringify({ reason, at: Date.now(), keys: records.map(([k, v]) => [k, v.length]) }));
  let size = 4 + head.length;
  for (const [, v] of records) size += v.length;
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const [, v] of records) {
    out.set(v, at);
    at += v.length;
  }
  return out;
}

/** The reason and records of something kept aside by encodeAside. */
export function decodeAside(bytes: Uint8Array): { reason: string; at: number; records: Array<[string, Uint8Array]> } {
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const head = JSON.parse(decoder.decode(bytes.subarray(4, 4 + headLength))) as { reason: string; at: number; keys: Array<[string, number]> };
  let at = 4 + headLength;
  const records = head.keys.map(([key, length]): [string, Uint8Array] => {
    const value = bytes.subarray(at, at + length);
    at += length;
    return [key, value];
  });
  return { reason: head.reason, at: head.at, records };
}

export const asideKey = () => `${ASIDE_PREFIX}${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
