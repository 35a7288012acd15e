/**
 * Code points read straight from UTF-8 bytes, so the DFA can rule out a long line without
 * decoding it. Strict: only what a WHATWG decoder turns into the same code point is read
 * (no overlong forms, surrogates or values past U+10FFFF); anything else is INVALID, and
 * the caller decodes the line instead, where the decoder's U+FFFD rules apply.
 */

export const INVALID = -1;

/**
 * The code point starting at `i` (< end) and its length in bytes, as `(cp << 3) | length`;
 * INVALID when the bytes there are not one whole, well-formed sequence before `end`.
 */
export function utf8At(b: Uint8Array, i: number, end: number): number {
  const b0 = b[i]!;
  if (b0 < 0x80) return (b0 << 3) | 1;
  if (b0 < 0xc2 || b0 > 0xf4) return INVALID; // a continuation byte, or an overlong/out-of-range lead
  if (b0 < 0xe0) {
    if (i + 1 >= end) return INVALID;
    const b1 = b[i + 1]!;
    return (b1 & 0xc0) === 0x80 ? ((((b0 & 0x1f) << 6) | (b1 & 0x3f)) << 3) | 2 : INVALID;
  }
  if (b0 < 0xf0) {
    if (i + 2 >= end) return INVALID;
    const b1 = b[i + 1]!;
    const b2 = b[i + 2]!;
    // E0 needs A0..BF (no overlong), ED needs 80..9F (no surrogates).
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    if (b1 < lo || b1 > hi || (b2 & 0xc0) !== 0x80) return INVALID;
    return ((((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f)) << 3) | 3;
  }
  if (i + 3 >= end) return INVALID;
  const b1 = b[i + 1]!;
  const b2 = b[i + 2]!;
  const b3 = b[i + 3]!;
  // F0 needs 90..BF (no overlong), F4 needs 80..8F (nothing past U+10FFFF).
  const lo = b0 === 0xf0 ? 0x90 : 0x80;
  const hi = b0 === 0xf4 ? 0x8f : 0xbf;
  if (b1 < lo || b1 > hi || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return INVALID;
  return ((((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f)) << 3) | 4;
}

/** The code point that ends just before `i` (start < i), not reading before `start`; INVALID when none ends exactly there. */
export function utf8Before(b: Uint8Array, start: number, i: number): number {
  const last = b[i - 1]!;
  if (last < 0x80) return last;
  // Back over at most three continuation bytes to the lead byte, then read forward.
  let lead = i - 1;
  while (lead > start && lead > i - 4 && (b[lead]! & 0xc0) === 0x80) lead--;
  const read = utf8At(b, lead, i);
  return read !== INVALID && lead + (read & 7) === i ? read >> 3 : INVALID;
}
