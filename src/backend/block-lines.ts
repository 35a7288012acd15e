/**
 * Where the newlines of a large file are, per 4 KiB block, so grep finds the line around a
 * hit and its number without reading the bytes between: in a minified file one line can
 * hold megabytes, and the search skips most blocks. Built with the file's trigram filter.
 */
import { countNewlineBytes } from '../text.ts';

export const BLOCK_BYTES = 4096;

export interface BlockLines {
  /** Newlines before each block's first byte. */
  before: Int32Array;
  /** Offset of each block's first and last newline, or -1. */
  first: Int32Array;
  last: Int32Array;
}

export function indexBlockLines(bytes: Uint8Array): BlockLines {
  const blocks = Math.max(1, Math.ceil(bytes.length / BLOCK_BYTES));
  const before = new Int32Array(blocks);
  const first = new Int32Array(blocks);
  const last = new Int32Array(blocks);
  for (let block = 0, lines = 0; block < blocks; block++) {
    const from = block * BLOCK_BYTES;
    const to = Math.min(bytes.length, from + BLOCK_BYTES);
    before[block] = lines;
    const n = countNewlineBytes(bytes, from, to);
    lines += n;
    first[block] = n === 0 ? -1 : bytes.indexOf(10, from);
    last[block] = n === 0 ? -1 : bytes.lastIndexOf(10, to - 1);
  }
  return { before, first, last };
}

/** Offset where the line holding `at` starts. */
export function lineStart(bytes: Uint8Array, at: number, lines: BlockLines | null): number {
  if (at === 0) return 0;
  if (lines === null) return bytes.lastIndexOf(10, at - 1) + 1; // (a negative index counts from the end)
  let block = Math.floor(at / BLOCK_BYTES);
  const first = lines.first[block]!;
  // A newline in [block start, at): the native search stops inside this block.
  if (first !== -1 && first < at) return bytes.lastIndexOf(10, at - 1) + 1;
  while (--block >= 0) if (lines.last[block] !== -1) return lines.last[block]! + 1;
  return 0;
}

/** Offset of the newline ending the line holding `at`, or the file's length. */
export function lineEnd(bytes: Uint8Array, at: number, lines: BlockLines | null): number {
  if (lines === null || at >= bytes.length) {
    const end = bytes.indexOf(10, at);
    return end === -1 ? bytes.length : end;
  }
  let block = Math.floor(at / BLOCK_BYTES);
  if (lines.last[block]! >= at) return bytes.indexOf(10, at);
  while (++block < lines.first.length) if (lines.first[block] !== -1) return lines.first[block]!;
  return bytes.length;
}

/** 1-based number of the line starting at `start`, counting on from `counted` (known to start line `lineNo`). */
export function lineNumberAt(bytes: Uint8Array, start: number, counted: number, lineNo: number, lines: BlockLines | null): number {
  if (lines !== null) {
    const block = Math.floor(start / BLOCK_BYTES);
    if (block * BLOCK_BYTES > counted) return lines.before[block]! + 1 + countNewlineBytes(bytes, block * BLOCK_BYTES, start);
  }
  return lineNo + countNewlineBytes(bytes, counted, start);
}
