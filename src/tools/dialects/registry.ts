/**
 * The dialect registry: for each dialect, its definitions (what the model is shown) and its
 * handlers (what a call does). The default dialect's handlers are create-tools.ts's own; every
 * other dialect is one file in this folder exporting a Dialect, listed here.
 */
import type { Backend } from '../../backend/types.ts';
import { buildDefinitions, type ToolDefinition } from '../definitions.ts';
import type { ReadVersions } from '../read-versions.ts';
import { toolRunner } from '../run-tool.ts';
import { toolSet } from '../tool-set.ts';
import type { Tools } from '../types.ts';
import { anthropicHandlers } from './anthropic.ts';
import { anthropicDefinitions } from './anthropic-definitions.ts';
import { geminiAliases, geminiHandlers, geminiValidators } from './gemini.ts';
import { geminiDefinitions } from './gemini-definitions.ts';
import { mcpFilesystemAliases, mcpFilesystemHandlers } from './mcp-filesystem.ts';
import { mcpFilesystemDefinitions } from './mcp-filesystem-definitions.ts';
import type { DialectName, DialectToolName } from './names.ts';
import { openai } from './openai.ts';
import type { Dialect } from './types.ts';

/** Every dialect but the default. */
export type ExtraDialect = Exclude<DialectName, 'agentvfs'>;

// Definitions apart from the tools, so a client that only shows them (a worker's RemoteBackend)
// bundles no tool code of the dialects split this way.
const DEFINITIONS: { readonly [D in ExtraDialect]: Dialect<DialectToolName<D>>['definitions'] } = {
  openai: openai.definitions,
  anthropic: anthropicDefinitions,
  gemini: geminiDefinitions,
  'mcp-filesystem': mcpFilesystemDefinitions,
};

const DIALECTS: { readonly [D in ExtraDialect]: Omit<Dialect<DialectToolName<D>>, 'definitions'> } = {
  openai,
  anthropic: { handlers: anthropicHandlers },
  gemini: { handlers: geminiHandlers, validators: geminiValidators, aliases: geminiAliases },
  'mcp-filesystem': { handlers: mcpFilesystemHandlers, aliases: mcpFilesystemAliases },
};

/** The definitions of `dialect`'s tools (also where the tools run elsewhere, e.g. in a worker). */
export function dialectDefinitions<D extends DialectName>(
  dialect: D,
  descriptions: Partial<Record<string, string>> = {},
): ToolDefinition<DialectToolName<D>>[] {
  if (dialect === 'agentvfs') return buildDefinitions(descriptions) as ToolDefinition<DialectToolName<D>>[];
  return (DEFINITIONS[dialect as ExtraDialect] as Dialect<string>['definitions'])(descriptions) as ToolDefinition<DialectToolName<D>>[];
}

/** A tool set of a dialect other than the default, running here over `backend`. */
export function createDialectTools(
  backend: Backend,
  dialect: ExtraDialect,
  reads: ReadVersions,
  descriptions: Partial<Record<string, string>> = {},
): Tools<string> {
  const spec = DIALECTS[dialect] as Omit<Dialect<string>, 'definitions'>;
  const definitions = dialectDefinitions(dialect, descriptions) as ToolDefinition<string>[];
  const run = toolRunner(definitions, spec.handlers({ backend, reads }), spec.validators);
  const aliases = spec.aliases ?? {};
  return toolSet(definitions, (name, args) => run(Object.hasOwn(aliases, name) ? aliases[name]! : name, args));
}
