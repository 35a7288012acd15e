/**
 * Whole-line matching for the trailing-whitespace and indentation corrections:
 * old_string is split into lines, and every window of file lines whose
 * contents (without indentation and trailing whitespace) equal old_string's and
 * that a `verify` callback accepts (indentation rules) is a match covering
 * those whole lines.
 *
 * Candidates are found by `indexOf` of old_string's first non-blank line
 * (trimmed) and checked to be that whole line, so the scan stays linear in the
 * file size; no per-line array of the file is built.
 */
import { isBlankRange, splitIndent } from './text-utils.ts';

/** A line split into indentation and content (content without trailing spaces, tabs, `\r`). */
export interface SplitLine {
  indent: string;
  content: string;
}

export interface ParsedLines {
  lines: SplitLine[];
  /** old_string ended with a line break (stripped before splitting). */
  trailingNewline: boolean;
  /** Index of the first line with content, -1 when every line is blank. */
  first: number;
  /**
   * old_string starts with content, not indentation (a copy that began after
   * the first line's indentation, which exact matching would accept). Its
   * first line then matches the file line's content at any indentation, the
   * match starts at that content, and the file's indentation there is kept.
   */
  anchored: boolean;
}

export interface LineWindow<T> {
  /** Offset of the first matched line's start. */
  start: number;
  /** End of the last matched line's content, or past its line break when old_string ended with one. */
  end: number;
  /** old_string's final line break stood for the end of a file that has no final newline. */
  eofNewline: boolean;
  info: T;
}

export function parseLines(s: string): ParsedLines {
  let body = s;
  let trailingNewline = false;
  if (body.endsWith('\n')) {
    body = body.slice(0, body.endsWith('\r\n') ? -2 : -1);
    trailingNewline = true;
  }
  const lines = body.split('\n').map(splitIndent);
  const first = lines.findIndex((l) => l.content !== '');
  return { lines, trailingNewline, first, anchored: first === 0 && lines[0]!.indent === '' };
}

function prevLineStart(text: string, lineStart: number): number {
  return lineStart <= 1 ? 0 : text.lastIndexOf('\n', lineStart - 2) + 1;
}

export function findLineWindows<T>(text: string, old: ParsedLines, verify: (fileLines: readonly SplitLine[]) => T | null): LineWindow<T>[] {
  const out: LineWindow<T>[] = [];
  const firstOld = old.lines[old.first];
  if (firstOld === undefined) return out;
  const key = firstOld.content;
  const count = old.lines.length;
  let from = 0;
  for (;;) {
    const pos = text.indexOf(key, from);
    if (pos === -1) break;
    const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
    let lineEnd = text.indexOf('\n', pos);
    if (lineEnd === -1) lineEnd = text.length;
    from = lineEnd + 1;
    if (!isBlankRange(text, lineStart, pos) || !isBlankRange(text, pos + key.length, lineEnd)) continue;

    let start = lineStart;
    let ok = true;
    for (let i = 0; i < old.first && ok; i++) {
      if (start === 0) ok = false;
      else start = prevLineStart(text, start);
    }
    if (!ok) continue;

    const fileLines: SplitLine[] = [];
    let s = start;
    let lastEnd = 0;
    let lastHasEol = false;
    for (let i = 0; i < count; i++) {
      if (s >= text.length) {
        ok = false; // ran out of lines
        break;
      }
      const nl = text.indexOf('\n', s);
      lastHasEol = nl !== -1;
      lastEnd = lastHasEol ? nl : text.length;
      const line = splitIndent(text.slice(s, lastEnd));
      if (line.content !== old.lines[i]!.content) {
        ok = false; // contents must match in every mode; stop early
        break;
      }
      fileLines.push(line);
      s = lastEnd + 1;
    }
    if (!ok) continue;
    const info = verify(fileLines);
    if (info === null) continue;

    let end: number;
    let eofNewline = false;
    if (old.trailingNewline) {
      end = lastHasEol ? lastEnd + 1 : text.length;
      eofNewline = !lastHasEol;
    } else {
      end = lastHasEol && text[lastEnd - 1] === '\r' ? lastEnd - 1 : lastEnd;
    }
    out.push({ start: old.anchored ? pos : start, end, eofNewline, info });
  }
  return out;
}

/**
 * When old_string's final line break matched the end of a file without a final
 * newline, new_string's final line break is dropped too, so the file keeps its
 * final-newline state.
 */
export function fitEof(replacement: string, eofNewline: boolean): string {
  if (!eofNewline || !replacement.endsWith('\n')) return replacement;
  return replacement.slice(0, replacement.endsWith('\r\n') ? -2 : -1);
}

export const EOF_NOTE = ' The final line break of old_string matched the end of the file, which has no final newline.';
