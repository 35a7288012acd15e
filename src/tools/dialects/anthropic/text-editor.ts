/**
 * Anthropic's text editor tool, `str_replace_based_edit_tool` (`text_editor_20250728`): commands
 * view, create, str_replace and insert, with the results and error sentences of Anthropic's
 * reference implementation (anthropic-quickstarts computer-use-demo tools/edit.py), over a Backend.
 * Where this differs from that implementation, and why, is in docs/dialects.md.
 */
import { VfsError } from '../../../errors.ts';
import { statOrNull } from '../../../backend/stat-or-null.ts';
import { splitLines } from '../../../text.ts';
import { changedAfterEdit, editedText } from '../../edited-text.ts';
import type { DialectCall } from './context.ts';
import { TEXT_EDITOR_COMMANDS, TEXT_EDITOR_NAME } from './names.ts';
import { cappedTree, createFile, insertLines, listTwoLevels, notFoundNote, numberedView, readTextFile, replaceOnce, writeBack } from './editor-core.ts';
import { didYouMean as suggesting, suggestionsOf, visible } from '../../../backend/not-found.ts';

const SNIPPET_LINES = 4;

export interface TextEditorArgs {
  command: string;
  path: string;
  file_text?: string;
  view_range?: unknown;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  /** insert's text as Claude sends it (Anthropic's docs name it new_str, which is accepted too). */
  insert_text?: string;
}

/** A tool error in the vendor's words, with our stable code. */
function toolError(code: ConstructorParameters<typeof VfsError>[0], message: string, path?: string): VfsError {
  return new VfsError(code, message, path === undefined ? undefined : { path });
}

export async function runTextEditor(call: DialectCall, args: TextEditorArgs): Promise<string> {
  const { command } = args;
  if (!(TEXT_EDITOR_COMMANDS as readonly string[]).includes(command)) {
    throw toolError('EINVAL', `Unrecognized command ${command}. The allowed commands for the ${TEXT_EDITOR_NAME} tool are: ${TEXT_EDITOR_COMMANDS.join(', ')}`);
  }
  const path = await call.backend.resolvePath(args.path);
  const info = await statOrNull(call.backend, path);
  if (info === null && command !== 'create') {
    throw toolError('ENOENT', `The path ${visible(path)} does not exist. Please provide a valid path.${await didYouMean(call, path)}`, path);
  }
  if (info?.isDir === true && command === 'create') {
    throw toolError(
      'EISDIR',
      `The path ${path} is a directory; \`create\` makes a file: give a path inside it, such as ${path === '/' ? '' : path}/notes.md.`,
      path,
    );
  }
  if (info !== null && command === 'create') {
    throw toolError('EEXIST', `File already exists at: ${path}. Cannot overwrite files using command \`create\`.`, path);
  }
  if (info?.isDir === true && command !== 'view') {
    throw toolError('EISDIR', `The path ${path} is a directory and only the \`view\` command can be used on directories`, path);
  }
  switch (command) {
    case 'view':
      return info!.isDir ? viewDirectory(call, path, args.view_range) : viewFile(call, path, args.view_range);
    case 'create': {
      if (args.file_text === undefined) throw toolError('EINVAL', 'Parameter `file_text` is required for command: create');
      await createFile(call, args.path, path, args.file_text);
      return `File created successfully at: ${path}`;
    }
    case 'str_replace': {
      if (args.old_str === undefined) throw toolError('EINVAL', 'Parameter `old_str` is required for command: str_replace');
      return strReplace(call, path, args.old_str, args.new_str ?? '');
    }
    default: {
      if (args.insert_line === undefined) throw toolError('EINVAL', 'Parameter `insert_line` is required for command: insert');
      return insert(call, path, args.insert_line, insertText(args));
    }
  }
}

/**
 * The text an insert adds: Claude sends it as insert_text, though Anthropic's docs and reference
 * implementation name it new_str; either is taken, both only when they agree.
 */
function insertText({ insert_text: text, new_str: newStr }: TextEditorArgs): string {
  if (text !== undefined && newStr !== undefined && text !== newStr) {
    throw toolError('EINVAL', 'Parameters `insert_text` and `new_str` differ; give the text to insert once, as `insert_text`. The file is unchanged.');
  }
  const given = text ?? newStr;
  if (given === undefined) throw toolError('EINVAL', 'Parameter `insert_text` is required for command: insert');
  return given;
}

/** Our ENOENT suggestions ("Did you mean …?"), appended to the vendor's sentence. */
async function didYouMean(call: DialectCall, path: string): Promise<string> {
  try {
    await call.backend.stat(path);
  } catch (error) {
    const suggested = suggestionsOf(error);
    if (suggested !== undefined) return suggesting(path, suggested);
  }
  return '';
}

/** edit.py tests `if view_range:`, so an empty list means none. */
function given(viewRange: unknown): boolean {
  return viewRange !== undefined && viewRange !== null && !(Array.isArray(viewRange) && viewRange.length === 0);
}

