/**
 * The pure text-replacement algorithm behind `edit_file`.
 *
 * Decisions where the spec is silent (see also each fix-*.ts):
 * - Exact, literal matching first (`indexOf` loops; `$&`, `$1`, `$$` stay as typed).
 *   Matches are non-overlapping, left to right, as `split` counts them.
 * - Only when the exact count is 0, corrections run in order: line endings,
 *   unescaping, line-number prefixes, typographic punctuation and Unicode
 *   spaces, Unicode normalization (NFC/NFD), trailing whitespace, indentation. The FIRST correction that finds
 *   anything decides: one match → applied and reported; several → EAMBIGUOUS
 *   (not ENOMATCH: the message says old_string was not found exactly, and where
 *   the corrected text matches, which is what the model needs to fix its call).
 * - With replace_all, the line-endings correction may replace every match: the
 *   corrected old_string is the same text, only its line breaks differ. The
 *   fuzzy corrections (unescape, whitespace, indentation) still need exactly one
 *   match, as the spec says; several give EAMBIGUOUS asking for the exact text.
 * - Every replacement line gets the ending of the file line it lands on (the
 *   k-th line break of new_string takes the ending of the matched region's k-th;
 *   extra ones take the region's last; a region without a break takes the ending
 *   of its line): a CRLF region stays CRLF even when new_string uses LF, and the
 *   reverse, and a mixed-ending region keeps its endings line by line, whichever
 *   correction matched it (see fitEols). A file without any line break takes
 *   new_string as typed.
 * - Final newline: exact edits are literal, so the final-newline state changes
 *   only when old_string/new_string themselves differ in it. When a whole-line
 *   correction matched old_string's final line break against the end of a file
 *   without one, new_string's final line break is dropped as well.
 * - If the replacements turn out identical to the matched text (e.g. old and new
 *   differ only in line endings), ENOCHANGE: nothing would be written.
 * - The whole-line corrections (trailing whitespace, indentation) compare line
 *   contents exactly; blank lines match blank lines. An old_string whose first
 *   line has no indentation may start after the file line's indentation (as an
 *   exact substring could); that indentation is kept and new_string's first
 *   line is inserted after it unchanged.
 * - Unescaping also unescapes new_string, unless old_string's escapes included
 *   `\n` and new_string already contains real line breaks (then it was not
 *   over-escaped and its backslashes are meant).
 */
import { VfsError } from '../errors.ts';
import { type CandidateLine, closestLines, departure } from './candidates.ts';
import { fixIndentation } from './fix-indentation.ts';
import { alsoConvertedEols, fixLineEndings } from './fix-line-endings.ts';
import { fixTrailingWhitespace } from './fix-trailing-whitespace.ts';
import { fixLineNumbers } from './fix-line-numbers.ts';
import { fixUnescaped } from './fix-unescaped.ts';
import { fixUnicodeNormalization } from './fix-unicode-normalization.ts';
import { fixUnicodePunctuation } from './fix-unicode-punctuation.ts';
import { countNewlines, headOf } from '../text.ts';
import { findAll, fitEols, lineNumbersAt } from './text-utils.ts';
import type { CorrectionKind, CorrectionResult, Region } from './types.ts';

export interface EditOptions {
  replaceAll?: boolean;
  /** Several matches: replace the first instead of refusing (the MCP filesystem server's edit_file does). */
  firstOfMany?: boolean;
}

export interface EditOutcome {
  /** The new full file text (decoded, without a BOM). */
  text: string;
  /** Replacements made. */
  count: number;
  correction: null | CorrectionKind;
  /** One short sentence for the model saying which correction was used, or null. */
  correctionNote: string | null;
  /** 1-based line range in the NEW text covering every replaced region (first..last). */
  firstLine: number;
  lastLine: number;
  /** Each replacement's 1-based line range in the new text, in order. */
  replacedLines: Array<[first: number, last: number]>;
}

const CORRECTIONS: ReadonlyArray<(text: string, oldString: string, newString: string) => CorrectionResult | null> = [
  fixLineEndings,
  fixUnescaped,
  fixLineNumbers,
  fixUnicodePunctuation,
  fixUnicodeNormalization,
  fixTrailingWhitespace,
  fixIndentation,
];

