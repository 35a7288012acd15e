/**
 * Small string helpers shared by the edit algorithm. Everything here is a
 * linear `indexOf` loop: no regex scans over whole files, no per-line arrays.
 */

import { countNewlines } from '../text.ts';

export type Eol = '\n' | '\r\n';

/** Start offsets of the non-overlapping occurrences of `needle`, left to right (like `split`). */
export function findAll(text: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  let at = text.indexOf(needle);
  while (at !== -1) {
    out.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return out;
}

/** 1-based line numbers of ascending offsets, counted in one pass. */
export function lineNumbersAt(text: string, positions: readonly number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let from = 0;
  for (const pos of positions) {
    line += countNewlines(text, from, pos);
    from = pos;
    out.push(line);
  }
  return out;
}

/** `\r\n` → `\n` (lone `\r` is left alone). */
export function toLF(s: string): string {
  return s.includes('\r\n') ? s.replaceAll('\r\n', '\n') : s;
}

/** Every `\n` (bare or already in `\r\n`) becomes `\r\n`. */
export function toCRLF(s: string): string {
  return s.includes('\n') ? toLF(s).replaceAll('\n', '\r\n') : s;
}

/**
 * The line ending the region `text[start, end)` lives in: the first line break
 * inside it, else the one ending its last line, else the one before it; `null`
 * when the file has no line break at all. Local rather than file-wide, so an
 * edit in a mixed-ending file follows the lines around it.
 */
function regionEol(text: string, start: number): Eol | null {
  // The first `\n` at or after `start` is either inside the region or ends its last line.
  let at = text.indexOf('\n', start);
  if (at === -1 && start > 0) at = text.lastIndexOf('\n', start - 1);
  if (at === -1) return null;
  return at > 0 && text[at - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * `replacement` for `text[start, end)` with each line break taking the ending
 * of the file line it lands on: its k-th break gets the ending of the region's
 * k-th line break, so untouched line endings in a mixed-ending file survive.
 * Breaks beyond the region's take the region's last ending (a uniform region,
 * the only kind the line-endings correction matches, stays uniform); a region
 * without a break takes the ending of the line it lies in (`regionEol`); a
 * file without any line break takes `replacement` as typed.
 * Seams: a replacement starting with a break right after a `\r` of the file
 * completes that CRLF, and a final `\r` right before the file's `\n` stays
 * only where that line was CRLF.
 */
export function fitEols(text: string, start: number, end: number, replacement: string): string {
  const eols: Eol[] = [];
  for (let at = text.indexOf('\n', start); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    eols.push(at > 0 && text[at - 1] === '\r' ? '\r\n' : '\n');
  }
  const fallback = eols.length > 0 ? eols[eols.length - 1]! : regionEol(text, start);
  if (fallback === null) return replacement;
  const lines = toLF(replacement).split('\n');
  let out = lines[0]!;
  for (let k = 1; k < lines.length; k++) {
    out += (k === 1 && out === '' && text[start - 1] === '\r' ? '\n' : (eols[k - 1] ?? fallback)) + lines[k]!;
  }
  if (out.endsWith('\r') && text[end] === '\n' && text[end - 1] !== '\r') out = out.slice(0, -1);
  return out;
}

/** True when `text[from, to)` is only spaces, tabs or carriage returns. */
export function isBlankRange(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Splits leading spaces/tabs off `line` and trims trailing spaces/tabs/`\r` from the rest. */
export function splitIndent(line: string): { indent: string; content: string } {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  let j = line.length;
  while (j > i && (line[j - 1] === ' ' || line[j - 1] === '\t' || line[j - 1] === '\r')) j--;
  return { indent: line.slice(0, i), content: line.slice(i, j) };
}

/** Display form of a line ending for messages: `\n` (LF) / `\r\n` (CRLF). */
export function eolName(eol: Eol): string {
  return eol === '\n' ? '\\n (LF)' : '\\r\\n (CRLF)';
}
