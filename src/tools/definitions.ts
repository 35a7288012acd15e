/**
 * The six tool definitions as data: name, description (what the model reads)
 * and a JSON Schema accepted by OpenAI, Anthropic and MCP. Descriptions are
 * exported so callers can override them.
 */
import { REGEX_DIALECT_DESCRIPTION } from '../grep/dialect.ts';

export const TOOL_NAMES = ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export interface JsonSchemaProperty {
  type: 'string' | 'integer' | 'boolean' | 'array' | 'object';
  description: string;
  /** For an array: its items (the text editor's `view_range` is two integers; edit_file's `edits` are objects of strings). */
  items?: { type: 'integer' | 'string' } | ObjectItems;
  /** For an object: its properties, optional booleans (Gemini CLI's `file_filtering_options`). */
  properties?: Record<string, { type: 'boolean'; description: string }>;
  /** For an object: always false, as every object here is closed. */
  additionalProperties?: false;
  default?: string | number | boolean;
  enum?: readonly string[];
  minimum?: number;
}

/** Array items that are objects of string properties, all required (MCP filesystem's `edits`). */
type ObjectItems = {
  type: 'object';
  properties: Record<string, { type: 'string'; description: string }>;
  required: string[];
  additionalProperties: false;
};

// A type alias, not an interface: only an alias is assignable to the index-signature types the
// SDKs declare for a schema (OpenAI's `parameters`, Anthropic's `input_schema`).
export type ToolParameters = {
  type: 'object';
  properties: Record<string, JsonSchemaProperty>;
  required: string[];
  additionalProperties: false;
};

export interface ToolDefinition<N extends string = ToolName> {
  name: N;
  description: string;
  parameters: ToolParameters;
  /** A vendor's built-in tool type (e.g. `apply_patch`), for APIs that take the tool by type; absent for plain function tools. */
  type?: string;
}

export const MAX_RESULT_CHARS = 80_000;
const READ_DEFAULT_LIMIT = 2000;
export const GLOB_MAX_RESULTS = 1000;
const GREP_DEFAULT_HEAD_LIMIT = 250;

export const TOOL_DESCRIPTIONS: Readonly<Record<ToolName, string>> = Object.freeze({
  ls: 'List a directory. Returns a JSON array of {"name","path","is_dir","size"} (size in UTF-8 bytes), directories first, then by name. Paths are absolute and can be passed to any other tool.',
  read_file:
    `Read a text file. Output is cat -n style: each line is the 1-based line number right-aligned in 6 columns, a tab, then the line. ` +
    `A line over 5000 characters continues on rows numbered N.1, N.2, …; to start at row N.k, pass offset=N-1 and part=k. ` +
    `Reads ${READ_DEFAULT_LIMIT} lines from offset (0-based) by default; ` +
    `when more remains, the last line says what was shown and the exact offset= (and part=) to continue with. ` +
    `Images (PNG, JPEG, GIF, WebP) and PDFs are attached for you to see. ` +
    `You must read a file before you edit or overwrite it.`,
  write_file:
    'Create or overwrite a file with the given content; parent directories are created. ' +
    'Overwriting an existing file requires that you have read its current version with read_file first; prefer edit_file for changes to existing files.',
  edit_file:
    'Replace old_string with new_string in a file you have read (its current version). old_string must match exactly once ' +
    '(include surrounding lines to make it unique), or set replace_all=true to replace every occurrence. The replacement is literal. ' +
    'If there is no exact match, small differences (line endings, escaping, pasted line-number prefixes, typographic quotes, dashes and Unicode spaces, Unicode normalization, trailing whitespace, indentation) are corrected when that gives exactly one match, and the result says so. ' +
    'The result shows the changed lines; no re-read is needed before another edit.',
  glob:
    'Find files by glob pattern (**, *, ?, {a,b}, [abc]; dotfiles included), matched against paths relative to path. ' +
    `Returns absolute paths, one per line, newest first; at most ${GLOB_MAX_RESULTS}.`,
  grep:
    `Search file contents. ${REGEX_DIALECT_DESCRIPTION} Set fixed_strings=true to search for a literal string. ` +
    'output_mode: "files_with_matches" (default) lists matching file paths; "content" shows path:line:text with context lines as path-line-text and groups separated by --; ' +
    '"count" shows path:N matching lines per file. glob filters files (a pattern without / matches file names at any depth, e.g. "*.ts"). ' +
    `head_limit caps the number of entries (default ${GREP_DEFAULT_HEAD_LIMIT}; 0 = no cap). Binary files are skipped.`,
});

