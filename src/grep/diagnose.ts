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
  return new VfsError('EREGEX', `Invalid regex ${quote(pattern)}: ${explain(error)}`, { cause: error });
}

function explain(error: ParseError): string {
  const { kind, fragment, at: offset } = error;
  const at = `at character ${offset + 1}`;
  const hint = 'Check the syntax (RE2, as in Go and ripgrep) or set fixed_strings to search for the text literally.';
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
      return `"${fragment}" ${at} repeats a repetition; RE2 has no possessive quantifiers such as a++. Use one operator per item.`;
    case 'invalid repeat count':
      return repeatCount(fragment, at, error.repeat);
    case 'invalid escape sequence':
      return `unknown escape ${fragment} ${at}. Escape only punctuation (\\. \\( \\[), write a code point as \\x{263A}, or use classes such as \\d \\w \\s. ${hint}`;
    case 'invalid or unsupported Perl syntax':
      return `unsupported group syntax ${fragment} ${at}: RE2 accepts (?:…), (?P<name>…), (?<name>…) and flags such as (?i), (?-s) or (?i:…). ${hint}`;
    case 'invalid named capture':
      return `invalid group name ${fragment} ${at}: a name is letters, digits and _, as in (?P<name>…) or (?<name>…). ${hint}`;
    case 'duplicate capture group name':
      return `duplicate capture group name "${fragment}" ${at}: each group needs its own name. ${hint}`;
    case 'invalid character class range':
      return /^\\[pP]/.test(fragment)
        ? `unknown Unicode class ${fragment} ${at}: use a category such as \\pL or \\p{Lu}, or a script such as \\p{Greek}. ${hint}`
        : /^\[:/.test(fragment)
          ? `unknown POSIX class ${fragment} ${at}: use one such as [:alpha:], [:digit:] or [:space:], inside brackets: [[:alpha:]]. ${hint}`
          : `invalid character class range ${fragment} ${at}: the range ends before it starts. Put a literal "-" first or last, or escape it.`;
    default:
      return `${kind}${fragment === '' ? '' : ` in ${fragment}`} ${at}. ${hint}`;
  }
}
