/**
 * createTools(backend, options?): the six agent tools (or another dialect's, see dialects/) over
 * any Backend. A tool set is one agent session unless it shares a `session`: it remembers which
 * file versions it has read, and write and edit are refused unless the current version was read.
 */
import { isDirMessage } from '../backend/refusals.ts';
import type { Backend, GrepMatch } from '../backend/types.ts';
import { isVfsError, VfsError } from '../errors.ts';
import { counted } from '../counted.ts';
import type { ToolsAround } from '../tool-host.ts';
import { countLines, decodeText, firstNotUtf8Line, isBinary, splitLines } from '../text.ts';
import { buildDefinitions, GLOB_MAX_RESULTS, MAX_RESULT_CHARS, type ToolName } from './definitions.ts';
import { checkDialect, type DialectName, type DialectToolName } from './dialects/names.ts';
import { createDialectTools } from './dialects/registry.ts';
import { globNothingFound, grepNothingFound, withLiteralHint, type GrepCall } from './empty-search.ts';
import { contentRows, countEntries, filesEntries, type OutputMode } from './format-grep.ts';
import { EMPTY_FILE_REMINDER, formatRead, lineRows, MAX_LINE_CHARS, rowCount } from './format-read.ts';
import { globIgnoredNote, grepIgnoredNote, joinTails, lsIgnoredNote } from './ignored-note.ts';
import { joinCapped, TRUNCATION_NOTE } from './limit-output.ts';
import { readMedia } from './read-media.ts';
import { changedAfterEdit, editedText } from './edited-text.ts';
import { retriedAfterOwnWrites, toolRunner, type ToolHandler } from './run-tool.ts';
import { sessionReads } from './session-state.ts';
import type { CallReads } from './read-versions.ts';
import { toolSet } from './tool-set.ts';
import { toolPreviewer } from './preview-call.ts';
import { numberedTools } from './numbered-tools.ts';
import { checkNewPath } from './new-path.ts';
import { cannotReplace, readRefusal } from './read-refusal.ts';
import type { Tools, ToolsOptions } from './types.ts';
import { createGuardSession } from '../guard/session.ts';

const SNIPPET_CONTEXT = 3;
const SNIPPET_MAX_LINES = 40;

/** What a grep result that shows `shown` of `total` entries says to see more: head_limit helps only when it made the cut, not the result cap. */
function howToSeeMore(shown: number, total: number, headLimit: number, mode: OutputMode): string {
  if (shown >= Math.min(total, headLimit)) return 'narrow the search or raise head_limit';
  // count rows are longer than bare paths: only content mode shows more files as counts.
  const count = mode === 'content' ? ', or use output_mode "count"' : '';
  return `the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters: narrow the search with path, glob or a more specific pattern${count}`;
}

export function createTools<D extends DialectName = 'agentvfs'>(backend: Backend, options: ToolsOptions<D> = {}): Tools<DialectToolName<D>> {
  return numberedTools(backend, options, createSessionTools);
}

/**
 * The tools running here, over `backend`'s methods, each call wrapped in `around` (used by tool
 * hosts that wrap a local backend). No audit: createTools adds it around the host's session.
 */
export function createLocalTools(backend: Backend, options: ToolsOptions = {}, around?: ToolsAround): Tools<string> {
  const session = createSessionTools(backend, options);
  return around ? around(session) : session;
}

/**
 * The session itself, of any dialect: with permissions or approve, each call runs over a guarded
 * view of the backend (src/guard, through toolRunner), and its result carries the call's decision
 * for the audit, which runs where the caller is (withAudit here, or the client of a worker).
 */
export function createSessionTools(backend: Backend, options: ToolsOptions = {}): Tools<string> {
  const dialect = checkDialect(options.dialect);
  const readVersions = sessionReads(options.session);
  const guard = createGuardSession(options);
  if (dialect !== 'agentvfs') return createDialectTools(backend, dialect, readVersions, options.descriptions, guard);
  const definitions = buildDefinitions(options.descriptions);
  const run = toolRunner(definitions, defaultHandlers, backend, readVersions, {}, guard);
  return toolSet(definitions, retriedAfterOwnWrites(run, readVersions, backend), toolPreviewer(definitions, defaultHandlers, backend, readVersions, {}, guard));
}

