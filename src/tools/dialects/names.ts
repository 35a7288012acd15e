/**
 * The dialects createTools knows and the tool names of each. Types and a list only, so the
 * call table (src/calls.ts) and the worker client can name them without loading any dialect.
 */
import type { ToolName } from '../definitions.ts';
import type { AnthropicToolName } from './anthropic/names.ts';
import type { GeminiToolName } from './gemini/names.ts';
import type { McpFilesystemToolName } from './mcp-filesystem/names.ts';

// Exported from the package root: a tool set of these dialects, exported from a user's own module, needs them named.
export type { AnthropicToolName, GeminiToolName, McpFilesystemToolName };

/** Every dialect, the default first. */
export const DIALECT_NAMES = ['agentvfs', 'openai', 'anthropic', 'gemini', 'mcp-filesystem'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/** The tool names of each dialect (each dialect's definitions and handlers are checked against these). */
export interface DialectToolNames {
  agentvfs: ToolName;
  openai: 'apply_patch';
  anthropic: AnthropicToolName;
  gemini: GeminiToolName;
  'mcp-filesystem': McpFilesystemToolName;
}
export type DialectToolName<D extends DialectName = DialectName> = DialectToolNames[D];

/** The `dialect` option checked: 'agentvfs' when left out; a TypeError listing the dialects for anything else. */
export function checkDialect(value: unknown): DialectName {
  if (value === undefined) return 'agentvfs';
  if ((DIALECT_NAMES as readonly unknown[]).includes(value)) return value as DialectName;
  const shown = typeof value === 'string' ? JSON.stringify(value) : `a ${value === null ? 'null' : typeof value}`;
  throw new TypeError(`agentvfs: unknown dialect ${shown}; the dialects are ${DIALECT_NAMES.map((d) => `'${d}'`).join(', ')}.`);
}
