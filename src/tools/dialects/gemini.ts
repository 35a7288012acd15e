/** The 'gemini' dialect's tools: Gemini CLI's file tools over the backend (search_file_content runs as grep_search). */
import type { Backend } from '../../backend/types.ts';
import type { CallReads } from '../read-versions.ts';
import type { ArgsValidator, ToolHandler } from '../run-tool.ts';
import { shown, validateArgs } from '../validate-args.ts';
import { geminiDefinitions } from './gemini-definitions.ts';
import { readFile, replace, writeFile, type ReplaceArgs } from './gemini/files.ts';
import { GEMINI_TOOL_ALIASES, type GeminiToolName } from './gemini/names.ts';
import { omissionPlaceholders } from './gemini/omission-placeholders.ts';
import { glob, grepSearch, listDirectory, readManyFiles, type GlobArgs, type GrepArgs, type ListDirectoryArgs, type ReadManyArgs } from './gemini/search.ts';

export function geminiHandlers({ backend, reads }: { backend: Backend; reads: CallReads }): Record<GeminiToolName, ToolHandler> {
  const call = (changed: Parameters<ToolHandler>[1]) => ({ backend, reads, changed });
  return {
    read_file: (a, changed) => readFile(call(changed), a.file_path as string, a.start_line as number | undefined, a.end_line as number | undefined),
    write_file: (a, changed) => writeFile(call(changed), a.file_path as string, a.content as string),
    replace: (a, changed) => replace(call(changed), a as unknown as ReplaceArgs),
    glob: (a, changed) => glob(call(changed), a as unknown as GlobArgs),
    grep_search: (a, changed) => grepSearch(call(changed), a as unknown as GrepArgs),
    list_directory: (a, changed) => listDirectory(call(changed), a as unknown as ListDirectoryArgs),
    read_many_files: (a, changed) => readManyFiles(call(changed), a as unknown as ReadManyArgs),
  };
}

export const geminiAliases = GEMINI_TOOL_ALIASES;

const [readDef, writeDef, replaceDef, globDef, grepDef, listDef, readManyDef] = geminiDefinitions({});

/** replace's definition as validated: `instruction` optional, and the older `expected_replacements` taken. */
const replaceAsTaken = {
  ...replaceDef!,
  parameters: {
    ...replaceDef!.parameters,
    properties: {
      ...replaceDef!.parameters.properties,
      expected_replacements: { type: 'integer' as const, description: 'The exact number of occurrences to replace (older releases).', minimum: 1 },
    },
    required: replaceDef!.parameters.required.filter((name) => name !== 'instruction'),
  },
};

/**
 * Parameters older Gemini CLI releases had and models still send, accepted (not shown): read_file's
 * `absolute_path` (or `path`) and its 0-based `offset` and `limit` (now `file_path`, `start_line`,
 * `end_line`); replace without `instruction`, and with `expected_replacements`; glob's and
 * list_directory's `path` (now `dir_path`); search_file_content's `path` and `include` (now
 * `dir_path` and `include_pattern`); read_many_files's `paths` (now part of `include`).
 */
export const geminiValidators: Partial<Record<GeminiToolName, ArgsValidator>> = {
  read_file: (args) => {
    const named = renamed(args, { absolute_path: 'file_path', path: 'file_path' });
    // A string that is no JSON object is validateArgs' to refuse (pagedByLines' strings are its own errors).
    if (typeof named !== 'object' || named === null || Array.isArray(named)) return validateArgs(readDef!, named);
    const paged = pagedByLines(named);
    return typeof paged === 'string' ? paged : validateArgs(readDef!, paged);
  },
  // Gemini CLI refuses content that stands for code left out, before anything is read or written.
  write_file: (args) => {
    const valid = validateArgs(writeDef!, args);
    if (typeof valid === 'string' || omissionPlaceholders(valid.content as string).length === 0) return valid;
    return "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.";
  },
  replace: (args) => {
    const valid = validateArgs(replaceAsTaken, args);
    if (typeof valid === 'string') return valid;
    const kept = new Set(omissionPlaceholders(valid.old_string as string));
    if (omissionPlaceholders(valid.new_string as string).every((token) => kept.has(token))) return valid;
    return "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.";
  },
  // Gemini CLI refuses a pattern of only spaces as it refuses an empty one.
  glob: (args) => {
    const valid = validateArgs(globDef!, renamed(args, { path: 'dir_path' }));
    return typeof valid === 'string' || (valid.pattern as string).trim() !== '' ? valid : 'The glob pattern is empty. Use "**/*" to match every file.';
  },
  grep_search: (args) => validateArgs(grepDef!, renamed(args, { path: 'dir_path', include: 'include_pattern' })),
  list_directory: (args) => validateArgs(listDef!, renamed(args, { path: 'dir_path' })),
  // Gemini CLI's schema asks for at least one entry in `include` (minItems: 1).
  read_many_files: (args) => {
    const valid = validateArgs(readManyDef!, withPaths(args));
    if (typeof valid === 'string' || (valid.include as readonly string[]).length > 0) return valid;
    return 'argument "include" of read_many_files must name at least one path or glob pattern, got [].';
  },
};

/**
 * The object a JSON string of arguments holds (some clients pass the model's raw JSON, which
 * validateArgs also takes), so the older names below are renamed in it too; anything else as it is.
 */
function fromJson(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    const parsed = JSON.parse(args) as unknown;
    // (JSON that is no object, such as '"abc"', is validateArgs' to refuse as what it is)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : args;
  } catch {
    return args; // (validateArgs says it is not valid JSON)
  }
}

/** `args` with older parameter names moved to their new ones (when the new one is not given too). */
function renamed(args: unknown, names: Readonly<Record<string, string>>): unknown {
  args = fromJson(args);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const [old, now] of Object.entries(names)) {
    if (old in out && !(now in out)) {
      out[now] = out[old];
      delete out[old];
    }
  }
  return out;
}

/** read_file's older 0-based `offset` and line count `limit` as `start_line` and `end_line`; a string is the error. */
function pagedByLines(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const { offset, limit, ...rest } = args as Record<string, unknown>;
  if (offset === undefined && limit === undefined) return args;
  if ('start_line' in rest || 'end_line' in rest) return 'give start_line and end_line, or the older offset and limit, not both';
  const count = (value: unknown, min: number) => typeof value === 'number' && Number.isInteger(value) && value >= min;
  if (offset !== undefined && !count(offset, 0)) return `offset must be a 0-based line number (an integer of at least 0), got ${shown(offset, 60)}`;
  if (limit !== undefined && !count(limit, 1)) return `limit must be a number of lines (an integer of at least 1), got ${shown(limit, 60)}`;
  const start = ((offset as number | undefined) ?? 0) + 1;
  return { ...rest, start_line: start, ...(limit === undefined ? {} : { end_line: start + (limit as number) - 1 }) };
}

/** read_many_files's older `paths` (the files and directories to read) joined to `include`. */
function withPaths(args: unknown): unknown {
  args = fromJson(args);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const { paths, ...rest } = args as Record<string, unknown>;
  if (paths === undefined) return args;
  if (!Array.isArray(paths)) return { ...rest, include: paths }; // (validation says what is wrong)
  const include = rest.include === undefined ? [] : Array.isArray(rest.include) ? rest.include : [rest.include];
  return { ...rest, include: [...paths, ...include] };
}
