/**
 * agentvfs/ai — the six file tools as a Vercel AI SDK ToolSet (`ai` 7.x).
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * import { createStateBackend } from 'agentvfs';
 * import { aiSdkTools } from 'agentvfs/ai';
 * const tools = aiSdkTools(createStateBackend());
 * await generateText({ model, tools, stopWhen: stepCountIs(20), prompt: 'Create /notes.md' });
 */
import type { Tool } from 'ai';
import { checkInclude } from '../adapters/include.ts';
import { loadPeer } from '../adapters/load-peer.ts';
import { type ToolTarget, toTools } from '../adapters/tool-target.ts';
import type { ToolName } from '../tools/definitions.ts';
import type { ToolResult } from '../tools/types.ts';
import { toModelOutput } from './model-output.ts';

// Loaded, not imported statically: without `ai` installed, importing this subpath says what to install.
const { tool, jsonSchema } = await loadPeer('ai', 'ai', () => import('ai'));

export interface AiSdkToolsOptions<N extends string = ToolName> {
  /** Only these tools (for example a read-only agent: `['ls', 'read_file', 'glob', 'grep']`). Default: all six. */
  include?: readonly N[];
  /** Replace some tool descriptions (the text the model reads). */
  /** By tool name: the six's, or a dialect tool set's own. */
  descriptions?: Partial<Record<ToolName | (string & {}), string>>;
  // Approval: ai 7's own per-call `toolApproval` (generateText, streamText, agents) already works on
  // this set. agentvfs's `approve` (SPEC §10, with the diff) is not built yet; when createTools takes
  // it, a backend target's session gets it from an option here.
}

/** The tool's input as the model sends it: checked against the tool's JSON Schema by tools.run. */
export type AiSdkToolInput = Record<string, unknown>;

/** One tool of the set: an AI SDK Tool whose output is the call's ToolResult, with its execute always present. */
export type AiSdkTool = Tool<AiSdkToolInput, ToolResult> & { execute: NonNullable<Tool<AiSdkToolInput, ToolResult>['execute']> };

/**
 * One AI SDK tool per agentvfs tool, keyed by name. Each call is one `tools.run` (one round trip
 * when the backend is in a worker); its output is the ToolResult, and the model reads exactly the
 * text tools.call returns (see toModelOutput). A failure is that `Error: …` text, never a throw.
 * A backend gets a new session (its own read tracking); pass a tool set to share one.
 */
export function aiSdkTools<const N extends string = ToolName>(target: ToolTarget, options: AiSdkToolsOptions<N> = {}): Record<N, AiSdkTool> {
  const tools = toTools(target, 'ai');
  const names = checkInclude(
    options.include,
    'ai',
    tools.definitions.map((d) => d.name),
  );
  const set = {} as Record<N, AiSdkTool>;
  for (const definition of tools.definitions) {
    if (!names.has(definition.name)) continue;
    set[definition.name as N] = tool({
      description: options.descriptions?.[definition.name] ?? definition.description,
      // No validate function: the SDK passes the input through, and tools.run checks it, so a bad
      // argument reaches the model as the same `Error: …` text tools.call gives, nothing written.
      inputSchema: jsonSchema<AiSdkToolInput>(definition.parameters as Parameters<typeof jsonSchema>[0]),
      execute: (input) => tools.run(definition.name, input),
      toModelOutput: ({ output }) => toModelOutput(output),
    });
  }
  return set;
}
