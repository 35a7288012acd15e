/**
 * The dialect registry: for each dialect but the default, its Dialect (definitions and handlers),
 * one file each in this folder. The default dialect's handlers are create-tools.ts's own; the
 * definitions alone are in definitions.ts, for the worker client.
 */
import type { Backend } from '../../backend/types.ts';
import type { GuardSession } from '../../guard/session.ts';
import type { CallReads, ReadVersions } from '../read-versions.ts';
import { retriedAfterOwnWrites, toolRunner } from '../run-tool.ts';
import { toolPreviewer } from '../preview-call.ts';
import { toolSet } from '../tool-set.ts';
import type { PreviewOptions, Tools } from '../types.ts';
import type { DialectName, DialectToolName } from './names.ts';
import { anthropicHandlers } from './anthropic.ts';
import { anthropicDefinitions } from './anthropic-definitions.ts';
import { geminiAliases, geminiHandlers, geminiValidators } from './gemini.ts';
import { geminiDefinitions } from './gemini-definitions.ts';
import { mcpFilesystemAliases, mcpFilesystemHandlers } from './mcp-filesystem.ts';
import { mcpFilesystemDefinitions } from './mcp-filesystem-definitions.ts';
import { openai } from './openai.ts';
import type { Dialect } from './types.ts';
import { errorInWordsOf, inWordsOf } from './next-actions.ts';
import { PERSON_EDITED_NOTE } from '../../guard/guarded-writes.ts';

/** Every dialect but the default. */
export type ExtraDialect = Exclude<DialectName, 'agentvfs'>;

const DIALECTS: { readonly [D in ExtraDialect]: Dialect<DialectToolName<D>> } = {
  openai,
  anthropic: { definitions: anthropicDefinitions, handlers: anthropicHandlers },
  gemini: { definitions: geminiDefinitions, handlers: geminiHandlers, validators: geminiValidators, aliases: geminiAliases },
  'mcp-filesystem': { definitions: mcpFilesystemDefinitions, handlers: mcpFilesystemHandlers, aliases: mcpFilesystemAliases },
};

/** A tool set of a dialect other than the default, running here over `backend`. */
export function createDialectTools(
  backend: Backend,
  dialect: ExtraDialect,
  reads: ReadVersions,
  descriptions: Partial<Record<string, string>> = {},
  guard?: GuardSession,
): Tools<string> {
  const spec = DIALECTS[dialect] as Dialect<string>;
  const definitions = spec.definitions(descriptions);
  const handlersFor = (over: Backend, callReads: CallReads) => spec.handlers({ backend: over, reads: callReads });
  const run = retriedAfterOwnWrites(toolRunner(definitions, handlersFor, backend, reads, spec.validators, guard, dialect), reads, backend, dialect);
  const preview = toolPreviewer(definitions, handlersFor, backend, reads, spec.validators, guard, dialect);
  // Older names models still emit run as the tool they became.
  const aliases = spec.aliases ?? {};
  const named = (name: string) => (Object.hasOwn(aliases, name) ? aliases[name]! : name);
  const previewed = async (name: string, args?: unknown, options: PreviewOptions = {}) => {
    const after = options.after?.map((c) => ({ ...c, name: named(c.name) }));
    const { changes, error } = await preview(named(name), args, after === undefined ? {} : { after });
    return error === undefined ? { changes } : { changes, error: { ...error, text: errorInWordsOf(dialect, error.text) } };
  };
  return toolSet(
    definitions,
    async (name, args, call) => {
      const result = await run(named(name), args, call);
      // An error's next action, and a note the guard added after a result, in this dialect's words
      // (never the rest of a result: that is the files' own text).
      if (result.isError) return { ...result, text: errorInWordsOf(dialect, result.text) };
      const note = result.text.lastIndexOf(`\n${PERSON_EDITED_NOTE}`);
      return note < 0 ? result : { ...result, text: result.text.slice(0, note) + inWordsOf(dialect, result.text.slice(note)) };
    },
    previewed,
  );
}
