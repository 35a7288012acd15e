/**
 * The dialects createTools knows and the tool names of each. Types and a list only, so the
 * call table (src/calls.ts) and the worker client can name them without loading any dialect.
 */
import type { ToolName } from '../definitions.ts';

/** Every dialect, the default first. */
export const DIALECT_NAMES = ['agentvfs', 'openai', 'anthropic', 'gemini', 'mcp-filesystem'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/** The tool names of each dialect (each dialect's definitions and handlers are checked against these). */
export interface DialectToolNames {
  agentvfs: ToolName;
  openai: 'apply_patch';
  anthropic: 'str_replace_based_edit_tool' | 'memory';
  gemini: 'read_file' | 'write_file' | 'replace' | 'glob' | 'grep_search' | 'list_directory' | 'read_many_files';
  'mcp-filesystem':
    | 'read_text_file'
    | 'read_multiple_files'
    | 'write_file'
    | 'edit_file'
    | 'create_directory'
    | 'list_directory'
    | 'directory_tree'
    | 'move_file'
    | 'search_files'
    | 'get_file_info';
}
export type DialectToolName<D extends DialectName = DialectName> = DialectToolNames[D];

/** The `dialect` option checked: 'agentvfs' when left out; a TypeError listing the dialects for anything else. */
export function checkDialect(value: unknown): DialectName {
  if (value === undefined) return 'agentvfs';
  if ((DIALECT_NAMES as readonly unknown[]).includes(value)) return value as DialectName;
  const shown = typeof value === 'string' ? JSON.stringify(value) : `a ${value === null ? 'null' : typeof value}`;
  throw new TypeError(`agentvfs: unknown dialect ${shown}; the dialects are ${DIALECT_NAMES.map((d) => `'${d}'`).join(', ')}.`);
}
