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
  read_text_file:
    'Read the complete contents of a file from the file system as text. Use this tool when you need to examine the contents of a single file. ' +
    "Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file.",
  read_multiple_files:
    "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation.",
  write_file:
    'Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning.',
  edit_file:
    'Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. The edits apply all together or not at all.',
  create_directory:
    'Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently.',
  list_directory:
    'Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes.',
  directory_tree:
    "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability.",
  move_file:
    'Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail.',
  search_files:
    "Recursively search for files matching a pattern. The patterns should be glob-style patterns that match paths relative to the given path. Use pattern like '*.ext' to match files in that directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items.",
  get_file_info:
    'Retrieve detailed metadata about a file or directory. Returns size, creation time, last modified time, permissions, and type, without reading the content.',
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
    def('directory_tree', { path, excludePatterns: patterns }, ['path']),
    def('move_file', { source: str('The file or directory to move.'), destination: str('Where to move it.') }, ['source', 'destination']),
    def('search_files', { path, pattern: str("Glob pattern, e.g. '**/*.ts'."), excludePatterns: patterns }, ['path', 'pattern']),
    def('get_file_info', { path }, ['path']),
  ];
}
