/**
 * The file operations Anthropic's text editor and memory tools share, over any Backend, returning
 * plain facts; each tool words its own results (the two vendor tools word them differently).
 *
 * Neither vendor tool needs a prior read, so none is required here; but a file this session read or
 * wrote that changed since is refused (ESTALE, SPEC §8), and every write names the version it was
 * computed from, so a concurrent change is never overwritten.
 */
import { closestLinesNote } from '../../../edit/apply-edit.ts';
import { isVfsError, VfsError } from '../../../errors.ts';
import { findAll, lineNumbersAt } from '../../../edit/text-utils.ts';
import { decodeForEdit, decodeText, encodeText, hasBom, isBinary, splitLines } from '../../../text.ts';
import type { DialectCall } from './context.ts';
import { MAX_RESULT_CHARS } from '../../definitions.ts';
import { fittingRows, namesWithin, TRUNCATION_NOTE } from '../../limit-output.ts';
import { wellFormedText } from '../../../backend/refusals.ts';
import { checkNewPath } from '../../new-path.ts';
import { noteInWordsOf } from '../next-actions.ts';

export interface TextFile {
  path: string;
  text: string;
  version: number;
  bom: boolean;
}

/**
 * The text of `path` (refused if binary); counts as read. `forEdit`: also refused (ESTALE) when this
 * session saw another version, since the model's edit was written against that one.
 */
export async function readTextFile(call: DialectCall, path: string, forEdit: boolean): Promise<TextFile> {
  const { content, version } = await call.backend.read(path);
  if (forEdit) await refuseStale(call, path, version);
  if (isBinary(content)) {
    throw new VfsError('EBINARY', `${path} is a binary file (${content.length} bytes); this tool shows and edits text only.`, { path });
  }
  call.reads.add(path, version);
  return { path, text: forEdit ? decodeForEdit(content, path) : decodeText(content), version, bom: hasBom(content) };
}

/** ESTALE when this session read or wrote `path` and its current version is not one it saw. */
export async function refuseStale(call: DialectCall, path: string, current: number): Promise<void> {
  call.reads.refuseUnseen(path);
  const expected = await call.reads.expected(call.backend, path);
  if (expected === undefined || expected === current) return;
  throw new VfsError(
    'ESTALE',
    `${path} changed since this session last viewed or wrote it; the file is unchanged. View it again, then retry with what it holds now.`,
    { path },
  );
}

/** Writes `text` over `file` (keeping its BOM), only if the file is still at the version it was read at. */
export async function writeBack(call: DialectCall, file: TextFile, text: string): Promise<void> {
  // Encoded here (to keep the BOM), so the backend's check of a string's characters is made here.
  const bytes = encodeText(wellFormedText(text, `Content for ${file.path}`, file.path));
  const data = file.bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]) : bytes;
  const result = await call.backend.writeFile(file.path, data, { expectedVersion: file.version });
  call.reads.add(result.path, result.version);
  call.changed.push({ path: result.path, version: result.version });
}

/** Creates `path` (as the model gave it: `input`) with `text`; refused (EEXIST) when anything is there. */
export async function createFile(call: DialectCall, input: string, path: string, text: string): Promise<void> {
  await checkNewPath(call.backend, input, path, 'file');
  const result = await call.backend.writeFile(path, text, { expectedVersion: -1 });
  call.reads.add(result.path, result.version);
  call.changed.push({ path: result.path, version: result.version });
}

export type ReplaceOutcome =
  | { kind: 'none' }
  | { kind: 'many'; lines: number[] }
  | { kind: 'done'; firstLine: number; lastLine: number; note: string | null; version: number };

/**
 * str_replace through the backend's edit: exactly one exact match, else the shared corrections of
 * edit_file (each only when it gives exactly one match), computed against the version `file` was
 * read at. Several matches come back with the line each starts on.
 */
