/** Turns a pattern the parser refused into an EREGEX error that says what is wrong, where, and what to do. */

import { VfsError } from '../errors.ts';
import type { ParseError } from './parse.ts';

const UNSUPPORTED_TAIL = 'are not supported by the linear-time regex engine; use fixed_strings or rewrite the pattern';

export function emptyPatternError(): VfsError {
  return new VfsError('EREGEX', 'The grep pattern is empty. Give a regular expression or, with fixed_strings, the literal text to search for.');
}

export function lineBreakError(pattern: string): VfsError {
  return new VfsError(
    'EREGEX',
    `The grep pattern ${quote(pattern)} holds a line break (\\n) in every match, but grep searches one line at a time, so it could never match. Search for one line of the text (or each line on its own), then read_file around what it finds.`,
  );
}

export function patternTooLargeError(pattern: string, size: number, budget: number): VfsError {
  return new VfsError(
    'EREGEX',
    `Invalid regex ${quote(pattern)}: the pattern compiles to ${count(size)} instructions, over the ${count(budget)}-instruction budget of the linear-time regex engine (RE2's default memory budget for a program). Split it into several smaller searches, or use fewer alternatives or smaller {n,m} counts.`,
  );
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function quote(pattern: string): string {
  return JSON.stringify(pattern.length > 200 ? `${pattern.slice(0, 200)}…` : pattern);
}

function repeatCount(fragment: string, at: string, repeat: ParseError['repeat']): string {
  switch (repeat?.rule) {
    case 'count':
      return `repetition count ${repeat.value} in ${fragment} ${at} exceeds 1000, RE2's limit. Use a smaller count, or * or + for "any number".`;
    case 'product':
      return `nested repetition counts multiply to ${repeat.value} at ${fragment} ${at}, over RE2's limit of 1000 (counts nested inside each other multiply). Use smaller counts, or * or +.`;
    default:
      return `invalid repeat count ${fragment} ${at}: in {n,m} the minimum n must not exceed the maximum m.`;
  }
}

/** `error` is the parser's refusal of `pattern`. */
export function regexSyntaxError(pattern: string, error: ParseError): VfsError {
  return new VfsError('EREGEX', `Invalid regex ${quote(pattern)}: ${explain(error, pattern)}`, { cause: error });
}

/** `\u0041`, `\y`, `\xZ`: one way to write what was probably meant. */
function unknownEscape(fragment: string, at: string, rest: string): string {
  const u = /^\\u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/.exec(rest);
  if (u !== null) return `unknown escape \\u ${at}: RE2 writes a code point with \\x. Write ${u[0]} as \\x{${u[1] ?? u[2]}}.`;
  if (fragment.startsWith('\\x')) return `invalid hex escape ${fragment} ${at}. Write a code point as two hex digits (\\x41) or in braces (\\x{263A}).`;
  if (fragment === '\\C') return `\\C (any single byte) ${at} is not supported. Use . to match any one character.`;
  const char = fragment.slice(1);
  return `unknown escape ${fragment} ${at}: RE2 escapes only punctuation (\\. \\( \\[) and letters it knows, such as \\d \\w \\s \\n \\t. To match "${char}" itself, remove the backslash.`;
}

/** `a++`, `x{1}{2}`: one repetition operator right after another; `before` is the pattern up to it. */
function nestedRepetition(fragment: string, at: string, before: string): string {
  const head = `nested repetition operator "${fragment}" ${at}: RE2 takes one repetition operator per item`;
  if (/^(?:[*+?]|\{[\d,]*\})\+$/.test(fragment)) return `${head}, and has no possessive quantifiers such as a++. Drop the last "+".`;
  const first = /^(?:[*+?]|\{[\d,]*\})\??/.exec(fragment)?.[0] ?? '';
  const item = /(?<!\\)[\p{L}\p{N}_.]$/u.exec(before)?.[0];
  const group = item === undefined ? `as in (?:a${first})${fragment.slice(first.length)}` : `(?:${item}${first})${fragment.slice(first.length)}`;
  return `${head}. Keep one (to repeat the repetition, group it first: ${group}).`;
}

/** `[z-a]`, or `[a-\d]` (a class cannot end a range). */
function badRange(fragment: string, at: string): string {
  const cls = /\\(?:[dDsSwW]|[pP].*)$/.exec(fragment);
  if (cls === null) return `invalid character class range ${fragment} ${at}: the range ends before it starts. Put a literal "-" first or last, or escape it.`;
  const from = fragment.slice(0, cls.index - 1);
  // (The class may hold more than this range: the advice names the move, not a rewritten class.)
  return `invalid character class range ${fragment} ${at}: a range runs between two single characters, and ${cls[0]} is a class. To match "${from}", "-" or ${cls[0]}, move the "-" to the end of the class or escape it (\\-).`;
}

function explain(error: ParseError, pattern: string): string {
  const { kind, fragment, at: offset } = error;
  const at = `at character ${offset + 1}`;
  switch (kind) {
    case 'backreference':
      return `backreferences (${fragment} ${at}) ${UNSUPPORTED_TAIL}.`;
    case 'lookaround':
      return `lookahead and lookbehind assertions (${fragment} ${at}) ${UNSUPPORTED_TAIL}.`;
    case 'missing closing )':
      return `unbalanced parenthesis: the "(" ${at} is never closed. Add the missing ")", or escape it as \\( to match a literal "(".`;
    case 'unexpected )':
      return `unbalanced parenthesis: the ")" ${at} has no matching "(". Remove it, or escape it as \\) to match a literal ")".`;
    case 'missing closing ]':
      return `the character class opened by "[" ${at} is never closed. Add "]", or escape it as \\[ to match a literal "[".`;
    case 'trailing backslash at end of expression':
      return 'the pattern ends with a lone backslash. Write \\\\ to match a backslash.';
    case 'missing argument to repetition operator':
      return `"${fragment}" ${at} has nothing to repeat. Escape it (e.g. \\* or \\+) to match it literally.`;
    case 'invalid nested repetition operator':
      return nestedRepetition(fragment, at, pattern.slice(0, offset));
    case 'invalid repeat count':
      return repeatCount(fragment, at, error.repeat);
    case 'invalid escape sequence':
      return unknownEscape(fragment, at, pattern.slice(offset));
    case 'invalid or unsupported Perl syntax':
      return `unsupported group syntax ${fragment} ${at}: RE2 accepts (?:…), (?P<name>…), (?<name>…) and flags such as (?i), (?-s) or (?i:…). Rewrite the group as one of those.`;
    case 'invalid named capture':
      return `invalid group name ${fragment} ${at}: a name is letters, digits and _. Rename it, as in (?P<name>…) or (?<name>…).`;
    case 'duplicate capture group name':
      return `duplicate capture group name "${fragment}" ${at}: each group needs its own name. Rename one of them.`;
    case 'invalid character class range':
      return /^\\[pP]/.test(fragment)
        ? `unknown Unicode class ${fragment} ${at}: use a category such as \\pL or \\p{Lu}, or a script such as \\p{Greek}.`
        : /^\[:/.test(fragment)
          ? `unknown POSIX class ${fragment} ${at}: use one such as [:alpha:], [:digit:] or [:space:], inside brackets: [[:alpha:]].`
          : badRange(fragment, at);
    default:
      return `${kind}${fragment === '' ? '' : ` in ${fragment}`} ${at}. Check the syntax (RE2, as in Go and ripgrep).`;
  }
}
