/** Turns a pattern that re2js refused into an EREGEX error that says what is wrong, where, and what to do. */

import { VfsError } from '../errors.ts';

const UNSUPPORTED_TAIL = 'are not supported by the linear-time regex engine; use fixed_strings or rewrite the pattern';

export function emptyPatternError(): VfsError {
  return new VfsError('EREGEX', 'The grep pattern is empty. Give a regular expression or, with fixed_strings, the literal text to search for.');
}

export function patternTooLargeError(pattern: string, size: number, limit: number): VfsError {
  return new VfsError(
    'EREGEX',
    `Invalid regex ${quote(pattern)}: the pattern is too large for the linear-time regex engine (it compiles to ${size} instructions, the limit is ${limit}); large counted repetitions such as {0,1000} are what make it big. Use smaller counts, or * and +.`,
  );
}

function quote(pattern: string): string {
  return JSON.stringify(pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern);
}

/** `error` is what re2js threw for `pattern`. */
export function regexSyntaxError(pattern: string, error: unknown): VfsError {
  const e = error as { error?: unknown; input?: unknown; message?: unknown };
  const description = typeof e.error === 'string' ? e.error : String(e.message ?? error);
  const fragment = typeof e.input === 'string' ? e.input : '';
  return new VfsError('EREGEX', `Invalid regex ${quote(pattern)}: ${explain(pattern, description, fragment)}`, { cause: error });
}

function explain(pattern: string, description: string, fragment: string): string {
  const s = scan(pattern);
  const at = (i: number): string => `at character ${i + 1}`;
  if (description === 'invalid escape sequence' && /^\\([1-9]|k)/.test(fragment) && s.backreference >= 0) {
    return `backreferences (${pattern.slice(s.backreference, s.backreference + 2)} ${at(s.backreference)}) ${UNSUPPORTED_TAIL}.`;
  }
  if (s.lookaround >= 0 && (description === 'invalid or unsupported Perl syntax' || description === 'invalid named capture')) {
    const op = /^\(\?<?[=!]/.exec(pattern.slice(s.lookaround))?.[0] ?? '(?=';
    return `lookahead and lookbehind assertions (${op} ${at(s.lookaround)}) ${UNSUPPORTED_TAIL}.`;
  }
  const hint = 'Check the syntax (RE2, as in Go and ripgrep) or set fixed_strings to search for the text literally.';
  switch (description) {
    case 'missing closing )': {
      const i = s.unclosed.at(-1);
      const where = i === undefined ? '' : ` ${at(i)}`;
      return `unbalanced parenthesis: the "("${where} is never closed. Add the missing ")", or escape it as \\( to match a literal "(".`;
    }
    case 'unexpected )': {
      const where = s.unmatchedClose < 0 ? '' : ` ${at(s.unmatchedClose)}`;
      return `unbalanced parenthesis: the ")"${where} has no matching "(". Remove it, or escape it as \\) to match a literal ")".`;
    }
    case 'missing closing ]': {
      const where = s.unclosedClass < 0 ? '' : ` ${at(s.unclosedClass)}`;
      return `the character class opened by "["${where} is never closed. Add "]", or escape it as \\[ to match a literal "[".`;
    }
    case 'trailing backslash at end of expression':
      return 'the pattern ends with a lone backslash. Write \\\\ to match a backslash.';
    case 'missing argument to repetition operator':
      return `"${fragment}" has nothing to repeat. Escape it (e.g. \\* or \\+) to match it literally.`;
    case 'invalid nested repetition operator':
      return `"${fragment}" repeats a repetition; RE2 has no possessive quantifiers such as a++. Use one operator per item.`;
    case 'invalid repeat count':
      return `invalid repeat count ${fragment}: counts go up to 1000 and {n,m} needs n <= m.`;
    case 'invalid escape sequence':
      return `unknown escape ${fragment}. Escape only punctuation (\\. \\( \\[), write a code point as \\x{263A}, or use classes such as \\d \\w \\s. ${hint}`;
    case 'invalid or unsupported Perl syntax':
      return `unsupported group syntax ${fragment}: RE2 accepts (?:…), (?P<name>…), (?<name>…) and flags such as (?i). ${hint}`;
    case 'invalid character class range':
      return `invalid character class range ${fragment}: the range ends before it starts. Put a literal "-" first or last, or escape it.`;
    default:
      return `${description}${fragment === '' ? '' : ` in ${fragment}`}. ${hint}`;
  }
}

interface Scan {
  backreference: number;
  lookaround: number;
  /** Offsets of "(" never closed, in order. */
  unclosed: number[];
  unmatchedClose: number;
  unclosedClass: number;
}

/** Locates the problems re2js names without saying where; skips escapes, \Q…\E and classes. */
function scan(pattern: string): Scan {
  const s: Scan = { backreference: -1, lookaround: -1, unclosed: [], unmatchedClose: -1, unclosedClass: -1 };
  let classStart = -1;
  let posixEnds = true; // false once no ":]" remains: avoids rescanning on every "[:"
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 1;
        continue;
      }
      if (classStart < 0 && s.backreference < 0 && (/[1-9]/.test(next) || pattern.startsWith('k<', i + 1))) s.backreference = i;
      i++;
    } else if (classStart >= 0) {
      const firstAt = classStart + (pattern[classStart + 1] === '^' ? 2 : 1);
      if (c === '[' && pattern[i + 1] === ':' && posixEnds) {
        const end = pattern.indexOf(':]', i + 2);
        if (end >= 0) i = end + 1;
        else posixEnds = false;
      } else if (c === ']' && i > firstAt) classStart = -1;
    } else if (c === '[') {
      classStart = i;
    } else if (c === '(') {
      s.unclosed.push(i);
      if (s.lookaround < 0 && /^\(\?<?[=!]/.test(pattern.slice(i, i + 4))) s.lookaround = i;
    } else if (c === ')') {
      if (s.unclosed.length > 0) s.unclosed.pop();
      else if (s.unmatchedClose < 0) s.unmatchedClose = i;
    }
  }
  s.unclosedClass = classStart;
  return s;
}
