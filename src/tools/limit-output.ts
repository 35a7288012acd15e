/** The result-size cap every tool shares. */
import { MAX_RESULT_CHARS } from './definitions.ts';

export const TRUNCATION_NOTE = '... [results truncated, try being more specific with your parameters]';

/**
 * Joins rows, keeping as many whole rows as fit so that the result, the tail
 * line and the truncation note stay within `max` characters. `tail(kept)` gets
 * how many rows are shown, so a "N more not shown" line counts what the size
 * cap left out too, not only what head_limit did; null means no tail line.
 */
export function joinCapped(rows: readonly string[], tail: (kept: number) => string | null = () => null, max = MAX_RESULT_CHARS): string {
  const all = tail(rows.length);
  const full = all === null ? rows.join('\n') : [...rows, all].join('\n');
  if (full.length <= max) return full;
  // The tail's length depends on the count it states: reserve room for its longest form.
  const longestTail = Math.max(all?.length ?? 0, tail(0)?.length ?? 0);
  const reserve = TRUNCATION_NOTE.length + 1 + (longestTail === 0 ? 0 : longestTail + 1);
  let length = 0;
  let kept = 0;
  for (const row of rows) {
    if (length + row.length + 1 > max - reserve) break;
    length += row.length + 1;
    kept++;
  }
  while (kept > 0 && rows[kept - 1] === '--') kept--; // grep's group separator never ends a cut list
  const out = rows.slice(0, kept);
  const last = tail(kept);
  if (last !== null) out.push(last);
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

/**
 * How much of `rows` (joined with line breaks) fits in `room` characters: `count` whole rows, or,
 * when not even the first does, `part`, the beginning of the first (never half a surrogate pair).
 */
export function fittingRows(rows: readonly string[], room: number): { count: number; part: string | null } {
  let length = -1;
  let count = 0;
  for (const row of rows) {
    if (length + 1 + row.length > room) break;
    length += 1 + row.length;
    count++;
  }
  if (count > 0 || rows.length === 0) return { count, part: null };
  let end = Math.max(0, room);
  const last = rows[0]!.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { count, part: rows[0]!.slice(0, end) };
}

/** `names` joined with ", " within `room` characters: as many as fit, then "and N more". */
export function namesWithin(names: readonly string[], room: number): string {
  let out = '';
  for (const [i, name] of names.entries()) {
    const next = out === '' ? name : `${out}, ${name}`;
    const more = names.length - i - 1;
    if (next.length + (more > 0 ? `, and ${more} more`.length : 0) > room) return out === '' ? `${names.length} files` : `${out}, and ${names.length - i} more`;
    out = next;
  }
  return out;
}