const MAX_LISTED_LINES = 20;

export function applyEdit(text: string, oldString: string, newString: string, options: EditOptions = {}): EditOutcome {
  if (oldString === '') {
    throw new VfsError(
      'EINVAL',
      'old_string is empty. To create or overwrite a file use write_file; to insert text, put the surrounding text in old_string and repeat it with the insertion in new_string.',
    );
  }
  if (oldString === newString) {
    throw new VfsError('ENOCHANGE', 'old_string and new_string are identical; nothing to change (file unchanged).');
  }
  const replaceAll = options.replaceAll === true;
  const firstOfMany = options.firstOfMany === true && !replaceAll;

  const exact = findAll(text, oldString);
  if (exact.length > 0) {
    if (exact.length > 1 && !replaceAll && !firstOfMany) throw ambiguous(text, exact, null, false);
    const regions = (firstOfMany ? exact.slice(0, 1) : exact).map((start) => ({ start, end: start + oldString.length, replacement: newString }));
    return build(text, regions, null, null);
  }

  for (const fix of CORRECTIONS) {
    const found = fix(text, oldString, newString);
    if (found === null || found.regions.length === 0) continue;
    if (found.regions.length === 1 || firstOfMany || (replaceAll && found.lossless)) {
      // Whole-line and unescaped matches may also have converted line endings: say both.
      const first = found.regions[0]!;
      const eols = found.correction === 'line-endings' ? null : alsoConvertedEols(found.searched ?? oldString, text.slice(first.start, first.end));
      return build(text, firstOfMany ? [first] : found.regions, found.correction, eols === null ? found.note : `${found.note} ${eols}`);
    }
    throw ambiguous(
      text,
      found.regions.map((r) => r.start),
      found,
      replaceAll,
    );
  }
  throw noMatch(text, oldString);
}

/** Applies ascending, non-overlapping regions, giving each replacement line the ending of the line it lands on. */
function build(text: string, regions: readonly Region[], correction: CorrectionKind | null, note: string | null): EditOutcome {
  const parts: string[] = [];
  let changed = false;
  let cursor = 0;
  let line = 1; // line of `cursor` in the old text
  let lineShift = 0; // new-text line numbers minus old-text line numbers, so far
  let firstLine = 1;
  let lastLine = 1;
  const replacedLines: Array<[number, number]> = [];
  regions.forEach((r, i) => {
    const rep = fitEols(text, r.start, r.end, r.replacement);
    if (rep !== text.slice(r.start, r.end)) changed = true;
    line += countNewlines(text, cursor, r.start);
    const startLine = line + lineShift;
    if (i === 0) firstLine = startLine;
    const repLines = countNewlines(rep, 0, rep.length);
    lastLine = startLine + (rep.endsWith('\n') ? repLines - 1 : repLines);
    replacedLines.push([startLine, Math.max(startLine, lastLine)]);
    lineShift += repLines - countNewlines(text, r.start, r.end);
    parts.push(text.slice(cursor, r.start), rep);
    cursor = r.end;
    line += countNewlines(text, r.start, r.end);
  });
  if (!changed) {
    throw new VfsError('ENOCHANGE', 'after matching the file, new_string is identical to the text it would replace; nothing to change (file unchanged).');
  }
  parts.push(text.slice(cursor));
  return {
    text: parts.join(''),
    count: regions.length,
    correction,
    correctionNote: note,
    firstLine,
    lastLine: Math.max(firstLine, lastLine),
    replacedLines,
  };
}

