/**
 * The definitions of every dialect's tools, apart from what the tools do: a worker client shows a
 * model the definitions while the tools run in the worker, and should not carry their code.
 */
import { buildDefinitions, type ToolDefinition } from '../definitions.ts';
import type { DialectName, DialectToolName } from './names.ts';
import { anthropicDefinitions } from './anthropic-definitions.ts';
import { geminiDefinitions } from './gemini-definitions.ts';
import { mcpFilesystemDefinitions } from './mcp-filesystem-definitions.ts';
import { openaiDefinitions } from './openai-definitions.ts';

const DEFINITIONS: { readonly [D in DialectName]: (descriptions: Partial<Record<string, string>>) => ToolDefinition<DialectToolName<D>>[] } = {
  agentvfs: buildDefinitions,
  openai: openaiDefinitions,
  anthropic: anthropicDefinitions,
  gemini: geminiDefinitions,
  'mcp-filesystem': mcpFilesystemDefinitions,
};

/** The definitions of `dialect`'s tools, with any description the caller overrides. */
export function dialectDefinitions<D extends DialectName>(
  dialect: D,
  descriptions: Partial<Record<string, string>> = {},
): ToolDefinition<DialectToolName<D>>[] {
  return (DEFINITIONS[dialect] as (d: Partial<Record<string, string>>) => ToolDefinition<DialectToolName<D>>[])(descriptions);
}
