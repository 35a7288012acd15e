/** read_file output: `cat -n` rows with 6-wide line numbers, continuation rows for long lines, a paging note. */
import { splitsPair } from '../text.ts';
import { MAX_RESULT_CHARS } from './definitions.ts';
import { TRUNCATION_NOTE } from './limit-output.ts';

export const MAX_LINE_CHARS = 5000;
export const EMPTY_FILE_REMINDER = 'System reminder: File exists but has empty contents';
// Room kept for the paging note and the truncation note.
const NOTES_RESERVE = 400;

function numbered(label: string, text: string): string {
  return `${label.padStart(6)}\t${text}`;
}

/** Label of row `part` of line `n`: "n" for the first row, "n.part" for a continuation row. */
function rowLabel(n: number, part: number): string {
  return part === 0 ? String(n) : `${n}.${part}`;
}

/** Rows for line number `n`: one row, or N, N.1, N.2 … when longer than 5000 characters. */
export function lineRows(n: number, line: string): string[] {
  if (line.length <= MAX_LINE_CHARS) return [numbered(String(n), line)];
  const rows: string[] = [];
  for (let i = 0, part = 0; i < line.length; part++) {
    // A row never ends inside a surrogate pair: both halves move to the next row.
    let end = Math.min(line.length, i + MAX_LINE_CHARS);
    if (splitsPair(line, end)) end--;
    rows.push(numbered(rowLabel(n, part), line.slice(i, end)));
    i = end;
  }
  return rows;
}

/** Number of rows lineRows gives a line (without building them). */
export function rowCount(line: string): number {
  if (line.length <= MAX_LINE_CHARS) return 1;
  let rows = 0;
  for (let i = 0; i < line.length; rows++) {
    let end = Math.min(line.length, i + MAX_LINE_CHARS);
    if (splitsPair(line, end)) end--;
    i = end;
  }
  return rows;
}

/**
 * Formats `lines[offset .. offset+limit)`, the first of them from its row `part` on. When
 * anything remains (because of the limit or the size cap) the last line says what was shown
 * and the exact arguments that continue: `offset=`, plus `part=` when the cap cut a line
 * between its rows, so every character of a long line is reachable. A size cut also ends
 * with the standard truncation note; `note` (about the whole file) comes last.
 */
export function formatRead(path: string, lines: readonly string[], offset: number, limit: number, part = 0, note = ''): string {
  const page = formatPage(path, lines, offset, limit, part, note.length);
  return note === '' ? page : `${page}\n${note}`;
}

function formatPage(path: string, lines: readonly string[], offset: number, limit: number, part: number, noteLength: number): string {
  const total = lines.length;
  const end = Math.min(total, offset + limit);
  const budget = MAX_RESULT_CHARS - NOTES_RESERVE - path.length - noteLength;
  const from = rowLabel(offset + 1, part);
  const out: string[] = [];
  let length = 0;
  for (let i = offset; i < end; i++) {
    const all = lineRows(i + 1, lines[i]!);
    const rows = i === offset ? all.slice(part) : all;
    const size = rows.reduce((sum, row) => sum + row.length + 1, 0);
    if (length + size <= budget) {
      out.push(...rows);
      length += size;
      continue;
    }
    // A line a page can hold whole starts the next page. One no page can hold (or the first line,
    // over the budget) is cut here: its rows that fit, then where to go on.
    let shown = 0;
    if (i === offset || size > budget) {
      while (shown < rows.length && length + rows[shown]!.length + 1 <= budget) length += rows[shown++]!.length + 1;
    }
    if (shown === 0 && i > offset) {
      return [...out, `... [showing lines ${from}-${i} of ${total} in ${path}; continue with offset=${i}]`, TRUNCATION_NOTE].join('\n');
    }
    out.push(...rows.slice(0, shown));
    const next = (i === offset ? part : 0) + shown;
    const to = rowLabel(i + 1, next - 1);
    return [
      ...out,
      `... [showing lines ${from}-${to} of ${total} in ${path} (line ${i + 1} goes on to row ${rowLabel(i + 1, all.length - 1)}); continue with offset=${i} part=${next}]`,
      TRUNCATION_NOTE,
    ].join('\n');
  }
  // A page that began inside its only line ends at that line's last row ("2.1-2.2", not "2.1-2").
  const to = part > 0 && end === offset + 1 ? rowLabel(end, rowCount(lines[offset]!) - 1) : String(end);
  if (end < total) out.push(`... [showing lines ${from}-${to} of ${total} in ${path}; continue with offset=${end}]`);
  return out.join('\n');
}