/** The six tools' handlers over `backend` (a guarded call gets its own, over its guarded view). */
function defaultHandlers(backend: Backend, readVersions: CallReads): Record<ToolName, ToolHandler> {
  // `changed` collects the files a call writes, for its ToolResult.
  const handlers: Record<ToolName, ToolHandler> = {
    async ls(args) {
      const { entries, ignored } = await backend.ls(args.path as string, { respectGitIgnore: args.respect_git_ignore as boolean, countIgnored: true });
      const rows = entries.map((e) => JSON.stringify({ name: e.name, path: e.path, is_dir: e.isDir, size: e.size }));
      const note = ignored === 0 ? '' : `\n${lsIgnoredNote(ignored)}`;
      const json = `[${rows.join(',')}]`;
      if (json.length + note.length <= MAX_RESULT_CHARS) return json + note;
      // The first line stays a valid JSON array of the entries that fit; then how many were
      // left out, and the closing note every capped result ends with.
      const left = (kept: number) =>
        `... [${counted(rows.length - kept, 'more entry', 'more entries')} not shown (${rows.length} in total); ls a subdirectory or use glob to narrow]`;
      const room = MAX_RESULT_CHARS - TRUNCATION_NOTE.length - left(0).length - note.length - 4;
      let kept = 0;
      let length = 2;
      while (kept < rows.length && length + rows[kept]!.length + 1 <= room) length += rows[kept++]!.length + 1;
      return `[${rows.slice(0, kept).join(',')}]\n${left(kept)}${note}\n${TRUNCATION_NOTE}`;
    },

    async read_file(args) {
      const { path, content, version } = await backend.read(args.path as string);
      // Counts as read even when binary: the agent has seen what the file is, so write_file may replace it.
      readVersions.add(path, version);
      const media = readMedia(path, content);
      if (media !== null) return media;
      if (isBinary(content)) {
        throw new VfsError(
          'EBINARY',
          `${path} is a binary file (${counted(content.length, 'byte')}); read_file shows text only. Use grep or glob to find text files, or write_file to replace this one.`,
          { path },
        );
      }
      const text = decodeText(content);
      const lines = splitLines(text);
      const offset = args.offset as number;
      if (lines.length === 0 && offset === 0) return EMPTY_FILE_REMINDER;
      if (offset >= lines.length) {
        const next = lines.length === 0 ? 'It is empty: read it with offset=0.' : `Use an offset from 0 to ${lines.length - 1}.`;
        throw new VfsError('EINVAL', `offset ${offset} is past the end of ${path}, which has ${counted(lines.length, 'line')}. ${next}`, { path });
      }
      const part = args.part as number;
      const rows = part === 0 ? 1 : rowCount(lines[offset]!);
      if (part >= rows) {
        const line = offset + 1;
        const message =
          rows === 1
            ? `part ${part} is past the end of line ${line} of ${path}, which is one row (${MAX_LINE_CHARS} characters or fewer). Use part=0.`
            : `part ${part} is past the end of line ${line} of ${path}, whose rows are ${line} to ${line}.${rows - 1}. Use a part from 0 to ${rows - 1}.`;
        throw new VfsError('EINVAL', message, { path });
      }
      // Latin-1 and other legacy text reads as U+FFFD: said once, so the model neither copies it into an edit nor takes it for the file's content.
      const bad = firstNotUtf8Line(content, text);
      const note =
        bad === null
          ? ''
          : `Note: ${path} is not valid UTF-8: bytes that are no UTF-8 character are shown as \uFFFD (the first on line ${bad}). edit_file refuses it; write_file replaces it whole.`;
      return formatRead(path, lines, offset, args.limit as number, part, note);
    },

    async write_file(args, changed) {
      const path = await backend.resolvePath(args.path as string);
      const expectedVersion = await expectedVersionForWrite(path);
      if (expectedVersion === -1) await checkNewPath(backend, args.path as string, path, 'file');
      const content = args.content as string;
      const result = await backend.writeFile(path, content, { expectedVersion });
      readVersions.add(path, result.version);
      changed.push({ path: result.path, version: result.version });
      const lines = countLines(content);
      return `${result.created ? 'Created' : 'Updated'} ${path} (${counted(lines, 'line')}, ${counted(result.size, 'byte')}).`;
    },

    async edit_file(args, changed) {
      const path = await backend.resolvePath(args.path as string);
      const read = await readVersions.expected(backend, path);
      if (read === undefined) {
        // A missing file reports ENOENT (with suggestions) and a directory EISDIR, before ENOTREAD.
        if ((await backend.stat(path)).isDir)
          throw new VfsError('EISDIR', `${path} is a directory; edit_file edits a file. The directory is unchanged. Use ls on it to find the file to edit.`, {
            path,
          });
        throw await notRead(
          path,
          `${path} has not been read in this session. The file is unchanged. Read it with read_file first, then retry the edit.`,
          'edit_file changes only a file this session has read, so it cannot change this one. The file is unchanged. Work on files this tool set may read.',
        );
      }
      const result = await backend
        .edit(path, args.old_string as string, args.new_string as string, { replaceAll: args.replace_all as boolean, expectedVersion: read })
        .catch(async (error: unknown) => {
          throw await withRowsNote(backend, path, args.old_string as string, error);
        });
      readVersions.add(path, result.version);
      changed.push({ path: result.path, version: result.version });
      const text = await editedText(backend, path, result.version);
      const how = result.correctionNote ? ` ${result.correctionNote}` : '';
      const head = `Edited ${path}: ${result.count} replacement${result.count === 1 ? '' : 's'}.${how}`;
      if (text === null) return `${head} ${changedAfterEdit(path, 'read it with read_file')}`;
      const shown = snippet(splitLines(text), result.replacedLines);
      return shown === '' ? `${head} The file is now empty.` : `${head}\n${shown}`;
    },

    async glob(args) {
      const base = await backend.resolvePath(args.path as string);
      const respectGitIgnore = args.respect_git_ignore as boolean;
      const { paths, ignored } = await backend.glob(args.pattern as string, { path: base, respectGitIgnore, countIgnored: true });
      if (paths.length === 0) return globNothingFound(backend, args.pattern as string, base, respectGitIgnore, ignored);
      const shown = paths.slice(0, GLOB_MAX_RESULTS);
      const note = ignored === 0 ? null : globIgnoredNote(ignored);
      const tail = (kept: number) =>
        joinTails(
          paths.length > kept
            ? `... [${counted(paths.length - kept, 'more file', 'more files')} not shown (${paths.length} in total); use a more specific pattern or path]`
            : null,
          note,
        );
      return joinCapped(shown, tail);
    },

    async grep(args) {
      const pattern = args.pattern as string;
      const base = await backend.resolvePath(args.path as string);
      const glob = args.glob as string | undefined;
      const mode = args.output_mode as OutputMode;
      const call: GrepCall = {
        pattern,
        base,
        glob,
        ignoreCase: args.ignore_case as boolean,
        fixedStrings: args.fixed_strings as boolean,
        respectGitIgnore: args.respect_git_ignore as boolean,
        outputMode: mode,
        context: args.context as number,
      };
      const search = (reportBinary: boolean) =>
        backend.grep(pattern, {
          path: base,
          ...(glob === undefined ? {} : { glob }),
          ignoreCase: call.ignoreCase,
          fixedStrings: call.fixedStrings,
          // Listing files needs one line of each: a common pattern would otherwise build every matching line.
          ...(mode === 'files_with_matches' || reportBinary ? { maxMatchesPerFile: 1 } : {}),
          reportBinary,
          respectGitIgnore: call.respectGitIgnore,
          countIgnored: true,
        });
      let matches: GrepMatch[];
      let ignored: number;
      try {
        ({ matches, ignored } = await search(false));
      } catch (error) {
        throw await withLiteralHint(backend, call, error);
      }
      if (matches.length === 0) {
        // Which binary files were skipped matters only when nothing matched: asked then, so a search
        // that finds something does not list every binary file in scope.
        const binaries = (await search(true)).matches.filter((m) => m.binary === true).map((m) => m.path);
        return grepNothingFound(backend, call, binaries, ignored);
      }
      const note = ignored === 0 ? null : grepIgnoredNote(ignored);
      const headLimit = (args.head_limit as number) === 0 ? Infinity : (args.head_limit as number);
      if (mode === 'content') {
        const context = args.context as number;
        const lines = new Map<string, readonly string[]>();
        if (context > 0) {
          for (const m of matches.slice(0, headLimit)) {
            if (!lines.has(m.path)) lines.set(m.path, splitLines(await backend.readText(m.path)));
          }
        }
        const { rows, matchesIn, total } = contentRows(matches, context, headLimit, (p) => lines.get(p) ?? []);
        const tail = (kept: number) => {
          const shown = matchesIn(kept);
          return joinTails(
            total > shown
              ? `... [${counted(total - shown, 'more matching line', 'more matching lines')} not shown (${total} in total); ${howToSeeMore(shown, total, headLimit, mode)}]`
              : null,
            note,
          );
        };
        return joinCapped(rows, tail);
      }
      const { entries, total } = mode === 'count' ? countEntries(matches) : filesEntries(matches);
      const shown = entries.slice(0, headLimit);
      const tail = (kept: number) =>
        joinTails(
          total > kept
            ? `... [${counted(total - kept, 'more file', 'more files')} not shown (${total} in total); ${howToSeeMore(kept, total, headLimit, mode)}]`
            : null,
          note,
        );
      return joinCapped(shown, tail);
    },
  };

  async function expectedVersionForWrite(path: string): Promise<number> {
    // Creating (even a file that was read and then removed) needs no read, but is refused if someone creates it first.
    if (!(await backend.exists(path))) return -1;
    const read = await readVersions.expected(backend, path);
    if (read !== undefined) return read;
    const info = await backend.stat(path);
    if (info.isDir) throw new VfsError('EISDIR', isDirMessage(path), { path });
    throw await notRead(
      path,
      `${path} already exists and has not been read in this session. The file is unchanged. Read it with read_file first, then retry (or, once it is read, use edit_file for a targeted change).`,
      'write_file replaces only a file this session has read, so it cannot replace this one. The file is unchanged. Write to a new path instead.',
    );
  }

  /**
   * ENOTREAD for `path`, which says to read it first; unless the permissions forbid reading it,
   * which that would not get past: then their EACCES, saying why the call cannot be done at all.
   */
  async function notRead(path: string, readFirst: string, cannot: string): Promise<VfsError> {
    const refusal = await readRefusal(backend, path);
    return refusal === null ? new VfsError('ENOTREAD', readFirst, { path }) : cannotReplace(refusal, path, cannot);
  }

  return handlers;
}