const path = (description: string, dflt?: string): JsonSchemaProperty =>
  dflt === undefined ? { type: 'string', description } : { type: 'string', description, default: dflt };

const respectGitIgnore: JsonSchemaProperty = {
  type: 'boolean',
  description:
    'Leave out files that .gitignore files ignore, and .git/ and node_modules/ directories; the result says how many were left out. false includes them.',
  default: true,
};

function params(properties: Record<string, JsonSchemaProperty>, required: string[]): ToolParameters {
  return { type: 'object', properties, required, additionalProperties: false };
}

export function buildDefinitions(overrides: Partial<Record<ToolName, string>> = {}): ToolDefinition[] {
  const d = (name: ToolName) => overrides[name] ?? TOOL_DESCRIPTIONS[name];
  return [
    { name: 'ls', description: d('ls'), parameters: params({ path: path('Directory to list.', '/'), respect_git_ignore: respectGitIgnore }, []) },
    {
      name: 'read_file',
      description: d('read_file'),
      parameters: params(
        {
          path: path('File to read.'),
          offset: { type: 'integer', description: '0-based line to start from.', default: 0, minimum: 0 },
          limit: { type: 'integer', description: 'Maximum number of lines to read.', default: READ_DEFAULT_LIMIT, minimum: 1 },
          part: {
            type: 'integer',
            description: 'Only for a line over 5000 characters: the continuation row of line offset+1 to start at (k of row N.k); 0 = the start of the line.',
            default: 0,
            minimum: 0,
          },
        },
        ['path'],
      ),
    },
    {
      name: 'write_file',
      description: d('write_file'),
      parameters: params({ path: path('File to write.'), content: { type: 'string', description: 'The full new content of the file.' } }, ['path', 'content']),
    },
    {
      name: 'edit_file',
      description: d('edit_file'),
      parameters: params(
        {
          path: path('File to edit.'),
          old_string: { type: 'string', description: 'Exact text to replace (copied from read_file output, without the line-number prefix).' },
          new_string: { type: 'string', description: 'Text to put in its place.' },
          replace_all: { type: 'boolean', description: 'Replace every occurrence.', default: false },
        },
        ['path', 'old_string', 'new_string'],
      ),
    },
    {
      name: 'glob',
      description: d('glob'),
      parameters: params(
        {
          pattern: { type: 'string', description: 'Glob pattern, e.g. "**/*.ts" or "src/*.{js,json}".' },
          path: path('Directory to search from.', '/'),
          respect_git_ignore: respectGitIgnore,
        },
        ['pattern'],
      ),
    },
    {
      name: 'grep',
      description: d('grep'),
      parameters: params(
        {
          pattern: { type: 'string', description: 'Regular expression (or literal text with fixed_strings=true).' },
          path: path('File or directory to search.', '/'),
          glob: { type: 'string', description: 'Only search files matching this glob, e.g. "*.ts" or "src/**/*.tsx".' },
          output_mode: { type: 'string', description: 'What to show.', enum: ['files_with_matches', 'content', 'count'], default: 'files_with_matches' },
          ignore_case: { type: 'boolean', description: 'Case-insensitive search.', default: false },
          fixed_strings: { type: 'boolean', description: 'Treat pattern as a literal string.', default: false },
          context: { type: 'integer', description: 'Lines of context before and after each match (content mode).', default: 0, minimum: 0 },
          head_limit: { type: 'integer', description: 'Maximum entries to show (0 = no cap).', default: GREP_DEFAULT_HEAD_LIMIT, minimum: 0 },
          respect_git_ignore: respectGitIgnore,
        },
        ['pattern'],
      ),
    },
  ];
}
