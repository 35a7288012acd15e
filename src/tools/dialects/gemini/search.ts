/** Gemini CLI's glob, grep_search, list_directory and read_many_files over a Backend (searches run in the backend's linear-time engine). */
import { globRetryHint } from '../../empty-search.ts';
import type { GrepMatch, LsReport } from '../../../backend/types.ts';
import { isVfsError, VfsError } from '../../../errors.ts';
import { checkGlobList, compileGlob } from '../../../glob/glob.ts';
import { sniffMedia } from '../../../media/media-type.ts';
import { clipped, joinPath } from '../../../paths.ts';
import { decodeText, headOf, isBinary, splitLines } from '../../../text.ts';
import { GLOB_MAX_RESULTS, MAX_RESULT_CHARS } from '../../definitions.ts';
import { fittingRows, namesWithin } from '../../limit-output.ts';
import type { DialectCall } from '../anthropic/context.ts';
import { notFoundHint } from './files.ts';
import { geminiIgnore } from './gemini-ignore.ts';
import { GREP_DEFAULT_MAX_MATCHES, MAX_LINES, MAX_LINE_LENGTH } from './names.ts';

export interface GlobArgs {
  pattern: string;
  dir_path?: string;
  /** Gemini CLI's default is true: .gitignore files and the default .git/ and node_modules/ ignores apply. */
  respect_git_ignore?: boolean;
  /** Gemini CLI's default is true: the project's .geminiignore applies. */
  respect_gemini_ignore?: boolean;
  /** Gemini CLI's default is false: names match in either case. */
  case_sensitive?: boolean;
}

export async function glob(call: DialectCall, args: GlobArgs): Promise<string> {
  const base = await call.backend.resolvePath(args.dir_path ?? '.'); // the workspace directory: the cwd, as Gemini CLI's target directory
  const found = await call.backend.glob(args.pattern, {
    path: base,
    ignoreCase: args.case_sensitive !== true,
    respectGitIgnore: args.respect_git_ignore !== false,
    countIgnored: true,
  });
  const ignoredByGemini = await geminiIgnore(call, args.respect_gemini_ignore !== false);
  // As Gemini CLI: a pattern that names an existing file is taken literally ("file[1].txt" finds
  // that file, not file1.txt).
  const literal = await call.backend
    .resolvePath(joinPath(base, args.pattern))
    .then((path) => call.backend.stat(path))
    .catch(() => null);
  const matched = literal === null || literal.isDir ? found.paths : found.paths.filter((path) => path === literal.path);
  const paths = ignoredByGemini === null ? matched : matched.filter((path) => !ignoredByGemini(path, false));
  const ignored = found.ignored + matched.length - paths.length;
  // Gemini CLI's wording for files its ignore rules left out (tools/glob.ts).
  if (paths.length === 0) {
    // Gemini CLI's sentence, then agentvfs's hint, if any (`*.ts` where the files are deeper).
    const hint = await globRetryHint(call.backend, args.pattern, base, {
      respectGitIgnore: args.respect_git_ignore !== false,
      ignoreCase: args.case_sensitive !== true,
      pathArgument: 'dir_path',
      ...(ignoredByGemini === null ? {} : { keep: (path: string) => !ignoredByGemini(path, false) }),
    });
    return `No files found matching pattern "${clipped(args.pattern)}" within ${base}${ignored > 0 ? ` (${ignored} files were ignored)` : ''}${hint === '' ? '' : `. ${hint}`}`;
  }
  const shown = paths.slice(0, GLOB_MAX_RESULTS);
  const more = paths.length - shown.length;
  const tail = more > 0 ? `\n... [${more} more files not shown (${paths.length} in total); use a more specific pattern or dir_path]` : '';
  const left = ignored > 0 ? ` (${ignored} additional files were ignored)` : '';
  return `Found ${paths.length} file(s) matching "${clipped(args.pattern)}" within ${base}${left}, sorted by modification time (newest first):\n${shown.join('\n')}${tail}`;
}

export interface GrepArgs {
  pattern: string;
  dir_path?: string;
  include_pattern?: string;
  exclude_pattern?: string;
  names_only?: boolean;
  case_sensitive?: boolean;
  fixed_strings?: boolean;
  context?: number;
  after?: number;
  before?: number;
  max_matches_per_file?: number;
  total_max_matches?: number;
  /** Gemini CLI (ripgrep) searches ignored files only with no_ignore: true. */
  no_ignore?: boolean;
}

