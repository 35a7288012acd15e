/**
 * The copy a copying restore makes of a snapshot's file contents, made in the same pass that
 * hashes the body (a 64 KiB piece at a time, each still in the CPU cache when it is hashed): one
 * read of the input instead of two.
 *
 * The copy is laid out as bulk-buffers.ts says (a buffer per file, or shared buffers for a big
 * snapshot), cut only between files, so a file is one view into one buffer.
 */
import { ownsBuffer, sharedBufferBytes } from '../bulk-buffers.ts';
import { CACHE_PIECE_BYTES, Xxh32 } from './xxhash32.ts';

export interface BodyCopy {
  /** The body's XXH32, to compare with the stored one before anything is used. */
  checksum: number;
  /** The copy of the `length` bytes at `start` (an offset in the input). */
  contentAt(start: number, length: number): Uint8Array;
}

/** A run of the body, `start` to `end` (offsets in the input), copied into `buffer` (null: hashed only). */
interface Range {
  start: number;
  end: number;
  buffer: Uint8Array | null;
}

/**
 * Copies and hashes `bytes` from `bodyStart` to its end. `files` holds the contents' [start, end)
 * offsets in order, as a scan of the entry headers found them (`count` pairs); what lies after
 * `scanned` (where a scan of a damaged body stopped) is hashed, not copied ahead: decoding
 * rejects it, and a file asked for there gets a copy of its own.
 */
export function copyBodyHashing(
  bytes: Uint8Array,
  bodyStart: number,
  files: Float64Array,
  count: number,
  scanned: number,
  shared = sharedBufferBytes(bytes.length - bodyStart), // (tests pass a smaller one)
): BodyCopy {
  const ranges = layout(bodyStart, files, count, scanned, bytes.length, shared);
  const hash = new Xxh32();
  let checksum = 0;
  let r = 0;
  for (let at = bodyStart; ; at += CACHE_PIECE_BYTES) {
    const end = Math.min(at + CACHE_PIECE_BYTES, bytes.length);
    for (let from = at; from < end; ) {
      while (ranges[r]!.end <= from) r++;
      const range = ranges[r]!;
      const to = Math.min(end, range.end);
      range.buffer?.set(bytes.subarray(from, to), from - range.start);
      from = to;
    }
    if (end - at < CACHE_PIECE_BYTES) {
      checksum = hash.digest(bytes.subarray(at, end));
      break;
    }
    hash.stripes(bytes.subarray(at, end));
  }
  let cursor = 0;
  return {
    checksum,
    contentAt(start, length) {
      if (length === 0) return new Uint8Array(0);
      while (ranges[cursor]!.end <= start) cursor++; // files are asked for in order
      const range = ranges[cursor]!;
      // Past where the scan stopped (a snapshot whose counts are wrong, rejected once decoded): a copy of its own.
      if (range.buffer === null || start + length > range.end) return bytes.slice(start, start + length);
      return range.buffer.subarray(start - range.start, start - range.start + length);
    },
  };
}

/** `shared`: the size of the shared buffers; 0, a buffer per file (entry headers are then only hashed). */
function layout(bodyStart: number, files: Float64Array, count: number, scanned: number, end: number, shared: number): Range[] {
  const ranges: Range[] = [];
  const add = (start: number, to: number, copied: boolean) => {
    if (to > start) ranges.push({ start, end: to, buffer: copied ? new Uint8Array(to - start) : null });
  };
  let partStart = bodyStart;
  for (let i = 0; i < count; i++) {
    const start = files[2 * i]!;
    const stop = files[2 * i + 1]!;
    if (ownsBuffer(stop - start, shared)) {
      add(partStart, start, shared > 0);
      add(start, stop, true);
      partStart = stop;
    } else if (stop - partStart > shared && start > partStart) {
      add(partStart, start, true);
      partStart = start;
    }
  }
  add(partStart, scanned, shared > 0);
  add(scanned, end, false);
  ranges.push({ start: end, end: Number.POSITIVE_INFINITY, buffer: null }); // (the loops' sentinel)
  return ranges;
}
