/**
 * picomatch's regular expressions (JavaScript syntax, no "u" flag) in the RE2 syntax grep's
 * matcher reads, matching the same normalized paths, or why not:
 * - picomatch keeps "." and ".." segments out with lookaheads; the paths matched here are
 *   normalized (no such segment), so those always hold and are dropped. Its "(?=.)" (something
 *   follows) before a star makes the star take a character. Any other lookahead (a negated group
 *   "!(…)") has no RE2 form: `{ lookahead: true }`.
 * - An escaped character that JavaScript reads as itself (`\é`, `\z`, `\Q`: a glob's "\z" is "z")
 *   becomes that character; `\xHH`, `\uHHHH`, `\cX`, `\0` (octal) become the character they name;
 *   JavaScript's `\s` is wider than RE2's and is spelled out; `\n` and `\r` match no path.
 * - `[]` (no character) and `[^]` (any character) get RE2 forms; a "[" in a class is a member.
 */
const HOLD_FOR_NORMALIZED_PATHS = new Set(['(?!\\.{1,2}(?:\\/|$))', '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?!\\.{0,1}(?:\\/|$))']);
/** Escapes that mean the same in RE2 (outside a class; inside one, \b is a backspace). */
const SAME_IN_RE2 = new Set(['d', 'D', 'w', 'W', 't', 'v', 'f', 'b', 'B']);
const NOTHING = '[^\\x00-\\x{10FFFF}]';
const ANYTHING = '[\\x00-\\x{10FFFF}]';
/** JavaScript's \s, as class members. */
const JS_SPACE = '\\t\\n\\x0B\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
const STAR_AFTER_SOMETHING = '(?=.)[^/]*?';

export type Re2Source = string | { lookahead: true; unsupported?: undefined } | { lookahead?: undefined; unsupported: string };

const hex = (cp: number) => `\\x{${cp.toString(16)}}`;

/** The RE2 form of the escape `\n` (`rest`: the source after it), and how many more characters it took. */
function escaped(n: string, rest: string, inClass: boolean): { re2: string; took?: number } | { unsupported: string } {
  const cp = n.codePointAt(0)!;
  if (cp > 0x7f) return { re2: n };
  if (!/[A-Za-z0-9]/.test(n)) return { re2: `\\${n}` }; // punctuation: escaped alike
  if (SAME_IN_RE2.has(n) && !(inClass && (n === 'b' || n === 'B'))) return { re2: `\\${n}` };
  if (inClass && n === 'b') return { re2: '\\x08' };
  if (n === 's') return { re2: inClass ? JS_SPACE : `[${JS_SPACE}]` };
  if (n === 'S') return inClass ? { unsupported: '"\\S" inside a class has no form here' } : { re2: `[^${JS_SPACE}]` };
  if (n === 'n' || n === 'r') return { re2: inClass ? `\\${n}` : NOTHING }; // no path holds a line break
  if (n === 'x' && /^[0-9A-Fa-f]{2}/.test(rest)) return { re2: hex(Number.parseInt(rest.slice(0, 2), 16)), took: 2 };
  if (n === 'u' && /^[0-9A-Fa-f]{4}/.test(rest)) return { re2: hex(Number.parseInt(rest.slice(0, 4), 16)), took: 4 };
  if (n === 'c' && (/^[A-Za-z]/.test(rest) || (inClass && /^[0-9_]/.test(rest)))) return { re2: hex(rest.charCodeAt(0) % 32), took: 1 };
  if (n === 'c') return { re2: '\\\\c' }; // JavaScript: a backslash, then "c"
  if (n === '0') {
    const octal = rest.match(/^[0-7]{0,2}/)![0]; // a legacy octal escape, as JavaScript reads one
    return { re2: hex(Number.parseInt(`0${octal}`, 8)), took: octal.length };
  }
  if (/[1-9]/.test(n)) return { unsupported: `"\\${n}" (a back-reference or an octal escape) has no meaning in a glob` };
  return { re2: n }; // a letter JavaScript reads as itself
}

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
      const e = escaped(n, source.slice(i), inClass);
      if ('unsupported' in e) return e;
      out += e.re2;
      i += e.took ?? 0;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      // A range to or from a class (`[/-\d]`) is a "-" member in JavaScript, and an error in RE2;
      // "[" is a member too, which RE2 could read as the start of "[:alpha:]".
      const toClass = c === '-' && (/^\\[dDwWsS]/.test(source.slice(i + 1)) || /\\[dDwW]$/.test(out) || out.endsWith(JS_SPACE));
      out += toClass ? '\\-' : c === '[' ? '\\[' : c;
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
    // "(?=.)": the path goes on here. At its start or after a "/" it always does (a normalized path
    // has no empty name); before a "?" that takes a character anyway; before a last star, the star
    // takes one. Anywhere else it is a lookahead like any other.
    if (source.startsWith('(?=.)', i)) {
      const after = source.slice(i + '(?=.)'.length);
      const next = after.startsWith('[^/]*?') ? after.slice('[^/]*?'.length) : null; // after a star: must a character follow it?
      const required = next !== null && /^(?:\\.|[^\\()[\]|?*+{}^$])(?![?*{])/.test(next);
      if (/(?:^\^\(\?:|\^|\\\/)$/.test(out) || (after.startsWith('[^/]') && !after.startsWith('[^/]*')) || required) {
        i += '(?=.)'.length;
        continue;
      }
      if (/^\[\^\/\]\*\?(?:\\\/\?)?\)\$$/.test(after)) {
        out += '[^/]+?';
        i += STAR_AFTER_SOMETHING.length;
        continue;
      }
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
