/**
 * Correction (g): line-number prefixes pasted into old_string. A model copying
 * from read_file (or the text editor's view) may keep the `cat -n` prefix,
 * padded (`     3\t`) or not (`3\t`), or the `3→` / `3: ` forms other tools
 * print. Stripped only when EVERY line of old_string carries one and the
 * numbers run consecutively (rows `N.k` of a long line continue line N), so
 * text that merely starts with a number is never touched. new_string is
 * stripped too when it carries such prefixes; otherwise it is kept as typed.
 */
import { findWithEolVariants } from './fix-line-endings.ts';
import { findAll } from './text-utils.ts';
import type { CorrectionResult, Region } from './types.ts';

// Group 1: line number; group 2: continuation row (k of N.k); the separator; the rest.
const PREFIX_RE = /^ *(\d+)(?:\.(\d+))?(?:\t|\u2192|: )(.*)$/su;

/** old_string without its line-number prefixes, or null when it does not carry them on every line. */
export function stripLineNumbers(s: string): string | null {
  const trailing = s.endsWith('\n');
  const lines = (trailing ? s.slice(0, -1) : s).split('\n');
  let out = '';
  let expected: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    const cr = raw.length === lines[i]!.length ? '' : '\r';
    const m = PREFIX_RE.exec(raw);
    if (m === null) return null;
    const n = Number(m[1]);
    const row = m[2] === undefined ? 0 : Number(m[2]);
    if (row > 0) {
      // A continuation row: same line as the previous row, no line break between them.
      if (expected !== null && n !== expected - 1) return null;
      out += m[3]!;
      expected = n + 1;
      continue;
    }
    if (expected !== null && n !== expected) return null;
    out += (i === 0 ? '' : '\n') + m[3]! + cr;
    expected = n + 1;
  }
  return trailing ? `${out}\n` : out;
}

export function fixLineNumbers(text: string, oldString: string, newString: string): CorrectionResult | null {
  const stripped = stripLineNumbers(oldString);
  if (stripped === null || stripped === '') return null;
  const newStripped = stripLineNumbers(newString);
  const replacement = newStripped ?? newString;
  let regions: Region[] = findAll(text, stripped).map((start) => ({ start, end: start + stripped.length, replacement }));
  if (regions.length === 0) regions = findWithEolVariants(text, stripped, replacement).regions;
  if (regions.length === 0) return null;
  return {
    correction: 'line-numbers',
    note:
      newStripped === null
        ? "Matched after removing read_file's line-number prefixes from old_string; new_string was kept as typed."
        : "Matched after removing read_file's line-number prefixes from old_string; new_string's were removed the same way.",
    how: "after removing read_file's line-number prefixes",
    regions,
    searched: stripped,
    lossless: false,
  };
}