/**
 * An ENOMATCH for an old_string with a line break, in a file with a line read_file shows in rows
 * (N, N.1, …): the model may have joined those rows with line breaks, which the line does not have.
 */
async function withRowsNote(backend: Backend, path: string, oldString: string, error: unknown): Promise<unknown> {
  if (!isVfsError(error) || error.code !== 'ENOMATCH' || !oldString.includes('\n')) return error;
  const text = await backend.readText(path).catch(() => '');
  if (!splitLines(text).some((line) => line.length > MAX_LINE_CHARS)) return error;
  const note = `Lines over ${MAX_LINE_CHARS.toLocaleString('en-US')} characters are shown by read_file in rows (N, N.1, N.2, …) with no line break between them: where old_string spans such rows, join them without one.`;
  return new VfsError('ENOMATCH', `${error.message}\n${note}`, { path });
}

/**
 * Each replaced region of the new text with a little context, cat -n style, "..." between regions
 * apart (a replace_all over a whole file shows its changes, not the lines between them), at most
 * SNIPPET_MAX_LINES lines; then where the rest are.
 */
function snippet(lines: readonly string[], replaced: readonly (readonly [first: number, last: number])[]): string {
  const rows: string[] = [];
  let shownTo = 0; // the last line shown
  let room = SNIPPET_MAX_LINES;
  // Several replacements: a line around each, so more of them fit.
  const context = replaced.length > 1 ? 1 : SNIPPET_CONTEXT;
  for (const [k, [first, last]] of replaced.entries()) {
    const from = Math.max(1, first - context, shownTo + 1);
    const end = Math.min(lines.length, last + context);
    if (end < from) continue; // (shown with the region before)
    const rest = replaced.length - k;
    if (end - from + 1 > room && room < SNIPPET_MAX_LINES) {
      const [lastFirst] = replaced[replaced.length - 1]!;
      rows.push(`... [${counted(rest, 'more replacement')}, ${rest === 1 ? `at line ${first}` : `lines ${first}-${lastFirst}`}; use read_file to see them]`);
      break;
    }
    if (from > shownTo + 1 && shownTo > 0) rows.push('...');
    const to = Math.min(end, from + room - 1);
    for (let n = from; n <= to; n++) rows.push(...lineRows(n, lines[n - 1] ?? ''));
    room -= to - from + 1;
    shownTo = to;
    if (to < end) {
      const more = rest > 1 ? ` (and ${counted(rest - 1, 'more replacement')} after it)` : '';
      rows.push(`... [changed region continues to line ${last}${more}; use read_file to see it]`);
      break;
    }
  }
  return rows.join('\n');
}
