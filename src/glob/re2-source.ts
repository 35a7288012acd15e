/**
 * picomatch's regular expressions (JavaScript syntax, no "u" flag) in the RE2 syntax grep's
 * matcher reads, matching the same normalized paths, or why not:
 * - picomatch keeps "." and ".." segments and empty names out with lookaheads; the paths matched
 *   here are normalized (no such segment, no empty name), so those always hold and are dropped.
 *   Any other lookahead (a negated group "!(…)") has no RE2 form: `{ lookahead: true }`.
 * - An escaped character that JavaScript reads as itself (`\é`, `\z`, `\Q`: a glob's "\z" is "z")
 *   becomes that character; `\xHH`, `\uHHHH`, `\cX`, `\0` become the character they name.
 * - `[]` (no character) and `[^]` (any character) get RE2 forms.
 */
const HOLD_FOR_NORMALIZED_PATHS = new Set(['(?!\\.{1,2}(?:\\/|$))', '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))', '(?=.)']);
/** Escapes that mean the same in RE2 (outside a class; inside one, \b is a backspace). */
const SAME_IN_RE2 = new Set(['d', 'D', 'w', 'W', 's', 'S', 'n', 'r', 't', 'v', 'f', 'b', 'B']);
const NOTHING = '[^\\x00-\\x{10FFFF}]';
const ANYTHING = '[\\x00-\\x{10FFFF}]';

export type Re2Source = string | { lookahead: true; unsupported?: undefined } | { lookahead?: undefined; unsupported: string };

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;

export function toRe2(source: string): Re2Source {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source.codePointAt(i + 1);
      if (next === undefined) return { unsupported: 'it ends with a lone "\\"' };
      const n = String.fromCodePoint(next);
      i += 1 + n.length;
      if (next > 0x7f) out += n;
      else if (!/[A-Za-z0-9]/.test(n))
        out += `\\${n}`; // punctuation: escaped alike
      else if (SAME_IN_RE2.has(n) && !(inClass && (n === 'b' || n === 'B'))) out += `\\${n}`;
      else if (inClass && n === 'b') out += '\\x08';
      else if (n === 'x' && /^[0-9A-Fa-f]{2}/.test(source.slice(i))) (out += hex(Number.parseInt(source.slice(i, i + 2), 16))), (i += 2);
      else if (n === 'u' && /^[0-9A-Fa-f]{4}/.test(source.slice(i))) (out += hex(Number.parseInt(source.slice(i, i + 4), 16))), (i += 4);
      else if (n === 'c' && /^[A-Za-z]/.test(source.slice(i))) (out += hex(source.charCodeAt(i) % 32)), (i += 1);
      else if (n === '0' && !/^[0-9]/.test(source.slice(i))) out += '\\x00';
      else if (/[1-9]/.test(n)) return { unsupported: `"\\${n}" (a back-reference or an octal escape) has no meaning in a glob` };
      else out += n; // a letter JavaScript reads as itself
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      // A range to or from a class (`[/-\d]`) is a "-" member in JavaScript, and an error in RE2.
      const classEscape = /^\\[dDwWsS]/;
      out += c === '-' && (classEscape.test(source.slice(i + 1)) || /\\[dDwWsS]$/.test(out)) ? '\\-' : c;
      i++;
      continue;
    }
    if (c === '[') {
      if (source.startsWith('[]', i)) (out += NOTHING), (i += 2);
      else if (source.startsWith('[^]', i)) (out += ANYTHING), (i += 3);
      else {
        inClass = true;
        out += c;
        i++;
        if (source[i] === '^') (out += '^'), i++;
      }
      continue;
    }
    if (c === '(' && (source.startsWith('(?=', i) || source.startsWith('(?!', i) || source.startsWith('(?<', i))) {
      const end = closingParen(source, i);
      if (end === -1 || !HOLD_FOR_NORMALIZED_PATHS.has(source.slice(i, end + 1))) return { lookahead: true };
      i = end + 1;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** The index of the ")" closing the group that opens at `open`, or -1. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
