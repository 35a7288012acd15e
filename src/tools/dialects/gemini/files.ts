/** Gemini CLI's read_file, write_file and replace over a Backend, worded as Gemini CLI words them. */
import { readMedia } from '../../read-media.ts';
import type { ToolPart } from '../../types.ts';
import { updatedCodeSnippet } from './snippet.ts';
import { isVfsError, VfsError } from '../../../errors.ts';
import { findAll } from '../../../edit/text-utils.ts';
import { closestLinesNote } from '../../../edit/apply-edit.ts';
import { decodeText, headOf, isBinary } from '../../../text.ts';
import type { DialectCall } from '../anthropic/context.ts';
import { MAX_LINES, MAX_LINE_LENGTH } from './names.ts';
import { MAX_RESULT_CHARS } from '../../definitions.ts';
import { fittingRows } from '../../limit-output.ts';
import { changedAfterEdit, editedText } from '../../edited-text.ts';
import { checkNewPath } from '../../new-path.ts';
import { refuseBlindOverwrite } from '../../read-refusal.ts';
import { didYouMean, suggestionsOf, visible } from '../../../backend/not-found.ts';

/** Our ENOENT suggestions ("Did you mean …?") from a backend error, to append to the vendor's sentence. */
function suggestions(error: unknown): string {
  const suggested = suggestionsOf(error);
  return suggested === undefined || !isVfsError(error) ? '' : didYouMean(error.path ?? '', suggested);
}

/** After the vendor's not-found sentence: our suggestions, or else where to look. */
export function notFoundHint(error: unknown): string {
  return suggestions(error) || ' Use list_directory or glob to see what exists.';
}

export async function readFile(
  call: DialectCall,
  filePath: string,
  startLine?: number,
  endLine?: number,
): Promise<string | { text: string; parts: ToolPart[] }> {
  const path = await call.backend.resolvePath(filePath);
  let read: Awaited<ReturnType<typeof call.backend.read>>;
  try {
    read = await call.backend.read(path);
  } catch (error) {
    if (isVfsError(error) && error.code === 'ENOENT') throw new VfsError('ENOENT', `File not found: ${visible(path)}.${notFoundHint(error)}`, { path });
    if (isVfsError(error) && error.code === 'EISDIR') throw new VfsError('EISDIR', `Path is a directory, not a file: ${path}`, { path });
    throw error;
  }
  call.reads.add(path, read.version);
  // An image or a PDF comes back as the file itself (Gemini CLI's inlineData), as read_file's does.
  const media = readMedia(path, read.content);
  if (media !== null) return media;
  if (isBinary(read.content)) return `Cannot display content of binary file: ${path}`;
  // As Gemini CLI splits (utils/fileUtils.ts): "a\nb\n" is three lines, so the text comes back whole.
  const lines = decodeText(read.content).split(/\r?\n/);
  const total = lines.length;
  const start = startLine ?? 1;
  if (total > 0 && start > total) {
    throw new VfsError('EINVAL', `start_line ${start} is past the end of ${path}, which has ${total} lines. Use a start_line from 1 to ${total}.`, { path });
  }
  if (endLine !== undefined && endLine < start) {
    throw new VfsError('EINVAL', `end_line ${endLine} is before start_line ${start}; give an end_line of at least ${start}.`, { path });
  }
  let end = Math.min(total, endLine ?? Number.POSITIVE_INFINITY, start + MAX_LINES - 1);
  let cut = false;
  let shown = lines.slice(start - 1, end).map((line) => {
    if (line.length <= MAX_LINE_LENGTH) return line;
    cut = true;
    return `${headOf(line, MAX_LINE_LENGTH)}... [truncated]`;
  });
  // Within the result cap: the lines that fit, and the range and start_line below say so.
  const room = MAX_RESULT_CHARS - HEADER_ROOM;
  if (shown.reduce((n, line) => n + line.length + 1, 0) > room) {
    shown = shown.slice(0, Math.max(1, fittingRows(shown, room).count));
    end = start + shown.length - 1;
  }
  const content = shown.join('\n');
  if (!(cut || start > 1 || end < total)) return content;
  // Gemini CLI's wording; where it would send the model past the last line (a read that reached
  // the end), this says what is there instead.
  const longLines = cut ? ` Lines over ${MAX_LINE_LENGTH} characters are cut ("... [truncated]"); read_file cannot show the rest of them.` : '';
  const action =
    end < total
      ? `Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: ${end + 1}.${longLines}`
      : `Action: This is the end of the file (line ${total}); there is nothing after it to read.${longLines}`;
  return (
    '\nIMPORTANT: The file content has been truncated.\n' +
    `Status: Showing lines ${start}-${end} of ${total} total lines.\n` +
    `${action}\n\n` +
    `--- FILE CONTENT (truncated) ---\n${content}`
  );
}

/** The version a write must find: what this session saw (ESTALE if it changed), else the current one; -1 for a new file. */
async function expectedVersion(call: DialectCall, path: string): Promise<{ version: number; exists: boolean }> {
  let current: number;
  try {
    const info = await call.backend.stat(path);
    if (info.isDir) throw new VfsError('EISDIR', `Path is a directory, not a file: ${path}`, { path });
    current = info.version;
  } catch (error) {
    if (isVfsError(error) && error.code === 'ENOENT') return { version: -1, exists: false };
    throw error;
  }
  call.reads.refuseUnseen(path);
  return { version: (await call.reads.expected(call.backend, path)) ?? current, exists: true };
}

/** Room read_file keeps for its header (the range, the start_line to go on with). */
const HEADER_ROOM = 600;