function lineList(text: string, starts: readonly number[]): string {
  const shown = lineNumbersAt(text, starts.slice(0, MAX_LISTED_LINES));
  const more = starts.length - shown.length;
  // Several matches on one line are one entry with a count ("1 (2 times)"), not the line again.
  const parts: string[] = [];
  for (let i = 0; i < shown.length; ) {
    let j = i;
    while (j < shown.length && shown[j] === shown[i]) j++;
    parts.push(j - i > 1 ? `${shown[i]} (${j - i} times)` : `${shown[i]}`);
    i = j;
  }
  return parts.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

function ambiguous(text: string, starts: readonly number[], found: CorrectionResult | null, replaceAll: boolean): VfsError {
  const n = starts.length;
  const where = `(starting at lines ${lineList(text, starts)})`;
  if (found === null) {
    return new VfsError(
      'EAMBIGUOUS',
      `old_string matches ${n} times ${where}; file unchanged. Add surrounding lines to old_string so it matches exactly once, or set replace_all=true to replace all ${n}.`,
    );
  }
  const head = `old_string was not found exactly; ${found.how}, it matches ${n} places ${where}; file unchanged.`;
  if (found.lossless) {
    return new VfsError('EAMBIGUOUS', `${head} Add surrounding lines to old_string so it matches exactly once, or set replace_all=true to replace all ${n}.`);
  }
  const tail = replaceAll
    ? ' replace_all applies only to exact matches: re-read the file with read_file and copy old_string exactly.'
    : ' Re-read the file with read_file, copy old_string exactly, and add surrounding lines so it matches exactly once.';
  return new VfsError('EAMBIGUOUS', head + tail);
}

function noMatch(text: string, oldString: string): VfsError {
  const parts = ['old_string was not found in the file (file unchanged).'];
  // (Nothing to re-read in an empty file: the one next step is to write it.)
  if (text === '') return new VfsError('ENOMATCH', `${parts[0]}\nThe file is empty; use write_file to give it content.`);
  parts.push(...closestLinesNote(text, oldString));
  parts.push('Re-read the file with read_file and copy old_string exactly, including whitespace and indentation.');
  return new VfsError('ENOMATCH', parts.join('\n'));
}

/**
 * What a failed search for `oldString` in `text` tells the model: the closest lines, with their
 * numbers (`argument`: what the tool calls the text it searched for).
 */
export function closestLinesNote(text: string, oldString: string, argument = 'old_string'): string[] {
  const candidates = closestLines(text, oldString);
  if (candidates.length === 0) return [`No line resembles the first line of ${argument}.`];
  const width = Math.max(...candidates.map((c) => String(c.line).length));
  const parts = [`Closest lines (most similar first):\n${candidates.map((c) => `${String(c.line).padStart(width)}: ${clip(c.text)}`).join('\n')}`];
  const note = departureNote(text, oldString, candidates, argument);
  if (note !== null) parts.push(note);
  return parts;
}

/**
 * For a search text whose first line the file holds (at any of its lines, not only the
 * `candidates` shown): the first of its later lines that the file does not have there, beside
 * the file's line, so the model sees what to change. Null when the file does not hold that line.
 */
export function departureNote(text: string, oldString: string, candidates: readonly CandidateLine[], argument: string): string | null {
  if (!oldString.trim().includes('\n')) return null;
  const gone = departure(text, oldString);
  if (gone === null) {
    const starts = candidates.filter((c) => c.exact).map((c) => c.line);
    return starts.length === 0 ? null : `The first line of ${argument} matches line ${starts.join(', ')}, so the difference is in a later line.`;
  }
  const head = `The first line of ${argument} matches line ${gone.start}`;
  if (gone.beforeStart === true) return `${head}, the first line of the file, but ${argument} starts with blank lines above it.`;
  if (gone.line === 0) return `${head}, but ${argument} goes on past the end of the file with:\n  ${shownLine(gone.wanted)}`;
  const labels = [`${argument}:`, `line ${gone.line}:`];
  const width = Math.max(...labels.map((l) => l.length)) + 1;
  return `${head}; the first line that differs is line ${gone.line}:\n  ${labels[0]!.padEnd(width)}${shownLine(gone.wanted)}\n  ${labels[1]!.padEnd(width)}${shownLine(gone.found)}`;
}

/** A line of a departure note: clipped, and a blank one named as such (it would read as nothing). */
function shownLine(line: string): string {
  return line.trim() === '' ? `(${line === '' ? 'an empty line' : 'a line of whitespace only'})` : clip(line);
}

function clip(line: string): string {
  return line.length > 200 ? `${headOf(line, 200)}…` : line;
}