export async function replaceOnce(call: DialectCall, file: TextFile, oldStr: string, newStr: string): Promise<ReplaceOutcome> {
  const exact = findAll(file.text, oldStr);
  if (exact.length > 1) return { kind: 'many', lines: lineNumbersAt(file.text, exact) };
  try {
    const out = await call.backend.edit(file.path, oldStr, newStr, { expectedVersion: file.version });
    call.reads.add(out.path, out.version);
    call.changed.push({ path: out.path, version: out.version });
    const note = out.correctionNote === null ? null : noteInWordsOf('anthropic', out.correctionNote);
    return { kind: 'done', firstLine: out.firstLine, lastLine: out.lastLine, note, version: out.version };
  } catch (error) {
    if (isVfsError(error) && error.code === 'ENOMATCH') return { kind: 'none' };
    if (isVfsError(error) && error.code === 'EAMBIGUOUS') return { kind: 'many', lines: linesIn(error.message) };
    throw error;
  }
}

// A corrected match found several times: the edit's message names the lines ("starting at lines 3, 9").
function linesIn(message: string): number[] {
  const m = /starting at lines ([\d, ]+)/.exec(message);
  return m === null ? [] : m[1]!.split(',').map((s) => Number(s.trim()));
}

/** The file's line break: its first one's, or \n. */
function eolOf(text: string): string {
  const at = text.indexOf('\n');
  return at > 0 && text[at - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * `insertion` placed after line `after` (0 = the top) of `text` as whole lines (one trailing line
 * break of `insertion` ends its last line), in the file's line endings. Null when `after` is
 * outside [0, line count]. At the end of a file without a final newline, `finalNewline: 'keep'`
 * leaves the result without one (edit.py joins the lines), `'add'` ends it with one (the SDK's
 * memory tool always does).
 */
export function insertLines(text: string, after: number, insertion: string, finalNewline: 'keep' | 'add'): string | null {
  const lines = splitLines(text);
  if (after < 0 || after > lines.length) return null;
  const eol = eolOf(text);
  const block = insertion.replace(/\r?\n$/, '').replace(/\r?\n/g, eol) + eol;
  let offset = 0;
  for (let i = 0; i < after; i++) offset = text.indexOf('\n', offset) + 1;
  if (after === lines.length && text !== '' && !text.endsWith('\n')) {
    return finalNewline === 'add' ? `${text}${eol}${block}` : `${text}${eol}${block.slice(0, -eol.length)}`;
  }
  const out = text.slice(0, offset) + block + text.slice(offset);
  return finalNewline === 'add' && !out.endsWith('\n') ? `${out}${eol}` : out;
}

export interface TreeEntry {
  path: string;
  isDir: boolean;
  /** Bytes of a file; of a directory, the bytes of the files listed below it. */
  size: number;
}

/**
 * The entries up to two levels below `dir`, depth-first, hidden entries (a name starting with ".")
 * left out and not entered. `order`: 'ls' (directories first, then by name; the text editor's
 * `find` would give the order of the disk) or 'name' (by name alone, as the SDK's memory tool sorts).
 */
export async function listTwoLevels(call: DialectCall, dir: string, order: 'ls' | 'name'): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const walk = async (path: string, depth: number): Promise<number> => {
    let total = 0;
    const entries = await call.backend.ls(path);
    if (order === 'name') entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const entry: TreeEntry = { path: e.path, isDir: e.isDir, size: e.size };
      out.push(entry);
      if (e.isDir && depth < 2) entry.size = await walk(e.path, depth + 1);
      total += entry.size;
    }
    return total;
  };
  await walk(dir, 1);
  return out;
}

/**
 * `head`, then `top` (the rows before the entries), the rows of `entries` (one each, from listTwoLevels
 * of `dir`), then `end`. Over the result cap: the first level first (as many of its rows as fit), then
 * as many second-level rows as fit, each in its place, and a line saying what was left out and how
 * to see it: never a silent cut.
 */
