/**
 * Whole-line matching for the trailing-whitespace and indentation corrections:
 * old_string is split into lines, and every window of file lines whose
 * contents (without indentation and trailing whitespace) equal old_string's and
 * that a `verify` callback accepts (indentation rules) is a match covering
 * those whole lines.
 *
 * The file's lines are compared with old_string's in one pass (Knuth–Morris–Pratt
 * over lines), so the scan stays linear in the file size however many lines
 * old_string has; no per-line array of the file is built.
 */
import { prefixTable } from '../prefix-table.ts';
import { splitIndent } from './text-utils.ts';

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

export function findLineWindows<T>(text: string, old: ParsedLines, verify: (fileLines: readonly SplitLine[]) => T | null): LineWindow<T>[] {
  const out: LineWindow<T>[] = [];
  if (old.first === -1) return out;
  // Knuth–Morris–Pratt over lines: each file line's content is compared a bounded number of times.
  const pattern = old.lines.map((l) => l.content);
  const count = pattern.length;
  const fallback = prefixTable(pattern);
  const starts = new Int32Array(count); // where the last `count` lines start, as a ring
  let matched = 0;
  for (let s = 0, n = 0; s < text.length; n++) {
    const nl = text.indexOf('\n', s);
    const lineEnd = nl === -1 ? text.length : nl;
    const content = splitIndent(text.slice(s, lineEnd)).content;
    starts[n % count] = s;
    while (matched > 0 && pattern[matched] !== content) matched = fallback[matched - 1]!;
    if (pattern[matched] === content) matched++;
    if (matched === count) {
      matched = fallback[count - 1]!;
      const start = starts[(n + 1) % count]!;
      const window = windowAt(text, start, lineEnd, nl !== -1, old, verify);
      if (window !== null) out.push(window);
    }
    s = lineEnd + 1;
  }
  return out;
}

/** The window of the file lines from `start` to the line ending at `lastEnd` (their contents equal old_string's), if `verify` accepts them. */
function windowAt<T>(
  text: string,
  start: number,
  lastEnd: number,
  lastHasEol: boolean,
  old: ParsedLines,
  verify: (fileLines: readonly SplitLine[]) => T | null,
): LineWindow<T> | null {
  const fileLines: SplitLine[] = [];
  for (let s = start; fileLines.length < old.lines.length; ) {
    const nl = text.indexOf('\n', s);
    const end = nl === -1 ? text.length : nl;
    fileLines.push(splitIndent(text.slice(s, end)));
    s = end + 1;
  }
  const info = verify(fileLines);
  if (info === null) return null;
  let end: number;
  let eofNewline = false;
  if (old.trailingNewline) {
    end = lastHasEol ? lastEnd + 1 : text.length;
    eofNewline = !lastHasEol;
  } else {
    end = lastHasEol && text[lastEnd - 1] === '\r' ? lastEnd - 1 : lastEnd;
  }
  // Anchored: the match starts at the first line's content, after the file's indentation there.
  return { start: old.anchored ? start + fileLines[0]!.indent.length : start, end, eofNewline, info };
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
