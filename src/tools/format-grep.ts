/** grep output in the three modes, with head_limit and long-line windows. */
import type { GrepMatch } from '../backend/types.ts';
import { splitsPair } from '../text.ts';

export type OutputMode = 'files_with_matches' | 'content' | 'count';

const MAX_SHOWN_LINE = 500;
const WINDOW_BEFORE = 150;

/** A matched line over 500 characters becomes a window around the match, with a note. */
export function windowLine(match: Pick<GrepMatch, 'text' | 'column' | 'length'>): string {
  const { text, column } = match;
  if (text.length <= MAX_SHOWN_LINE) return text;
  let start = Math.max(0, Math.min(column - WINDOW_BEFORE, text.length - MAX_SHOWN_LINE));
  let end = Math.min(text.length, start + MAX_SHOWN_LINE);
  // Never cut a surrogate pair in half: the model would see two U+FFFD instead of one emoji.
  if (splitsPair(text, start)) start++;
  if (splitsPair(text, end)) end--;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''} [line is ${text.length} chars; showing ${start + 1}-${end}]`;
}

function contextLine(text: string): string {
  if (text.length <= MAX_SHOWN_LINE) return text;
  const end = splitsPair(text, MAX_SHOWN_LINE) ? MAX_SHOWN_LINE - 1 : MAX_SHOWN_LINE;
  return `${text.slice(0, end)}… [line is ${text.length} chars; showing 1-${end}]`;
}

export interface Entries {
  /** Output entries, each one or more lines (content groups carry their context). */
  entries: string[];
  /** Total entries before head_limit. */
  total: number;
}

export function filesEntries(matches: readonly GrepMatch[]): Entries {
  const files: string[] = [];
  for (const m of matches) if (files[files.length - 1] !== m.path) files.push(m.path);
  return { entries: files, total: files.length };
}

export function countEntries(matches: readonly GrepMatch[]): Entries {
  const rows: string[] = [];
  let current = '';
  let n = 0;
  for (const m of matches) {
    if (m.path !== current) {
      if (n > 0) rows.push(`${current}:${n}`);
      current = m.path;
      n = 0;
    }
    n++;
  }
  if (n > 0) rows.push(`${current}:${n}`);
  return { entries: rows, total: rows.length };
}

/**
 * Content mode. Each matching line is one entry; with context, an entry also
 * carries its context lines. Overlapping context is shown once, and
 * non-adjacent groups are separated by "--" (as grep and ripgrep do).
 * `linesOf(path)` returns a file's lines, only needed when context > 0.
 * `matchesIn(k)` says how many matching lines the first k rows show.
 */
export function contentRows(
  matches: readonly GrepMatch[],
  context: number,
  headLimit: number,
  linesOf: (path: string) => readonly string[],
): { rows: string[]; matchesIn: (keptRows: number) => number; total: number } {
  const rows: string[] = [];
  const matchRows: number[] = []; // index of each matching line's row, in order
  const shown = Math.min(matches.length, headLimit);
  let lastPath = '';
  let lastLine = 0; // last line number printed in lastPath
  for (let i = 0; i < shown; i++) {
    const m = matches[i]!;
    if (context === 0) {
      matchRows.push(rows.length);
      rows.push(`${m.path}:${m.line}:${windowLine(m)}`);
      continue;
    }
    const lines = linesOf(m.path);
    const samePath = m.path === lastPath;
    const from = Math.max(1, m.line - context, samePath ? lastLine + 1 : 1);
    if (rows.length > 0 && (!samePath || from > lastLine + 1)) rows.push('--');
    for (let n = from; n < m.line; n++) rows.push(`${m.path}-${n}-${contextLine(lines[n - 1] ?? '')}`);
    if (!samePath || m.line > lastLine) {
      matchRows.push(rows.length);
      rows.push(`${m.path}:${m.line}:${windowLine(m)}`);
    }
    // Trailing context stops before the next shown match in this file, which prints itself.
    const next = i + 1 < shown && matches[i + 1]!.path === m.path ? matches[i + 1]!.line : Infinity;
    const to = Math.min(lines.length, m.line + context, next - 1);
    for (let n = m.line + 1; n <= to; n++) rows.push(`${m.path}-${n}-${contextLine(lines[n - 1] ?? '')}`);
    lastPath = m.path;
    lastLine = Math.max(m.line, to);
  }
  // Matching lines among the first `keptRows` rows (when the size cap keeps fewer than all).
  const matchesIn = (keptRows: number) => {
    let n = 0;
    while (n < matchRows.length && matchRows[n]! < keptRows) n++;
    return n;
  };
  return { rows, matchesIn, total: matches.length };
}
