/**
 * Finding a chunk's lines in a file, as Codex's seek_sequence.rs does: at or after `start`, with
 * comparisons that grow more lenient only when the stricter ones find nothing: exact, then
 * ignoring trailing whitespace, then ignoring surrounding whitespace, then also reading
 * typographic dashes, quotes and odd spaces as their ASCII forms. An end-of-file chunk is
 * looked for at the end first (when the end is at or after `start`), then (as OpenAI's V4A
 * helper does) from `start`.
 */

import { prefixTable } from '../prefix-table.ts';

const PUNCTUATION: Readonly<Record<string, string>> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u00A0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200A': ' ',
  '\u202F': ' ',
  '\u205F': ' ',
  '\u3000': ' ',
};
const PUNCTUATION_RE = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');

// Rust's trim_end()/trim() strip Unicode whitespace, as JavaScript's trimEnd()/trim() do.
const COMPARISONS: readonly ((line: string) => string)[] = [
  (s) => s,
  (s) => s.trimEnd(),
  (s) => s.trim(),
  (s) => s.trim().replace(PUNCTUATION_RE, (c) => PUNCTUATION[c]!),
];

/** Index of the first line of `pattern` in `lines` (at or after `start`), or -1. */
export function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): number {
  if (pattern.length === 0) return start;
  if (eof) {
    const atEnd = seekAtEnd(lines, pattern, start);
    if (atEnd !== -1) return atEnd;
  }
  return pattern.length > lines.length ? -1 : seekFrom(lines, pattern, start);
}

/**
 * Index of `pattern` as the last lines of `lines`, or -1; the end counts only at or after
 * `start` (a chunk never matches lines an earlier one took). An empty pattern is at `start`, as
 * Codex's is.
 */
export function seekAtEnd(lines: readonly string[], pattern: readonly string[], start: number): number {
  if (pattern.length === 0) return start;
  const end = lines.length - pattern.length;
  return end >= start ? seekFrom(lines, pattern, end) : -1;
}

function seekFrom(lines: readonly string[], pattern: readonly string[], start: number): number {
  for (const compare of COMPARISONS) {
    const wanted = pattern.map(compare);
    const table = prefixTable(wanted);
    const line = comparedLines(lines, compare);
    for (let i = Math.max(0, start), m = 0; i < lines.length; i++) {
      const text = line(i);
      while (m > 0 && wanted[m] !== text) m = table[m - 1]!;
      if (wanted[m] === text) m++;
      if (m === wanted.length) return i - m + 1;
    }
  }
  return -1;
}

// Each file line compared once per comparison, however many chunks are sought in it.
const compared = new WeakMap<readonly string[], Map<(line: string) => string, string[]>>();

function comparedLines(lines: readonly string[], compare: (line: string) => string): (i: number) => string {
  if (compare === COMPARISONS[0]) return (i) => lines[i]!;
  let byCompare = compared.get(lines);
  if (byCompare === undefined) compared.set(lines, (byCompare = new Map()));
  let seen = byCompare.get(compare);
  if (seen === undefined) byCompare.set(compare, (seen = []));
  return (i) => (seen[i] ??= compare(lines[i]!));
}

/** Drops what was compared of `lines`, before they change in place. */
export function forgetCompared(lines: readonly string[]): void {
  compared.delete(lines);
}