export function cappedTree(head: string, dir: string, top: readonly string[], entries: readonly TreeEntry[], rows: readonly string[], end: string): string {
  const whole = `${head}${[...top, ...rows].join('\n')}${end}`;
  if (whole.length <= MAX_RESULT_CHARS) return whole;
  const prefix = dir === '/' ? 1 : dir.length + 1;
  const deep = entries.map((e) => e.path.indexOf('/', prefix) !== -1);
  const fixed = head.length + end.length + top.join('\n').length + 1;
  let room = MAX_RESULT_CHARS - fixed - NOTE_ROOM - dir.length;
  const kept = new Array<boolean>(rows.length).fill(false);
  for (const second of [false, true]) {
    for (const [i, row] of rows.entries()) {
      if (deep[i] !== second || room < row.length + 1) continue;
      kept[i] = true;
      room -= row.length + 1;
    }
  }
  const note = () => {
    const belowLeftOut = [...new Set(entries.filter((_, i) => !kept[i] && deep[i]).map((e) => e.path.slice(0, e.path.lastIndexOf('/'))))];
    const topLeftOut = entries.filter((_, i) => !kept[i] && !deep[i]).length;
    // (Room for the first directory's name whatever its length: "view 3 files" would name none.)
    const names = namesWithin(belowLeftOut, Math.max(NAMES_ROOM, (belowLeftOut[0]?.length ?? 0) + 20));
    const below = `view ${names} to see what is in ${belowLeftOut.length === 1 ? 'it' : 'each'}`;
    const how =
      topLeftOut === 0
        ? below
        : `${topLeftOut} of the entries directly in ${dir} are left out: it holds more than one result can list${belowLeftOut.length > 0 ? `; ${below}` : ''}`;
    const shown = kept.filter(Boolean).length;
    return `[${shown} of ${rows.length} entries shown: the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters; ${how}]`;
  };
  // The note's length depends on what is left out: drop the last rows kept (those below first) until it fits.
  for (;;) {
    const line = note();
    let over = fixed + rows.reduce((sum, row, i) => sum + (kept[i] ? row.length + 1 : 0), 0) + line.length - MAX_RESULT_CHARS;
    if (over <= 0) return `${head}${[...top, ...rows.filter((_, i) => kept[i]), line].join('\n')}${end}`;
    for (const second of [true, false]) {
      for (let i = rows.length - 1; i >= 0 && over > 0; i--) {
        if (!kept[i] || deep[i] !== second) continue;
        kept[i] = false;
        over -= rows[i]!.length + 1;
      }
    }
    if (!kept.includes(true)) return `${head}${[...top, line].join('\n')}${end}`.slice(0, MAX_RESULT_CHARS);
  }
}

/** `cat -n` rows (6-wide numbers, a tab) for `lines` numbered from `first`. */
export function numberedRows(lines: readonly string[], first: number): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
}

const NUMBER_PREFIX = 7; // "%6d\t"
const NOTE_ROOM = 300;
/** Characters of the directory names a capped view's note offers to view. */
const NAMES_ROOM = 300;

/**
 * `head`, the `cat -n` rows of `lines` (numbered from `first`, of a file of `total` lines), then
 * `end`; over the result cap, the rows that fit and a note naming the `view_range` that shows the
 * next ones (a line too long to show alone is shown in part, and the note says so).
 */
export function numberedView(head: string, lines: readonly string[], first: number, total: number, end: string): string {
  const rows = lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`);
  const whole = `${head}${rows.join('\n')}${end}`;
  if (whole.length <= MAX_RESULT_CHARS) return whole;
  const { count, part } = fittingRows(rows, MAX_RESULT_CHARS - head.length - TRUNCATION_NOTE.length - NOTE_ROOM);
  const last = first + lines.length - 1;
  const rangeAfter = (line: number) => `view_range [${line + 1}, ${last === total ? -1 : last}]`;
  if (part === null) {
    const shownLast = first + count - 1;
    return `${head}${rows.slice(0, count).join('\n')}\n[lines ${first}-${shownLast} of ${total} shown: the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters; ${rangeAfter(shownLast)} shows the next ones]\n${TRUNCATION_NOTE}`;
  }
  const shownChars = Math.max(0, part.length - NUMBER_PREFIX);
  const after = first < last ? `; ${rangeAfter(first)} shows the lines after it` : '';
  return `${head}${part}\n[line ${first} is ${lines[0]!.length.toLocaleString('en-US')} characters long; only its first ${shownChars.toLocaleString('en-US')} are shown, as the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters${after}]\n${TRUNCATION_NOTE}`;
}

/**
 * What follows the vendor's "did not appear verbatim" sentence: the closest lines of the file (as
 * every agentvfs edit tool gives them) and how to copy old_str.
 */
export function notFoundNote(text: string, oldStr: string): string {
  const closest = text === '' ? ['The file is empty.'] : closestLinesNote(text, oldStr, 'old_str');
  return `\n${[...closest, 'Use the view command to see the file, then copy old_str exactly, including whitespace and indentation.'].join('\n')}`;
}
