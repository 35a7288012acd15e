/**
 * Anthropic's memory tool, `memory` (`memory_20250818`), confined to the directory `/memories`:
 * view, create, str_replace, insert, delete, rename, with the results and error sentences of
 * Anthropic's SDK implementation (anthropic-sdk-python, lib/tools/_beta_builtin_memory_tool.py).
 * Paths are normalized first, so `/memories/../x` and `/memoriesX` are refused, not resolved.
 */
import { isVfsError, VfsError } from '../../../errors.ts';
import { statOrNull } from '../../../backend/stat-or-null.ts';
import { baseName } from '../../../paths.ts';
import { checkNewPath } from '../../new-path.ts';
import { splitLines } from '../../../text.ts';
import { changedAfterEdit, editedText } from '../../edited-text.ts';
import { type DialectCall, moveRecorded, removeRecorded } from './context.ts';
import { MEMORY_COMMANDS, MEMORY_ROOT } from './names.ts';
import {
  cappedTree,
  createFile,
  insertLines,
  listTwoLevels,
  notFoundNote,
  numberedRows,
  numberedView,
  readTextFile,
  refuseStale,
  replaceOnce,
  writeBack,
} from './editor-core.ts';
import { visible } from '../../../backend/not-found.ts';

export interface MemoryArgs {
  command: string;
  path?: string;
  view_range?: unknown;
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  insert_text?: string;
  old_path?: string;
  new_path?: string;
}

function fail(code: ConstructorParameters<typeof VfsError>[0], message: string, path?: string): VfsError {
  return new VfsError(code, message, path === undefined ? undefined : { path });
}

/** `path` normalized, refused unless it is /memories or below it. */
async function memoryPath(call: DialectCall, path: string | undefined, param = 'path'): Promise<string> {
  if (path === undefined) throw fail('EINVAL', `Parameter \`${param}\` is required.`);
  if (!path.startsWith(MEMORY_ROOT)) throw fail('EINVAL', `Path must start with ${MEMORY_ROOT}, got: ${path}`);
  let resolved: string;
  try {
    resolved = await call.backend.resolvePath(path);
  } catch (e) {
    // Only a ".." above the root escapes; a path refused for another reason (a NUL byte, a line
    // break, a name over 255 bytes) is refused with that reason.
    if (isVfsError(e) && !goesAboveRoot(path)) throw e;
    throw fail('EINVAL', `Path ${path} would escape ${MEMORY_ROOT} directory`);
  }
  if (resolved !== MEMORY_ROOT && !resolved.startsWith(`${MEMORY_ROOT}/`)) throw fail('EINVAL', `Path ${path} would escape ${MEMORY_ROOT} directory`);
  return resolved;
}

/** Whether the `..` segments of `path` climb above the root (backslashes count as separators, as in every path). */
function goesAboveRoot(path: string): boolean {
  let depth = 0;
  for (const segment of path.split(/[\\/]/)) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** The SDK's size column: 0B, 512B, 1.5K, 4K, 2.3M. */
export function formatSize(bytes: number): string {
  if (bytes === 0) return '0B';
  const units = ['B', 'K', 'M', 'G'];
  const i = Math.min(Math.floor(Math.log2(bytes) / 10), units.length - 1);
  const size = bytes / 1024 ** i;
  return Number.isInteger(size) ? `${size}${units[i]}` : `${size.toFixed(1)}${units[i]}`;
}

export async function runMemory(call: DialectCall, args: MemoryArgs): Promise<string> {
  switch (args.command) {
    case 'view':
      return view(call, args);
    case 'create': {
      const path = await memoryPath(call, args.path);
      if (args.file_text === undefined) throw fail('EINVAL', 'Parameter `file_text` is required for command: create');
      // The memory directory itself, made a file, would leave nowhere to write (and cannot be deleted).
      if (path === MEMORY_ROOT) throw fail('EISDIR', `${MEMORY_ROOT} is the memory directory; create a file inside it, such as ${MEMORY_ROOT}/notes.md.`, path);
      const info = await statOrNull(call.backend, path);
      if (info?.isDir === true) throw fail('EISDIR', `${path} is a directory; create a file inside it, such as ${path}/notes.md.`, path);
      if (info !== null) throw fail('EEXIST', `File ${path} already exists`, path);
      await createFile(call, args.path ?? path, path, args.file_text);
      return `File created successfully at: ${path}`;
    }
    case 'str_replace':
      return strReplace(call, args);
    case 'insert':
      return insert(call, args);
    case 'delete':
      return remove(call, args);
    case 'rename':
      return rename(call, args);
    default:
      throw fail('EINVAL', `Unknown command: ${args.command}. The memory tool's commands are: ${MEMORY_COMMANDS.join(', ')}.`);
  }
}

async function existingFile(call: DialectCall, path: string): Promise<void> {
  const info = await statOrNull(call.backend, path);
  if (info === null) throw fail('ENOENT', `The path ${visible(path)} does not exist. Please provide a valid path.`, path);
  if (info.isDir) throw fail('EISDIR', `The path ${path} is not a file.`, path);
}

async function view(call: DialectCall, args: MemoryArgs): Promise<string> {
  const path = await memoryPath(call, args.path);
  const info = await statOrNull(call.backend, path);
  // The SDK creates /memories up front; here an absent one views as empty, without writing anything.
  if (info === null && path !== MEMORY_ROOT) throw fail('ENOENT', `The path ${visible(path)} does not exist. Please provide a valid path.`, path);
  if (info === null || info.isDir) {
    // As the TypeScript SDK's memory tool: node_modules is left out too.
    const entries = (info === null ? [] : await listTwoLevels(call, path, 'name')).filter(
      (e) =>
        !e.path
          .slice(path.length + 1)
          .split('/')
          .includes('node_modules'),
    );
    const total = entries.filter((e) => e.path.lastIndexOf('/') === path.length).reduce((sum, e) => sum + e.size, 0);
    const rows = entries.map((e) => `${formatSize(e.size)}\t${e.path}${e.isDir ? '/' : ''}`);
    const head = `Here're the files and directories up to 2 levels deep in ${path}, excluding hidden items and node_modules:\n`;
    return cappedTree(head, path, [`${formatSize(total)}\t${path}`], entries, rows, '');
  }
  const file = await readTextFile(call, path, false);
  const lines = splitLines(file.text);
  let shown = lines;
  let first = 1;
  const range = args.view_range;
  if (Array.isArray(range) && range.length === 2 && range.every((n) => Number.isSafeInteger(n))) {
    const [from, to] = range as [number, number];
    first = Math.max(1, from);
    shown = lines.slice(first - 1, to === -1 ? lines.length : to);
  }
  return numberedView(`Here's the content of ${path} with line numbers:\n`, shown, first, lines.length, '');
}

/**
 * The lines `needle` starts on, each once (the TypeScript SDK lists the lines holding it), overlapping
 * starts too; null when the text holds it once or not at all (the match was one of the
 * corrections: its lines are the matcher's).
 */
function linesOfEveryStart(text: string, needle: string): number[] | null {
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  let found = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) {
    for (; counted < at; counted++) if (text.charCodeAt(counted) === 10) line++;
    if (lines[lines.length - 1] !== line) lines.push(line);
    found++;
  }
  return found > 1 ? lines : null;
}