export async function grepSearch(call: DialectCall, args: GrepArgs): Promise<string> {
  const base = await call.backend.resolvePath(args.dir_path ?? '.'); // the workspace directory: the cwd, as Gemini CLI's target directory
  const max = args.total_max_matches ?? GREP_DEFAULT_MAX_MATCHES;
  const options = {
    path: base,
    ...(args.include_pattern === undefined ? {} : { glob: args.include_pattern }),
    ignoreCase: args.case_sensitive !== true,
    respectGitIgnore: args.no_ignore !== true,
    ...(args.max_matches_per_file === undefined ? {} : { maxMatchesPerFile: args.max_matches_per_file }),
  };
  const ignoredByGemini = await geminiIgnore(call, args.no_ignore !== true);
  const search = (cap: number | null) =>
    call.backend.grep(args.pattern, { ...options, fixedStrings: args.fixed_strings === true, ...(cap === null ? {} : { maxMatches: cap }) });
  let matches: GrepMatch[];
  if (args.exclude_pattern) {
    // The exclusion runs in the same engine: lines it matches are dropped (so the search runs uncapped, then the cap applies).
    const excluded = new Set((await call.backend.grep(args.exclude_pattern, options)).map((m) => `${m.line}:${m.path}`));
    matches = (await search(null)).filter((m) => !excluded.has(`${m.line}:${m.path}`) && !ignoredByGemini?.(m.path, false));
  } else if (ignoredByGemini !== null) {
    // Matches in files .geminiignore leaves out are dropped: search with a wider cap until enough are left, or all were found.
    for (let cap = 2 * max; ; cap *= 4) {
      const found = await search(cap);
      matches = found.filter((m) => !ignoredByGemini(m.path, false));
      if (found.length < cap || matches.length >= max) break;
    }
  } else matches = await search(max);
  matches = matches.slice(0, max);
  const where = args.dir_path === undefined ? 'in the workspace directory' : `in path "${base}"`;
  const filter = args.include_pattern ? ` (filter: "${clipped(args.include_pattern)}")` : '';
  if (matches.length === 0) return `No matches found for pattern "${clipped(args.pattern)}" ${where}${filter}.`;
  const limited = matches.length >= max ? ` (results limited to ${max} matches for performance)` : '';
  const byFile = new Map<string, GrepMatch[]>();
  for (const m of matches) byFile.set(m.path, [...(byFile.get(m.path) ?? []), m]);
  if (args.names_only === true) {
    return `Found ${byFile.size} files with matches for pattern "${clipped(args.pattern)}" ${where}${filter}${limited}:\n${[...byFile.keys()].sort().join('\n')}`;
  }
  const before = args.before ?? args.context ?? 0;
  const after = args.after ?? args.context ?? 0;
  let out = `Found ${matches.length} ${matches.length === 1 ? 'match' : 'matches'} for pattern "${clipped(args.pattern)}" ${where}${filter}${limited}:\n---\n`;
  for (const [path, found] of byFile) {
    out += `File: ${path}\n`;
    const lines = before + after > 0 ? splitLines(await call.backend.readText(path)) : [];
    const hit = new Set(found.map((m) => m.line));
    let shownTo = 0;
    for (const m of found) {
      const from = Math.max(shownTo + 1, m.line - before);
      const to = before + after > 0 ? Math.min(lines.length, m.line + after) : m.line;
      for (let n = from; n <= to; n++) {
        const text = n === m.line ? m.text : (lines[n - 1] ?? '');
        out += `L${n}${hit.has(n) ? ':' : '-'} ${clip(text.trimEnd())}\n`;
      }
      shownTo = Math.max(shownTo, to);
    }
    out += '---\n';
  }
  return out.trim();
}

function clip(line: string): string {
  return line.length > MAX_LINE_LENGTH ? `${headOf(line, MAX_LINE_LENGTH)}... [truncated]` : line;
}

/** Gemini CLI's list_directory and read_many_files take their ignore switches in one object. */
interface FileFilteringOptions {
  respect_git_ignore?: boolean;
  respect_gemini_ignore?: boolean;
}

export interface ListDirectoryArgs {
  dir_path: string;
  ignore?: readonly string[];
  file_filtering_options?: FileFilteringOptions;
}

