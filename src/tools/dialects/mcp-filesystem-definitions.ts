/**
 * The 'mcp-filesystem' dialect's definitions: the tools of the reference MCP filesystem server
 * (modelcontextprotocol/servers src/filesystem/index.ts), names, parameters and descriptions as it
 * registers them (its "Only works within allowed directories" left out: the workspace is the backend).
 */
import type { JsonSchemaProperty, ToolDefinition, ToolParameters } from '../definitions.ts';
import type { McpFilesystemToolName } from './mcp-filesystem/names.ts';

const str = (description: string): JsonSchemaProperty => ({ type: 'string', description });
const path: JsonSchemaProperty = str('Path of the file or directory.');
const patterns: JsonSchemaProperty = { type: 'array', items: { type: 'string' }, description: 'Glob patterns to exclude.' };

function params(properties: Record<string, JsonSchemaProperty>, required: string[]): ToolParameters {
  return { type: 'object', properties, required, additionalProperties: false };
}

const DESCRIPTIONS: Readonly<Record<McpFilesystemToolName, string>> = {
  read_text_file: "Read the complete contents of a file as text; 'head' reads only the first N lines, 'tail' only the last N.",
  read_multiple_files: "Read several files at once, each returned with its path. A failed read of one file doesn't stop the others.",
  write_file: 'Create a new file or completely overwrite an existing file with new content.',
  edit_file: 'Make line-based edits to a text file: each edit replaces exact text; all apply or none. Returns a git-style diff of the changes.',
  create_directory: 'Create a directory (and its parents); succeeds silently if it exists.',
  list_directory: 'List a directory: one entry a line, [FILE] or [DIR] first.',
  read_media_file:
    'Read a file and return it as a base64-encoded content block with its MIME type: an image as image content, any other file (audio too) as an embedded resource.',
  list_directory_with_sizes:
    'List a directory with file sizes: [FILE] or [DIR], the name and the size, then the totals. sortBy: "name" (default) or "size" (largest first).',
  directory_tree:
    "A recursive tree of files and directories as JSON (2-space indent): each entry has 'name', 'type' (file/directory) and, for a directory, 'children' (maybe empty).",
  move_file: 'Move or rename a file or directory; fails if the destination exists.',
  search_files: "Find files by a glob matched against paths relative to path ('*.ext' in it, '**/*.ext' at any depth). Returns full paths.",
  get_file_info: 'Metadata of a file or directory: size, times, permissions and type.',
};

export function mcpFilesystemDefinitions(descriptions: Partial<Record<string, string>>): ToolDefinition<McpFilesystemToolName>[] {
  const def = (name: McpFilesystemToolName, properties: Record<string, JsonSchemaProperty>, required: string[]): ToolDefinition<McpFilesystemToolName> => ({
    name,
    description: descriptions[name] ?? DESCRIPTIONS[name],
    parameters: params(properties, required),
  });
  return [
    def(
      'read_text_file',
      {
        path,
        head: { type: 'integer', description: 'If provided, returns only the first N lines of the file', minimum: 0 },
        tail: { type: 'integer', description: 'If provided, returns only the last N lines of the file', minimum: 0 },
      },
      ['path'],
    ),
    def(
      'read_multiple_files',
      { paths: { type: 'array', items: { type: 'string' }, description: 'Array of file paths to read. Each path must be a string pointing to a valid file.' } },
      ['paths'],
    ),
    def('write_file', { path, content: str('The full content of the file.') }, ['path', 'content']),
    def(
      'edit_file',
      {
        path,
        edits: {
          type: 'array',
          description: 'The edits, applied in order.',
          items: {
            type: 'object',
            properties: {
              oldText: { type: 'string', description: 'Text to search for - must match exactly' },
              newText: { type: 'string', description: 'Text to replace with' },
            },
            required: ['oldText', 'newText'],
            additionalProperties: false,
          },
        },
        dryRun: { type: 'boolean', description: 'Preview changes using git-style diff format', default: false },
      },
      ['path', 'edits'],
    ),
    def('create_directory', { path }, ['path']),
    def('list_directory', { path }, ['path']),
    def('read_media_file', { path }, ['path']),
    def(
      'list_directory_with_sizes',
      { path, sortBy: { type: 'string', enum: ['name', 'size'], default: 'name', description: 'Sort entries by name or size' } },
      ['path'],
    ),
    def('directory_tree', { path, excludePatterns: patterns }, ['path']),
    def('move_file', { source: str('The file or directory to move.'), destination: str('Where to move it.') }, ['source', 'destination']),
    def('search_files', { path, pattern: str("Glob pattern, e.g. '**/*.ts'."), excludePatterns: patterns }, ['path', 'pattern']),
    def('get_file_info', { path }, ['path']),
  ];
}
