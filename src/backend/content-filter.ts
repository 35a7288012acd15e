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
 * lowercased form. Case-insensitive Unicode folding can map non-ASCII
 * characters onto ASCII letters (K → k, ſ → s), so a file with non-ASCII bytes
 * is always a candidate for an ignore-case search.
 */

interface Filter {
  version: number;
  bits: Uint32Array;
  shift: number;
  nonAscii: boolean;
}

const MIN_BITS_LOG2 = 9;
const MAX_BITS_LOG2 = 27;

export type Trigrams = Uint32Array;

const EXACT = 1 << 24;

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
      out.add(ignoreCase || exact === folded ? folded : exact | EXACT);
    }
  }
  return Uint32Array.from(out);
}

function lower(byte: number): number {
  return byte >= 65 && byte <= 90 ? byte | 0x20 : byte;
}

const h1 = (t: number, shift: number) => Math.imul(t, 0x9e3779b1) >>> shift;
const h2 = (t: number, shift: number) => Math.imul(t ^ 0x5bd1e995, 0x85ebca77) >>> shift;

function set(bits: Uint32Array, key: number, shift: number): void {
  const x = h1(key, shift);
  const y = h2(key, shift);
  bits[x >>> 5]! |= 1 << (x & 31);
  bits[y >>> 5]! |= 1 << (y & 31);
}

function build(bytes: Uint8Array, version: number): Filter {
  let log2 = MIN_BITS_LOG2;
  while (log2 < MAX_BITS_LOG2 && 1 << log2 < bytes.length) log2++;
  const shift = 32 - log2;
  const bits = new Uint32Array(1 << (log2 - 5));
  let nonAscii = false;
  let t = 0;
  let folded = 0;
  let run = 0; // consecutive ASCII bytes ending here
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte & 0x80) {
      nonAscii = true;
      run = 0;
      continue;
    }
    t = ((t << 8) | byte) & 0xffffff;
    folded = ((folded << 8) | lower(byte)) & 0xffffff;
    if (++run >= 3) {
      set(bits, folded, shift);
      if (t !== folded) set(bits, t | EXACT, shift);
    }
  }
  return { version, bits, shift, nonAscii };
}

export class ContentFilters {
  readonly #filters = new Map<string, Filter>();

  /** False only when the file cannot contain every trigram (so cannot match). */
  mayMatch(path: string, version: number, bytes: () => Uint8Array, trigrams: Trigrams, ignoreCase: boolean): boolean {
    if (trigrams.length === 0) return true;
    let filter = this.#filters.get(path);
    if (!filter || filter.version !== version) this.#filters.set(path, (filter = build(bytes(), version)));
    if (ignoreCase && filter.nonAscii) return true;
    const { bits, shift } = filter;
    for (let i = 0; i < trigrams.length; i++) {
      const t = trigrams[i]!;
      const x = h1(t, shift);
      const y = h2(t, shift);
      if (!(bits[x >>> 5]! & (1 << (x & 31))) || !(bits[y >>> 5]! & (1 << (y & 31)))) return false;
    }
    return true;
  }

  /** Drops filters of paths that are no longer files (called when the map outgrows the tree). */
  prune(isFile: (path: string) => boolean, liveFiles: number): void {
    if (this.#filters.size <= liveFiles * 2 + 64) return;
    for (const path of this.#filters.keys()) if (!isFile(path)) this.#filters.delete(path);
  }
}