async function strReplace(call: DialectCall, args: MemoryArgs): Promise<string> {
  const path = await memoryPath(call, args.path);
  if (args.old_str === undefined) throw fail('EINVAL', 'Parameter `old_str` is required for command: str_replace');
  await existingFile(call, path);
  const file = await readTextFile(call, path, true);
  const oldStr = args.old_str;
  const outcome = oldStr === '' ? ({ kind: 'none' } as const) : await replaceOnce(call, file, oldStr, args.new_str ?? '');
  if (outcome.kind === 'none')
    throw fail('ENOMATCH', `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.${notFoundNote(file.text, oldStr)}`, path);
  if (outcome.kind === 'many') {
    throw fail(
      'EAMBIGUOUS',
      `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines: ${(linesOfEveryStart(file.text, oldStr) ?? outcome.lines).join(', ')}. Please ensure it is unique`,
      path,
    );
  }
  const note = outcome.note === null ? '' : ` ${outcome.note}`;
  const text = await editedText(call.backend, path, outcome.version);
  if (text === null) return `The memory file has been edited.${note} ${changedAfterEdit(path, 'view it')}`;
  const lines = splitLines(text);
  const from = Math.max(1, outcome.firstLine - 2);
  const to = Math.min(lines.length, outcome.firstLine + 2);
  return `The memory file has been edited.${note} Here is the snippet showing the change (with line numbers):\n${numberedRows(lines.slice(from - 1, to), from)}`;
}

async function insert(call: DialectCall, args: MemoryArgs): Promise<string> {
  const path = await memoryPath(call, args.path);
  if (args.insert_line === undefined) throw fail('EINVAL', 'Parameter `insert_line` is required for command: insert');
  if (args.insert_text === undefined) throw fail('EINVAL', 'Parameter `insert_text` is required for command: insert');
  await existingFile(call, path);
  const file = await readTextFile(call, path, true);
  const next = insertLines(file.text, args.insert_line, args.insert_text, 'add');
  if (next === null) {
    const n = splitLines(file.text).length;
    throw fail('EINVAL', `Invalid \`insert_line\` parameter: ${args.insert_line}. It should be within the range of lines of the file: [0, ${n}]`, path);
  }
  await writeBack(call, file, next);
  return `The file ${path} has been edited.`;
}

async function remove(call: DialectCall, args: MemoryArgs): Promise<string> {
  const path = await memoryPath(call, args.path);
  const info = await statOrNull(call.backend, path);
  // (A file at /memories, written by other tools, may go: the memory tool could not work with it there.)
  if (path === MEMORY_ROOT && info?.isDir !== false) throw fail('EINVAL', `Cannot delete the ${MEMORY_ROOT} directory itself`, path);
  if (info === null) throw fail('ENOENT', `The path ${visible(path)} does not exist`, path);
  // A file this session viewed that changed since is refused, as an edit of it would be; so is a
  // directory holding one.
  if (!info.isDir) await refuseStale(call, path, info.version);
  else for (const file of await call.backend.glob('**', { path }).catch(() => [])) await refuseStale(call, file, (await call.backend.stat(file)).version);
  await removeRecorded(call, path);
  return `Successfully deleted ${path}`;
}

async function rename(call: DialectCall, args: MemoryArgs): Promise<string> {
  const from = await memoryPath(call, args.old_path, 'old_path');
  const to = await memoryPath(call, args.new_path, 'new_path');
  if ((await statOrNull(call.backend, to)) !== null) throw fail('EEXIST', `The destination ${to} already exists`, to);
  if ((await statOrNull(call.backend, from)) === null) throw fail('ENOENT', `The path ${from} does not exist`, from);
  if (from === MEMORY_ROOT) throw fail('EINVAL', `Cannot rename the ${MEMORY_ROOT} directory itself`, from);
  await checkNewPath(call.backend, args.new_path as string, to, (await call.backend.stat(from)).isDir ? 'directory' : 'file', baseName(from));
  await moveRecorded(call, from, to);
  return `Successfully renamed ${from} to ${to}`;
}
