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

/** Rows for line number `n`: one row, or N, N.1, N.2 … when longer than 5000 characters. */
export function lineRows(n: number, line: string): string[] {
  if (line.length <= MAX_LINE_CHARS) return [numbered(String(n), line)];
  const rows: string[] = [];
  for (let i = 0, part = 0; i < line.length; part++) {
    // A row never ends inside a surrogate pair: both halves move to the next row.
    let end = Math.min(line.length, i + MAX_LINE_CHARS);
    if (splitsPair(line, end)) end--;
    rows.push(numbered(part === 0 ? String(n) : `${n}.${part}`, line.slice(i, end)));
    i = end;
  }
  return rows;
}

/**
 * Formats `lines[offset .. offset+limit)`. When lines remain (because of the
 * limit or the size cap) the last line says what was shown and the offset= to
 * continue; a size cut also ends with the standard truncation note.
 */
export function formatRead(path: string, lines: readonly string[], offset: number, limit: number): string {
  const total = lines.length;
  const end = Math.min(total, offset + limit);
  const budget = MAX_RESULT_CHARS - NOTES_RESERVE - path.length;
  const out: string[] = [];
  let length = 0;
  let shownEnd = offset; // exclusive, in 0-based lines
  let cutLine = false;
  for (let i = offset; i < end; i++) {
    const rows = lineRows(i + 1, lines[i]!);
    const size = rows.reduce((sum, row) => sum + row.length + 1, 0);
    if (length + size > budget) {
      if (i === offset) {
        // A single line bigger than the whole budget: show what fits of it.
        for (const row of rows) {
          if (length + row.length + 1 > budget) break;
          out.push(row);
          length += row.length + 1;
        }
        shownEnd = i + 1;
        cutLine = true;
      }
      const cut = cutLine ? ` (line ${offset + 1} cut after ${length} characters)` : '';
      const next = shownEnd < total ? `; continue with offset=${shownEnd}` : '';
      return [...out, `... [showing lines ${offset + 1}-${shownEnd} of ${total} in ${path}${cut}${next}]`, TRUNCATION_NOTE].join('\n');
    }
    out.push(...rows);
    length += size;
    shownEnd = i + 1;
  }
  if (end < total) out.push(`... [showing lines ${offset + 1}-${end} of ${total} in ${path}; continue with offset=${end}]`);
  return out.join('\n');
}