/** edit.py's output of `lines` from `initLine` on, of a file of `total` lines, capped (numberedView). */
function output(lines: readonly string[], descriptor: string, initLine: number, total: number): string {
  // edit.py numbers `content.split("\n")`: no lines at all still show as one empty line.
  return numberedView(`Here's the result of running \`cat -n\` on ${descriptor}:\n`, lines.length === 0 ? [''] : lines, initLine, total, '\n');
}

async function viewDirectory(call: DialectCall, path: string, viewRange: unknown): Promise<string> {
  if (given(viewRange)) throw toolError('EINVAL', 'The `view_range` parameter is not allowed when `path` points to a directory.', path);
  const entries = await listTwoLevels(call, path, 'ls');
  // edit.py appends a line break to find's output, which ends with one.
  const head = `Here's the files and directories up to 2 levels deep in ${path}, excluding hidden items:\n`;
  return cappedTree(
    head,
    path,
    [path],
    entries,
    entries.map((e) => e.path),
    '\n\n',
  );
}

async function viewFile(call: DialectCall, path: string, viewRange: unknown): Promise<string> {
  const file = await readTextFile(call, path, false);
  // An empty file is one empty line, as edit.py splits it (and as its view shows it).
  const lines = file.text === '' ? [''] : splitLines(file.text);
  if (!given(viewRange)) return output(lines, path, 1, lines.length);
  if (!Array.isArray(viewRange) || viewRange.length !== 2 || !viewRange.every((n) => Number.isSafeInteger(n))) {
    throw toolError('EINVAL', 'Invalid `view_range`. It should be a list of two integers.', path);
  }
  const [init, final] = viewRange as [number, number];
  const n = lines.length;
  const shown = `[${init}, ${final}]`;
  if (init < 1 || init > n) {
    throw toolError(
      'EINVAL',
      `Invalid \`view_range\`: ${shown}. Its first element \`${init}\` should be within the range of lines of the file: [1, ${n}]`,
      path,
    );
  }
  if (final > n) {
    throw toolError(
      'EINVAL',
      `Invalid \`view_range\`: ${shown}. Its second element \`${final}\` should be smaller than the number of lines in the file: \`${n}\``,
      path,
    );
  }
  if (final !== -1 && final < init) {
    throw toolError('EINVAL', `Invalid \`view_range\`: ${shown}. Its second element \`${final}\` should be larger or equal than its first \`${init}\``, path);
  }
  return output(lines.slice(init - 1, final === -1 ? n : final), path, init, n);
}

async function strReplace(call: DialectCall, path: string, oldStr: string, newStr: string): Promise<string> {
  const file = await readTextFile(call, path, true);
  if (oldStr === '') {
    throw toolError(
      'EINVAL',
      `No replacement was performed. old_str is empty; copy the exact text to replace from ${path} (use \`insert\` to add lines).`,
      path,
    );
  }
  const outcome = await replaceOnce(call, file, oldStr, newStr);
  if (outcome.kind === 'none') {
    throw toolError(
      'ENOMATCH',
      `No replacement was performed, old_str \`${oldStr}\` did not appear verbatim in ${path}.${notFoundNote(file.text, oldStr)}`,
      path,
    );
  }
  if (outcome.kind === 'many') {
    throw toolError(
      'EAMBIGUOUS',
      `No replacement was performed. Multiple occurrences of old_str \`${oldStr}\` in lines [${[...new Set(outcome.lines)].join(', ')}]. Please ensure it is unique`,
      path,
    );
  }
  const note = outcome.note === null ? '' : `${outcome.note} `;
  const text = await editedText(call.backend, path, outcome.version);
  if (text === null) return `The file ${path} has been edited. ${note}${changedAfterEdit(path, 'view it')}`;
  const lines = splitLines(text);
  const start = Math.max(1, outcome.firstLine - SNIPPET_LINES);
  const end = Math.min(lines.length, outcome.lastLine + SNIPPET_LINES);
  return (
    `The file ${path} has been edited. ${note}${output(lines.slice(start - 1, end), `a snippet of ${path}`, start, lines.length)}` +
    'Review the changes and make sure they are as expected. Edit the file again if necessary.'
  );
}

async function insert(call: DialectCall, path: string, insertLine: number, newStr: string): Promise<string> {
  const file = await readTextFile(call, path, true);
  // view shows an empty file as one empty line (as edit.py splits it): after it is its start.
  const empty = file.text === '';
  const n = empty ? 1 : splitLines(file.text).length;
  const next = insertLines(file.text, empty && insertLine === 1 ? 0 : insertLine, newStr, 'keep');
  if (next === null) {
    throw toolError('EINVAL', `Invalid \`insert_line\` parameter: ${insertLine}. It should be within the range of lines of the file: [0, ${n}]`, path);
  }
  await writeBack(call, file, next);
  const lines = splitLines(next);
  const inserted = splitLines(newStr).length || 1;
  const start = Math.max(1, insertLine - SNIPPET_LINES + 1);
  const end = Math.min(lines.length, insertLine + inserted + SNIPPET_LINES);
  return (
    `The file ${path} has been edited. ${output(lines.slice(start - 1, end), 'a snippet of the edited file', start, lines.length)}` +
    'Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.'
  );
}