export async function listDirectory(call: DialectCall, args: ListDirectoryArgs): Promise<string> {
  checkGlobList(args.ignore ?? [], 'ignore');
  const dir = await call.backend.resolvePath(args.dir_path);
  let report: LsReport;
  try {
    report = await call.backend.ls(dir, { respectGitIgnore: args.file_filtering_options?.respect_git_ignore !== false, countIgnored: true });
  } catch (error) {
    if (isVfsError(error) && error.code === 'ENOENT')
      throw new VfsError('ENOENT', `Directory not found or inaccessible: ${dir}.${notFoundHint(error)}`, { path: dir });
    if (isVfsError(error) && error.code === 'ENOTDIR') throw new VfsError('ENOTDIR', `Path is not a directory: ${dir}`, { path: dir });
    throw error;
  }
  const ignoredByGemini = await geminiIgnore(call, args.file_filtering_options?.respect_gemini_ignore !== false);
  const entries = ignoredByGemini === null ? report.entries : report.entries.filter((e) => !ignoredByGemini(e.path, e.isDir));
  const ignored = report.ignored + report.entries.length - entries.length;
  if (entries.length === 0 && ignored === 0) return `Directory ${dir} is empty.`;
  // As Gemini CLI: \`ignore\` patterns match entry names (files and directories) and drop them
  // silently; "(N ignored)" counts what the ignore files left out.
  const matchers = (args.ignore ?? []).map((pattern) => compileGlob(pattern));
  const kept = entries.filter((e) => !matchers.some((matches) => matches(e.name)));
  const rows = kept.map((e) => (e.isDir ? `[DIR] ${e.name}` : `${e.name} (${e.size} bytes)`));
  return `Directory listing for ${dir}:\n${rows.join('\n')}${ignored > 0 ? `\n\n(${ignored} ignored)` : ''}`;
}

// Gemini CLI skips dependency and VCS directories unless useDefaultExcludes is false.
const DEFAULT_EXCLUDES = ['**/node_modules/**', '**/.git/**'];

export interface ReadManyArgs {
  include: readonly string[];
  exclude?: readonly string[];
  useDefaultExcludes?: boolean;
  file_filtering_options?: FileFilteringOptions;
}

export async function readManyFiles(call: DialectCall, args: ReadManyArgs): Promise<string> {
  checkGlobList(args.include, 'include');
  checkGlobList(args.exclude ?? [], 'exclude');
  const cwd = await call.backend.resolvePath('.');
  const respectGitIgnore = args.file_filtering_options?.respect_git_ignore !== false;
  const ignoredByGemini = await geminiIgnore(call, args.file_filtering_options?.respect_gemini_ignore !== false);
  const files = new Set<string>();
  for (const entry of args.include) {
    const path = await call.backend.resolvePath(entry).catch(() => null);
    const info = path === null ? null : await call.backend.stat(path).catch(() => null);
    if (info !== null && !info.isDir) files.add(info.path);
    // A file named outright is read as asked (as read_file reads an ignored file); patterns and
    // directories leave out what the ignore files exclude.
    else {
      // Gemini CLI matches these globs in either case (nocase).
      for (const p of await call.backend.glob(info?.isDir ? '**' : entry, { path: info?.isDir ? info.path : cwd, respectGitIgnore, ignoreCase: true })) {
        if (ignoredByGemini === null || !ignoredByGemini(p, false)) files.add(p);
      }
    }
  }
  const excludes = [...(args.exclude ?? []), ...(args.useDefaultExcludes === false ? [] : DEFAULT_EXCLUDES)];
  for (const pattern of excludes) for (const p of await call.backend.glob(pattern, { path: cwd, ignoreCase: true })) files.delete(p);
  const parts: string[] = [];
  const END = '\n--- End of content ---';
  // Files are shown whole while they fit in the result cap; the first that does not is cut there
  // with Gemini CLI's own truncation warning, and the ones after it are named, not read.
  let left = MAX_RESULT_CHARS - END.length - NOTE_ROOM;
  const sorted = [...files].sort();
  for (const [i, path] of sorted.entries()) {
    if (left < 2_000) {
      const names = namesWithin(sorted.slice(i), Math.max(left, 0) + NOTE_ROOM - 150);
      parts.push(
        `[Not read, as the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters: ${names}. Read them with read_file or another read_many_files call.]\n`,
      );
      break;
    }
    const read = await call.backend.read(path);
    // Text only: binary files, and images and PDFs (by their bytes; a PDF can be all ASCII), are left out.
    if (isBinary(read.content) || sniffMedia(read.content) !== null) continue;
    call.reads.add(path, read.version);
    const lines = splitLines(decodeText(read.content));
    const head = `--- ${path} ---\n\n`;
    let shown = lines.length > MAX_LINES ? lines.slice(0, MAX_LINES) : lines;
    if (head.length + shown.join('\n').length + 2 + WARNING.length > left) {
      const { count, part } = fittingRows(shown, left - head.length - WARNING.length - 2);
      shown = part === null ? shown.slice(0, count) : [part];
    }
    const warning = shown.length < lines.length || shown[0] !== lines[0] ? WARNING : '';
    parts.push(`${head}${warning}${shown.join('\n')}\n\n`);
    left -= parts.at(-1)!.length;
  }
  if (parts.length === 0) return 'No files matching the criteria were found or all were skipped.';
  return `${parts.join('')}${END}`;
}

const WARNING = "[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\n";
const NOTE_ROOM = 400;
