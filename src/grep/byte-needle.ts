/**
 * Substring search in a file's UTF-8 bytes, so grep finds a pattern's required literal
 * without decoding the file: only the lines around a hit are decoded. Decoding was most of
 * a search's time (about 2 ns a byte here, against well under 1 for this skip loop).
 *
 * A hit in the bytes is a hit in the decoded text and the reverse, for a needle of valid
 * UTF-8 (it was encoded from a string): UTF-8 is self-synchronizing, and a WHATWG decoder
 * never folds an ASCII byte or a valid sequence into the U+FFFD of a broken neighbour.
 * U+FFFD itself breaks that (the decoder also makes it from broken bytes), so needles
 * holding it are refused. A hit on a file's leading BOM, which decodeText drops, is only
 * a candidate: callers confirm every line with the matcher.
 */

const encoder = new TextEncoder();

// ASCII case folding by table; every other byte maps to itself.
const FOLD = new Uint8Array(256);
for (let b = 0; b < 256; b++) FOLD[b] = b >= 65 && b <= 90 ? b | 0x20 : b;
const SAME = new Uint8Array(256);
for (let b = 0; b < 256; b++) SAME[b] = b;

/**
 * True when the bytes hold U+017F (ſ, C5 BF) or U+212A (K, E2 84 AA): the only non-ASCII
 * characters that ignore-case matching folds onto ASCII letters (s, k). Without them, an
 * ASCII-folding byte search finds every ignore-case match of an ASCII literal.
 */
export function holdsAsciiFolds(bytes: Uint8Array): boolean {
  for (let i = bytes.indexOf(0xc5); i !== -1; i = bytes.indexOf(0xc5, i + 1)) if (bytes[i + 1] === 0xbf) return true;
  for (let i = bytes.indexOf(0xe2); i !== -1; i = bytes.indexOf(0xe2, i + 1)) if (bytes[i + 1] === 0x84 && bytes[i + 2] === 0xaa) return true;
  return false;
}

export class ByteNeedle {
  readonly #needle: Uint8Array;
  readonly #fold: Uint8Array;
  readonly #skip = new Int32Array(256);
  /**
   * Unicode folding maps two non-ASCII characters onto ASCII letters (U+212A KELVIN SIGN
   * onto k, U+017F LONG S onto s), which an ASCII-folding byte search cannot see: with
   * this set, a file that holds either (holdsAsciiFolds) must be searched as text instead.
   */
  readonly missesNonAscii: boolean;

  private constructor(needle: Uint8Array, foldAscii: boolean) {
    this.#fold = foldAscii ? FOLD : SAME;
    this.#needle = needle.map((b) => this.#fold[b]!);
    this.missesNonAscii = foldAscii && (this.#needle.includes(0x6b) || this.#needle.includes(0x73));
    // Horspool: how far the window may move when its last byte is b.
    const last = needle.length - 1;
    this.#skip.fill(needle.length);
    for (let i = 0; i < last; i++) {
      const b = this.#needle[i]!;
      this.#skip[b] = last - i;
      if (foldAscii && b >= 97 && b <= 122) this.#skip[b ^ 0x20] = last - i;
    }
  }

  /**
   * A needle for `literal`, or null when bytes cannot stand for it. With `ignoreCase` the
   * literal must be folded already (foldCase) and ASCII: only ASCII letters fold here.
   */
  static for(literal: string, ignoreCase: boolean): ByteNeedle | null {
    if (literal.length === 0 || literal.includes('\ufffd')) return null;
    // eslint-disable-next-line no-control-regex
    if (ignoreCase && /[^\x00-\x7f]/.test(literal)) return null;
    return new ByteNeedle(encoder.encode(literal), ignoreCase);
  }

  /** The needle's length in bytes. */
  get length(): number {
    return this.#needle.length;
  }

  /** Offset of the first occurrence in hay[from, to), or -1. */
  indexIn(hay: Uint8Array, from = 0, to = hay.length): number {
    const needle = this.#needle;
    const fold = this.#fold;
    const skip = this.#skip;
    const last = needle.length - 1;
    const tail = needle[last]!;
    const n = Math.min(to, hay.length);
    if (fold === SAME) {
      // Case-sensitive: the same loop without the table lookup per byte (most searches).
      for (let end = from + last; end < n; ) {
        const b = hay[end]!;
        if (b === tail) {
          let i = last - 1;
          const start = end - last;
          while (i >= 0 && hay[start + i] === needle[i]) i--;
          if (i < 0) return start;
        }
        end += skip[b]!;
      }
      return -1;
    }
    for (let end = from + last; end < n; ) {
      const b = hay[end]!;
      if (fold[b] === tail) {
        let i = last - 1;
        const start = end - last;
        while (i >= 0 && fold[hay[start + i]!] === needle[i]) i--;
        if (i < 0) return start;
      }
      end += skip[b]!;
    }
    return -1;
  }
}