export async function writeFile(call: DialectCall, filePath: string, content: string): Promise<string> {
  const path = await call.backend.resolvePath(filePath);
  const { version, exists } = await expectedVersion(call, path);
  if (!exists) await checkNewPath(call.backend, filePath, path, 'file');
  else await refuseBlindOverwrite(call.backend, path, 'write_file');
  const before = exists ? await call.backend.readText(path) : '';
  // As Gemini CLI: a file whose lines end in CRLF keeps CRLF (the model writes "\n").
  const ending = before.includes('\r\n') ? content.replace(/\r?\n/g, '\r\n') : content;
  const result = await call.backend.writeFile(path, ending, { expectedVersion: version });
  call.reads.add(result.path, result.version);
  call.changed.push({ path: result.path, version: result.version });
  const done = result.created ? `Successfully created and wrote to new file: ${path}.` : `Successfully overwrote file: ${path}.`;
  // What was written: a person approving the write may have given other content (SPEC §10).
  const now = await call.backend.read(path).catch(() => null);
  const written = now !== null && now.version === result.version ? decodeText(now.content) : ending;
  return `${done} ${updatedCode(before, written)}`;
}

export interface ReplaceArgs {
  file_path: string;
  old_string: string;
  new_string: string;
  allow_multiple?: boolean;
  /** The parameter older Gemini CLI releases had (and models still send): the exact number of occurrences to replace. */
  expected_replacements?: number;
}

export async function replace(call: DialectCall, args: ReplaceArgs): Promise<string> {
  const path = await call.backend.resolvePath(args.file_path);
  const { old_string: oldString, new_string: newString } = args;
  const { version, exists } = await expectedVersion(call, path);
  if (!exists) {
    if (oldString !== '') {
      const why = await call.backend.stat(path).then(
        () => '',
        (e: unknown) => suggestions(e),
      );
      throw new VfsError('ENOENT', `File not found: ${visible(path)}.${why} Use an empty old_string to create a new file.`, { path });
    }
    await checkNewPath(call.backend, args.file_path, path, 'file');
    const made = await call.backend.writeFile(path, newString, { expectedVersion: -1 });
    call.reads.add(made.path, made.version);
    call.changed.push({ path: made.path, version: made.version });
    return `Created new file: ${path} with provided content. ${updatedCode('', newString)}`;
  }
  if (oldString === '') throw new VfsError('EEXIST', `File already exists, cannot create: ${path}`, { path });
  if (oldString === newString) throw new VfsError('ENOCHANGE', `No changes to apply. The old_string and new_string are identical in file: ${path}`, { path });
  const expected = args.expected_replacements;
  const before = await call.backend.readText(path);
  const occurrences = findAll(before, oldString).length;
  if (expected !== undefined && occurrences > 0 && occurrences !== expected) {
    throw new VfsError(
      'EAMBIGUOUS',
      `Failed to edit, Expected ${expected} ${expected === 1 ? 'occurrence' : 'occurrences'} but found ${occurrences} for old_string in file: ${path}`,
      { path },
    );
  }
  const replaceAll = args.allow_multiple === true || (expected !== undefined && expected > 1);
  if (occurrences > 1 && !replaceAll) {
    throw new VfsError(
      'EAMBIGUOUS',
      `Failed to edit, Expected 1 occurrence but found ${occurrences} for old_string in file: ${path}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.`,
      { path },
    );
  }
  try {
    const out = await call.backend.edit(path, oldString, newString, { replaceAll, expectedVersion: version });
    call.reads.add(out.path, out.version);
    call.changed.push({ path: out.path, version: out.version });
    const note = out.correctionNote === null ? '' : ` ${out.correctionNote}`;
    const after = await editedText(call.backend, path, out.version);
    // agentvfs's correction note before the code, where it cannot be read as a line of it.
    const done = `Successfully modified file: ${path} (${out.count} replacements).${note}`;
    return `${done} ${after === null ? changedAfterEdit(path, 'read it with read_file') : updatedCode(before, after)}`;
  } catch (error) {
    if (isVfsError(error) && error.code === 'ENOMATCH') {
      throw new VfsError(
        'ENOMATCH',
        `Failed to edit, 0 occurrences found for old_string in ${path}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.\n${(before === '' ? ['The file is empty.'] : closestLinesNote(before, oldString)).join('\n')}`,
        { path },
      );
    }
    throw error;
  }
}

/** The most of a success's "updated code" shown (a fifth of the result cap): a new file's is all of it. */
const MAX_UPDATED_CODE_CHARS = 16_000;

/** Gemini CLI adds the changed region to every success, so the model need not read the file to check. */
function updatedCode(before: string, after: string): string {
  const code = updatedCodeSnippet(before, after);
  if (code.length <= MAX_UPDATED_CODE_CHARS) return `Here is the updated code:\n${code}`;
  // A write or replace that succeeded is not cut like a failed search (TRUNCATION_NOTE): the model
  // wrote this text itself, so a part of it, and where to read the rest, is enough.
  const rows = code.split('\n');
  if (rows[rows.length - 1] === '') rows.pop();
  const { count, part } = fittingRows(rows, MAX_UPDATED_CODE_CHARS);
  // (Past a change's first, the snippet's "..." rows stand for lines left out, not lines of the file.)
  const left = before === '' ? rows.length - count : rows.slice(count).filter((row) => row !== '...').length;
  const rest = part === null ? `${left} more lines of the updated code are` : `the rest of its ${rows[0]!.length}-character first line is`;
  return `Here is the updated code:\n${part ?? rows.slice(0, count).join('\n')}\n... [${rest} not shown; the file was written whole: read_file shows it]`;
}
