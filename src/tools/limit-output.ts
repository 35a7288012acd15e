/** The result-size cap every tool shares. */
import { MAX_RESULT_CHARS } from './definitions.ts';

export const TRUNCATION_NOTE = '... [results truncated, try being more specific with your parameters]';

/**
 * Joins rows, keeping as many whole rows as fit so that the result, the
 * optional `tail` line and the truncation note stay within `max` characters.
 */
export function joinCapped(rows: readonly string[], tail: string | null = null, max = MAX_RESULT_CHARS): string {
  const reserve = TRUNCATION_NOTE.length + 1 + (tail === null ? 0 : tail.length + 1);
  let length = 0;
  let kept = 0;
  for (const row of rows) {
    if (length + row.length + 1 > max - reserve) break;
    length += row.length + 1;
    kept++;
  }
  if (kept === rows.length) {
    const full = tail === null ? rows.join('\n') : [...rows, tail].join('\n');
    if (full.length <= max) return full;
  }
  const out = rows.slice(0, kept);
  if (tail !== null) out.push(tail);
  out.push(TRUNCATION_NOTE);
  return out.join('\n');
}

/** Caps any string: cuts at the last newline that fits and appends the truncation note. */
export function capResult(text: string, max = MAX_RESULT_CHARS): string {
  if (text.length <= max) return text;
  const room = max - TRUNCATION_NOTE.length - 1;
  const cut = text.lastIndexOf('\n', room);
  return `${text.slice(0, cut > 0 ? cut : room)}\n${TRUNCATION_NOTE}`;
}
