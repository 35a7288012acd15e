/**
 * Bloom filters of byte trigrams, one per 4 KiB block of a file, so grep skips files that
 * cannot contain a pattern's required literals, and the blocks of a large file that cannot
 * hold its anchor literal, without decoding or scanning them (the idea of Code Search /
 * Zoekt's trigram index, in about two bits per byte). Filters are built lazily, a part at each
 * search that needs them (or all by prepareSearch), and kept by the search index (filters.ts)
 * under the identity of the bytes they index, which every write replaces, so writes pay nothing.
 *
 * Trigrams are ASCII-only. Each is recorded lowercased, and a trigram with
 * capitals is also recorded exactly (under a tag bit), so a case-sensitive
 * query can tell "Sync" from "sync" while an ignore-case one uses the
 * lowercased form. Case-insensitive Unicode folding maps two non-ASCII
 * characters onto ASCII letters (U+212A K → k, U+017F ſ → s), so in a file
 * holding either an ignore-case query cannot rely on its trigrams that hold
 * a k or an s.
 *
 * A trigram is recorded in the block holding its last byte. An occurrence of a literal of
 * at most BLOCK_BYTES bytes whose first trigram ends in block j has all its trigrams in
 * blocks j and j + 1, which is what candidateRanges() checks. The build also indexes the
 * newlines of each block (block-lines.ts) and notes whether the file is binary.
 */

import { isBinary } from '../text.ts';
import { BLOCK_BYTES, type BlockLines, indexBlockLines } from './block-lines.ts';

export interface Filter {
  /**
   * Word w of block b is bits[w * blocks + b]: a query reads one word of every block per
   * trigram, so the words it reads lie side by side (measured 3-4% faster per search at 4x
   * than block after block).
   */
  bits: Int32Array;
  /** Every block's bits or-ed together (`bits` itself for a file of one block): the file-wide check. */
  any: Int32Array;
  /** 32 - log2(words per block): the top bits of a hash pick the word in its block. */
  shift: number;
  blocks: number;
  /** Newlines per block, for a file of more than one block. */
  lines: BlockLines | null;
  /** The file holds K (U+212A) or ſ (U+017F), which ignore-case matching folds onto k and s. */
  foldsToAscii: boolean;
  binary: boolean;
}

const MIN_BITS_LOG2 = 9;
// Two bits per byte: a 4 KiB block gets 8192 bits; a smaller file the next power of two. A
// block of minified code holds ~3,000 distinct trigrams (more with the exact forms of capitals),
// which filled one bit per byte to ~75%: `Sync` then passed 2.4x as many blocks as hold it;
// with two bits per byte and three per trigram, 1.25x. Measured ~25% faster regex searches
// at 1x, for 11 MB more memory (16% of the corpus).
const BLOCK_BITS_LOG2 = 13;

export type Trigrams = Uint32Array;

const EXACT = 1 << 24;
// Marks an ignore-case query trigram with a k or an s (see above); not part of the key.
const FOLDS_FROM_NON_ASCII = 1 << 25;
const KEY = FOLDS_FROM_NON_ASCII - 1;

/** Keys of the ASCII trigrams every match must contain, from the required literals. */
export function queryTrigrams(literals: readonly string[], ignoreCase: boolean): Trigrams {
  const out = new Set<number>();
  const encoder = new TextEncoder();
  for (const literal of literals) {
    const bytes = encoder.encode(literal);
    for (let i = 0; i + 2 < bytes.length; i++) {
      const a = bytes[i]!;
      const b = bytes[i + 1]!;
      const c = bytes[i + 2]!;
      if ((a | b | c) & 0x80) continue;
      const folded = (lower(a) << 16) | (lower(b) << 8) | lower(c);
      const exact = (a << 16) | (b << 8) | c;
      if (!ignoreCase) out.add(exact === folded ? folded : exact | EXACT);
      else out.add([a, b, c].some((x) => lower(x) === 0x6b || lower(x) === 0x73) ? folded | FOLDS_FROM_NON_ASCII : folded);
    }
  }
  return Uint32Array.from(out);
}

function lower(byte: number): number {
  return byte >= 65 && byte <= 90 ? byte | 0x20 : byte;
}

// A blocked Bloom filter: one multiply of the trigram gives both the 32-bit word (its top
// bits) and three bits in it (its low bits), so adding a trigram is one multiply and one
// read-modify-write, and checking one is one read. Building the filters is most of a first
// search's time: this measured ~1.5x faster than two multiplies into two separate words.
function hash(t: number): number {
  return Math.imul(t, 0x9e3779b1);
}
function bitsOf(h: number): number {
  return (1 << (h & 31)) | (1 << ((h >>> 5) & 31)) | (1 << ((h >>> 10) & 31));
}

// ASCII lowercase by table: the build loop runs once per byte of every file.
const LOWER = new Uint8Array(128);
for (let b = 0; b < 128; b++) LOWER[b] = lower(b);

