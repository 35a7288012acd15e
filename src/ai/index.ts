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
import { checkToolChoice } from '../adapters/include.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';
import { callMayWrite, toolCall, toolCallOfAnyDialect, type ToolCallInfo } from '../calls.ts';
import { loadPeer } from '../adapters/load-peer.ts';
import { guardOf, type ToolTarget, toTools } from '../adapters/tool-target.ts';
import type { GuardOptions } from '../guard/types.ts';
import type { ToolName } from '../tools/definitions.ts';
import type { ToolResult, Tools } from '../tools/types.ts';
import type { Backend } from '../backend/types.ts';
import { toModelOutput } from './model-output.ts';
import { responseTurn } from './response-turns.ts';
import { runWithin } from '../tools/tool-set.ts';

// Loaded, not imported statically: without `ai` installed, importing this subpath says what to install.
const { tool, jsonSchema } = await loadPeer('ai', 'ai', () => import('ai'));

/**
 * `permissions`, `approve` and `onEvent` (docs/approval.md) guard the new session made over a
 * backend target; for a tool set, give them to createTools. ai 7's own per-call `toolApproval`
 * (a yes/no before execute, without the diff) works on this set too, with or without them, and so
 * does the SDK's tool-level `needsApproval` (deprecated in ai 7, still honoured), set below.
 */
export interface AiSdkToolsOptions<N extends string = ToolName> extends GuardOptions {
  /** Only these tools (for example a read-only agent: `['ls', 'read_file', 'glob', 'grep']`). Default: all six. */
  include?: readonly N[] | undefined;
  /** Replace some tool descriptions (the text the model reads). */
  /** By tool name: the six's, or a dialect tool set's own. */
  descriptions?: { [K in ToolName | (string & {})]?: string | undefined } | undefined;
  /**
   * The SDK's own approval for every tool that may change files (never for a read): `true`, or a
   * function of the tool's name and input. The SDK then stops at such a call with a
   * `tool-approval-request` and runs it only once the app answers it (docs/ai-sdk.md).
   */
  needsApproval?: boolean | ((name: string, input: AiSdkToolInput) => boolean | Promise<boolean>) | undefined;
}

/** The tool's input as the model sends it: checked against the tool's JSON Schema by tools.run. */
export type AiSdkToolInput = Record<string, unknown>;

/** One tool of the set: an AI SDK Tool whose output is the call's ToolResult, with its execute always present. */
export type AiSdkTool = Tool<AiSdkToolInput, ToolResult> & { execute: NonNullable<Tool<AiSdkToolInput, ToolResult>['execute']> };

/**
 * One AI SDK tool per agentvfs tool, keyed by name. Each call is one `tools.run` (one round trip
 * when the backend is in a worker); its output is the ToolResult, and the model reads exactly the
 * text tools.call returns (see toModelOutput). A tool failure is that `Error: …` text, never a
 * throw (a setup error, such as a permission glob the matcher cannot compile, rejects).
 * A backend gets a new session (its own read tracking); pass a tool set to share one.
 */
const AI_SDK_TOOLS_OPTIONS = optionNames<AiSdkToolsOptions>({
  include: true,
  descriptions: true,
  needsApproval: true,
  permissions: true,
  approve: true,
  onEvent: true,
});

export function aiSdkTools<const N extends string>(target: ToolTarget, options: AiSdkToolsOptions<N> & { include: readonly N[] }): Record<N, AiSdkTool>;
/** A tool set's own tools, keyed by their names (a dialect's too). */
export function aiSdkTools<N extends string>(target: Tools<N>, options?: AiSdkToolsOptions<N>): Record<N, AiSdkTool>;
export function aiSdkTools(target: Backend, options?: AiSdkToolsOptions<ToolName>): Record<ToolName, AiSdkTool>;
/** Any target (typed as ToolTarget): keyed by name. */
export function aiSdkTools(target: ToolTarget, options?: AiSdkToolsOptions<string>): Record<string, AiSdkTool>;
export function aiSdkTools<N extends string>(target: ToolTarget, options: AiSdkToolsOptions<N> = {}): Record<N, AiSdkTool> {
  checkOptionNames(options, AI_SDK_TOOLS_OPTIONS, 'agentvfs/ai: aiSdkTools');
  const tools = toTools(target, 'ai', guardOf(options));
  const names = checkToolChoice(
    options,
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
      // A model response's calls never count each other's reads (response-turns.ts); the SDK's
      // abortSignal cancels a call whose write is waiting for approval (nothing is written).
      execute: (input, { messages, abortSignal }) => runWithin(tools, definition.name, input, { ...responseTurn(messages), signal: abortSignal }),
      toModelOutput: ({ output }) => toModelOutput(output),
      // A backend gets the six tools; a tool set's dialect is not known (calls.ts).
      ...needsApproval(options.needsApproval, definition.name, tools === target ? toolCallOfAnyDialect(definition.name) : toolCall(definition.name)),
    });
  }
  return set;
}

/**
 * The SDK's `needsApproval` for tool `name`: none for a tool that only reads (src/calls.ts), else
 * the option's, asked only for a call that may write (a text editor's `view` and an edit_file
 * `dryRun` are not).
 */
function needsApproval(option: AiSdkToolsOptions['needsApproval'], name: string, info: ToolCallInfo | undefined): Pick<AiSdkTool, 'needsApproval'> {
  if (option === undefined || option === false || info?.mutates === false) return {};
  if (option === true && info?.readCommands === undefined && info?.previewArg === undefined) return { needsApproval: true };
  return { needsApproval: (input: AiSdkToolInput) => callMayWrite(info, input) && (option === true || option(name, input)) };
}
