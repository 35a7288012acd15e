/**
 * The 'gemini' dialect's definitions: Gemini CLI's file tools as its latest release declares them
 * (packages/core/src/tools/definitions/model-family-sets/gemini-3.ts): names, parameters and the
 * gist of each description. No tool code here.
 */
import type { JsonSchemaProperty, ToolDefinition, ToolParameters } from '../definitions.ts';
import { GREP_DEFAULT_MAX_MATCHES, MAX_LINES, MAX_LINE_LENGTH, type GeminiToolName } from './gemini/names.ts';

const str = (description: string): JsonSchemaProperty => ({ type: 'string', description });
const bool = (description: string): JsonSchemaProperty => ({ type: 'boolean', description });
const int = (description: string, minimum: number): JsonSchemaProperty => ({ type: 'integer', description, minimum });
const strings = (description: string): JsonSchemaProperty => ({ type: 'array', items: { type: 'string' }, description });
// Gemini CLI's ignore switches of list_directory and read_many_files.
const fileFiltering = (what: string): JsonSchemaProperty => ({
  type: 'object',
  description: 'Whether to respect ignore patterns from .gitignore or .geminiignore.',
  properties: {
    respect_git_ignore: { type: 'boolean', description: `Respect .gitignore patterns when ${what} files. Default true.` },
    respect_gemini_ignore: { type: 'boolean', description: `Respect .geminiignore patterns when ${what} files. Default true.` },
  },
  additionalProperties: false,
});

function params(properties: Record<string, JsonSchemaProperty>, required: string[]): ToolParameters {
  return { type: 'object', properties, required, additionalProperties: false };
}

const DESCRIPTIONS: Readonly<Record<GeminiToolName, string>> = {
  read_file: `Reads a file's text. Use 'start_line' and 'end_line' for targeted reads; output is cut at ${MAX_LINES} lines and ${MAX_LINE_LENGTH} characters per line.`,
  write_file:
    "Writes the complete content to a file, automatically creating missing parent directories. Overwrites existing files. Best for new or small files; use 'replace' for targeted edits to large files.",
  replace:
    'Replaces text within a file: exactly ONE occurrence of `old_string` (include context around the change), or every one with `allow_multiple`. An empty `old_string` creates a new file.',
  glob: 'Efficiently finds files matching specific glob patterns (e.g., `src/**/*.ts`, `**/*.md`), returning absolute paths sorted by modification time (newest first).',
  grep_search: `Searches for a regular expression pattern within file contents (output limited to ${GREP_DEFAULT_MAX_MATCHES} matches unless total_max_matches is raised).`,
  list_directory:
    'Lists the names of files and subdirectories directly within a specified directory path. Can optionally ignore entries matching provided glob patterns.',
  read_many_files:
    "Reads and concatenates the text of the files matching glob patterns or paths ('--- {filePath} ---' before each, '--- End of content ---' after the last); binary files are skipped.",
};

export function geminiDefinitions(descriptions: Partial<Record<string, string>>): ToolDefinition<GeminiToolName>[] {
  const d = (name: GeminiToolName) => descriptions[name] ?? DESCRIPTIONS[name];
  return [
    {
      name: 'read_file',
      description: d('read_file'),
      parameters: params(
        {
          file_path: str('The path to the file to read.'),
          start_line: int('Optional: The 1-based line number to start reading from.', 1),
          end_line: int('Optional: The 1-based line number to end reading at (inclusive).', 1),
        },
        ['file_path'],
      ),
    },
    {
      name: 'write_file',
      description: d('write_file'),
      parameters: params({ file_path: str('Path to the file.'), content: str('The content to write to the file.') }, ['file_path', 'content']),
    },
    {
      name: 'replace',
      description: d('replace'),
      parameters: params(
        {
          file_path: str('The path to the file to modify.'),
          instruction: str('A clear, semantic instruction for the code change. It must be self-contained and explain the goal of the change.'),
          old_string: str('The exact literal text to replace, unescaped.'),
          new_string: str('The exact literal text to replace `old_string` with, unescaped. Provide the EXACT text; no omission placeholders.'),
          allow_multiple: bool(
            'If true, the tool will replace all occurrences of `old_string`. If false (default), it will only succeed if exactly one occurrence is found.',
          ),
        },
        ['file_path', 'instruction', 'old_string', 'new_string'],
      ),
    },
    {
      name: 'glob',
      description: d('glob'),
      parameters: params(
        {
          pattern: str("The glob pattern to match against (e.g., '**/*.py', 'docs/*.md')."),
          dir_path: str('Optional: The absolute path to the directory to search within. If omitted, searches the workspace directory (the working directory).'),
          case_sensitive: bool('Case-sensitive. Default false.'),
          respect_git_ignore: bool('Respect .gitignore. Default true.'),
          respect_gemini_ignore: bool('Respect .geminiignore. Default true.'),
        },
        ['pattern'],
      ),
    },
    {
      name: 'grep_search',
      description: d('grep_search'),
      parameters: params(
        {
          pattern: str('Regular expression (a literal with fixed_strings).'),
          dir_path: str('Directory or file to search (recursively). Default: the workspace directory (the working directory).'),
          include_pattern: str("Glob filtering the files, e.g. '*.ts'."),
          exclude_pattern: str('Regular expression: matching lines are left out.'),
          names_only: bool('Only the paths of matching files.'),
          case_sensitive: bool('Case-sensitive. Default false.'),
          fixed_strings: bool('pattern is a literal string.'),
          context: int('Lines of context around each match.', 0),
          after: int('Lines after each match.', 0),
          before: int('Lines before each match.', 0),
          no_ignore: bool('Also search ignored files.'),
          max_matches_per_file: int('Maximum matches per file.', 1),
          total_max_matches: int(`Maximum matches in all. Default ${GREP_DEFAULT_MAX_MATCHES}.`, 1),
        },
        ['pattern'],
      ),
    },
    {
      name: 'list_directory',
      description: d('list_directory'),
      parameters: params(
        {
          dir_path: str('The path to the directory to list'),
          ignore: strings('List of glob patterns to ignore'),
          file_filtering_options: fileFiltering('listing'),
        },
        ['dir_path'],
      ),
    },
    {
      name: 'read_many_files',
      description: d('read_many_files'),
      parameters: params(
        {
          include: strings('Glob patterns or paths, e.g. ["src/**/*.ts"], ["README.md", "docs/"]'),
          exclude: strings('Glob patterns to exclude, e.g. "**/*.log"'),
          recursive: bool('Search recursively (mostly set by ** in patterns). Default true.'),
          useDefaultExcludes: bool('Exclude node_modules and .git. Default true.'),
          file_filtering_options: fileFiltering('listing'),
        },
        ['include'],
      ),
    },
  ];
}
