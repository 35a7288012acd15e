/** What the zero-width assertions see at a position: the properties of the code points on either side. */

import { IS_NEWLINE, IS_WORD } from './alphabet.ts';
import { BEGIN_LINE, BEGIN_TEXT, END_LINE, END_TEXT, NO_WORD_BOUNDARY, WORD_BOUNDARY } from './parse.ts';

/** Property bits of one side: IS_WORD, IS_NEWLINE, or EDGE (start or end of the text). */
export const EDGE = 4;

/** The code point that ends just before offset `i` (> 0). */
export function codePointBefore(line: string, i: number): number {
  const c = line.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const h = line.charCodeAt(i - 2);
    if (h >= 0xd800 && h <= 0xdbff) return (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
  }
  return c;
}

/** Assertion bits that hold between a code point with props `before` and one with props `after`. */
export function contextOf(before: number, after: number): number {
  return CONTEXT[before * 8 + after]!;
}

const CONTEXT = Int32Array.from({ length: 64 }, (_, i) => {
  const before = i >> 3;
  const after = i & 7;
  let c = 0;
  if (before & EDGE) c |= BEGIN_TEXT | BEGIN_LINE;
  else if (before & IS_NEWLINE) c |= BEGIN_LINE;
  if (after & EDGE) c |= END_TEXT | END_LINE;
  else if (after & IS_NEWLINE) c |= END_LINE;
  return c | ((before & IS_WORD) !== (after & IS_WORD) ? WORD_BOUNDARY : NO_WORD_BOUNDARY);
});
