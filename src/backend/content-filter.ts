/**
 * A per-file Bloom filter of byte trigrams, so grep skips files that cannot
 * contain a pattern's required literals without decoding or scanning them
 * (the idea of Code Search / Zoekt's trigram index, in one bit per byte).
 * Filters are built lazily at the first search that needs them and rebuilt
 * when a file's version changes, so writes pay nothing.
 *
 * Trigrams are ASCII-only. Each is recorded lowercased, and a trigram with
 * capitals is also recorded exactly (under a tag bit), so a case-sensitive
 * query can tell "Sync" from "sync" while an ignore-case one uses the
 * lowercased form. Case-insensitive Unicode folding maps two non-ASCII
 * characters onto ASCII letters (U+212A K → k, U+017F ſ → s), so in a file
 * with non-ASCII bytes an ignore-case query cannot rely on its trigrams that
 * hold a k or an s.
 */

export interface Filter {
  version: number;
  bits: Int32Array;
  shift: number;
  nonAscii: boolean;
}

const MIN_BITS_LOG2 = 9;
const MAX_BITS_LOG2 = 27;

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
// bits) and two bits in it (its low bits), so adding a trigram is one multiply and one
// read-modify-write, and checking one is one read. Building the filters is most of a first
// search's time: this measured ~1.5x faster than two multiplies into two separate words.
function hash(t: number): number {
  return Math.imul(t, 0x9e3779b1);
}
function bitsOf(h: number): number {
  return (1 << (h & 31)) | (1 << ((h >>> 5) & 31));
}

// ASCII lowercase by table: the build loop runs once per byte of every file.
const LOWER = new Uint8Array(128);
for (let b = 0; b < 128; b++) LOWER[b] = lower(b);

function build(bytes: Uint8Array, version: number): Filter {
  let log2 = MIN_BITS_LOG2;
  while (log2 < MAX_BITS_LOG2 && 1 << log2 < bytes.length) log2++;
  const shift = 32 - (log2 - 5); // selects one of the 2^(log2-5) words
  const bits = new Int32Array(1 << (log2 - 5));
  let nonAscii = false;
  let t = 0;
  let folded = 0;
  let run = 0; // consecutive ASCII bytes ending here
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const byte = bytes[i]!;
    if (byte & 0x80) {
      nonAscii = true;
      run = 0;
      continue;
    }
    t = ((t << 8) | byte) & 0xffffff;
    folded = ((folded << 8) | LOWER[byte]!) & 0xffffff;
    if (++run >= 3) {
      const h = hash(folded);
      bits[h >>> shift]! |= bitsOf(h);
      if (t !== folded) {
        const e = hash(t | EXACT);
        bits[e >>> shift]! |= bitsOf(e);
      }
    }
  }
  return { version, bits, shift, nonAscii };
}

export class ContentFilters {
  readonly #filters = new Map<string, Filter>();

  /** The file's filter, built (or rebuilt after a write) on first use. */
  of(path: string, version: number, files: { view(path: string): Uint8Array }): Filter {
    let filter = this.#filters.get(path);
    if (!filter || filter.version !== version) this.#filters.set(path, (filter = build(files.view(path), version)));
    return filter;
  }

  /** Drops filters of paths that are no longer files (called when the map outgrows the tree). */
  prune(isFile: (path: string) => boolean, liveFiles: number): void {
    if (this.#filters.size <= liveFiles * 2 + 64) return;
    for (const path of this.#filters.keys()) if (!isFile(path)) this.#filters.delete(path);
  }
}

/** False only when the file cannot contain every trigram (so cannot match). */
export function mayMatch(filter: Filter, trigrams: Trigrams): boolean {
  const { bits, shift, nonAscii } = filter;
  for (let i = 0; i < trigrams.length; i++) {
    const t = trigrams[i]!;
    if (nonAscii && t & FOLDS_FROM_NON_ASCII) continue;
    const h = hash(t & KEY);
    const want = bitsOf(h);
    if ((bits[h >>> shift]! & want) !== want) return false;
  }
  return true;
}
