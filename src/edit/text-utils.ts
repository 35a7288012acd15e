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
export function regionEol(text: string, start: number): Eol | null {
  // The first `\n` at or after `start` is either inside the region or ends its last line.
  let at = text.indexOf('\n', start);
  if (at === -1 && start > 0) at = text.lastIndexOf('\n', start - 1);
  if (at === -1) return null;
  return at > 0 && text[at - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * Converts the line breaks of `replacement` to `eol`, taking care at the seams:
 * a replacement that starts with `\n` right after a `\r` in the file already
 * forms a CRLF, and one that ends with `\r` right before a `\n` in an LF region
 * would form a stray CRLF.
 */
export function convertEol(replacement: string, eol: Eol, before: string, after: string): string {
  if (eol === '\n') {
    let out = toLF(replacement);
    if (after === '\n' && out.endsWith('\r')) out = out.slice(0, -1);
    return out;
  }
  if (!replacement.includes('\n')) return replacement;
  if (before === '\r' && replacement.startsWith('\n')) return `\n${toCRLF(replacement.slice(1))}`;
  return toCRLF(replacement);
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