/** The filter of a file's bytes. */
export function buildFilter(bytes: Uint8Array): Filter {
  const n = bytes.length;
  const blocks = Math.max(1, Math.ceil(n / BLOCK_BYTES));
  let log2 = MIN_BITS_LOG2;
  while (log2 < BLOCK_BITS_LOG2 && 1 << log2 < 2 * n) log2++;
  const wordsLog2 = log2 - 5;
  const shift = 32 - wordsLog2;
  const bits = new Int32Array(blocks << wordsLog2);
  let foldsToAscii = false;
  let t = 0;
  let folded = 0;
  let run = 0; // consecutive ASCII bytes ending here
  for (let block = 0; block < blocks; block++) {
    const from = block * BLOCK_BYTES;
    const to = Math.min(n, from + BLOCK_BYTES);
    for (let i = from; i < to; i++) {
      const byte = bytes[i]!;
      if (byte & 0x80) {
        // ſ is C5 BF, K is E2 84 AA.
        if ((byte === 0xc5 && bytes[i + 1] === 0xbf) || (byte === 0xe2 && bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa)) foldsToAscii = true;
        run = 0;
        continue;
      }
      t = ((t << 8) | byte) & 0xffffff;
      folded = ((folded << 8) | LOWER[byte]!) & 0xffffff;
      if (++run >= 3) {
        const h = hash(folded);
        bits[(h >>> shift) * blocks + block]! |= bitsOf(h);
        if (t !== folded) {
          const e = hash(t | EXACT);
          bits[(e >>> shift) * blocks + block]! |= bitsOf(e);
        }
      }
    }
  }
  let any = bits;
  if (blocks > 1) {
    any = new Int32Array(1 << wordsLog2);
    for (let w = 0; w < bits.length; w++) any[Math.floor(w / blocks)]! |= bits[w]!;
  }
  const lines = blocks > 1 ? indexBlockLines(bytes) : null;
  return { bits, any, shift, blocks, lines, foldsToAscii, binary: isBinary(bytes) };
}

function usable(filter: Filter, t: number): boolean {
  return !(filter.foldsToAscii && t & FOLDS_FROM_NON_ASCII);
}

/** False only when the file cannot contain every trigram (so cannot match). */
export function mayMatch(filter: Filter, trigrams: Trigrams): boolean {
  const { any, shift } = filter;
  for (let i = 0; i < trigrams.length; i++) {
    const t = trigrams[i]!;
    if (!usable(filter, t)) continue;
    const h = hash(t & KEY);
    const want = bitsOf(h);
    if ((any[h >>> shift]! & want) !== want) return false;
  }
  return true;
}

/**
 * Where a literal of `length` bytes with these trigrams may occur: flat [from, to) pairs,
 * ascending and disjoint, holding every possible occurrence; null when the whole file must
 * be searched (one block, no usable trigram, or a literal longer than a block).
 *
 * An occurrence lies in one block, whose filter then holds all its trigrams, or straddles
 * a boundary, and then its trigrams are in the two blocks around it and it starts within
 * `length` bytes of the boundary. So: every block holding all the trigrams, and the few
 * bytes around every boundary whose two blocks hold them between them.
 */
export function candidateRanges(filter: Filter, trigrams: Trigrams, length: number, byteLength: number): number[] | null {
  if (filter.blocks === 1 || length > BLOCK_BYTES) return null;
  // Up to 30 of the trigrams (any subset of them holds too), each as its word in a block and
  // the bits it needs there; which of them a block holds is one number.
  const words: number[] = [];
  const wants: number[] = [];
  for (let i = 0; i < trigrams.length && words.length < 30; i++) {
    if (!usable(filter, trigrams[i]!)) continue;
    const h = hash(trigrams[i]! & KEY);
    words.push(h >>> filter.shift);
    wants.push(bitsOf(h));
  }
  if (words.length === 0) return null;
  const all = (1 << words.length) - 1;
  const { bits, blocks } = filter;
  for (let k = 0; k < words.length; k++) words[k]! *= blocks; // where the word's row starts
  const present = (block: number) => {
    let mask = 0;
    for (let k = 0; k < words.length; k++) if ((bits[words[k]! + block]! & wants[k]!) === wants[k]) mask |= 1 << k;
    return mask;
  };
  const ranges: number[] = [];
  const add = (from: number, to: number) => {
    if (ranges.length > 0 && ranges[ranges.length - 1]! >= from) ranges[ranges.length - 1] = to;
    else ranges.push(from, to);
  };
  let here = present(0);
  for (let block = 0; block < filter.blocks; block++) {
    const boundary = (block + 1) * BLOCK_BYTES;
    if (here === all) add(Math.max(0, block * BLOCK_BYTES - 2), Math.min(byteLength, boundary));
    if (block + 1 === filter.blocks) break;
    const next = present(block + 1);
    // A straddling occurrence has a trigram ending on each side, so it is at least 4 bytes.
    if (length > 3 && (here | next) === all) add(boundary - length + 1, Math.min(byteLength, boundary + length - 3));
    here = next;
  }
  return ranges;
}
