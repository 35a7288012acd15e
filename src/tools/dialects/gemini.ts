/** The 'gemini' dialect's tools: Gemini CLI's file tools over the backend (search_file_content runs as grep_search). */
import type { Backend } from '../../backend/types.ts';
import type { ReadVersions } from '../read-versions.ts';
import type { ArgsValidator, ToolHandler } from '../run-tool.ts';
import { validateArgs } from '../validate-args.ts';
import { geminiDefinitions } from './gemini-definitions.ts';
import { readFile, replace, writeFile, type ReplaceArgs } from './gemini/files.ts';
import { GEMINI_TOOL_ALIASES, type GeminiToolName } from './gemini/names.ts';
import { glob, grepSearch, listDirectory, readManyFiles, type GlobArgs, type GrepArgs, type ListDirectoryArgs, type ReadManyArgs } from './gemini/search.ts';

export function geminiHandlers({ backend, reads }: { backend: Backend; reads: ReadVersions }): Record<GeminiToolName, ToolHandler> {
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

const [, , replaceDef, , grepDef] = geminiDefinitions({});

/**
 * Parameters older Gemini CLI releases had and models still send: replace's
 * `expected_replacements`, and search_file_content's `path` and `include` (now `dir_path` and
 * `include_pattern`). Accepted, not shown.
 */
export const geminiValidators: Partial<Record<GeminiToolName, ArgsValidator>> = {
  replace: (args) =>
    validateArgs(
      {
        ...replaceDef!,
        parameters: {
          ...replaceDef!.parameters,
          properties: {
            ...replaceDef!.parameters.properties,
            expected_replacements: { type: 'integer', description: 'The exact number of occurrences to replace (older releases).', minimum: 1 },
          },
        },
      },
      args,
    ),
  grep_search: (args) => validateArgs(grepDef!, renamed(args, { path: 'dir_path', include: 'include_pattern' })),
};

/** `args` with older parameter names moved to their new ones (when the new one is not given too). */
function renamed(args: unknown, names: Readonly<Record<string, string>>): unknown {
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
