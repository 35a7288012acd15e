/**
 * langchainTools(target): the six agentvfs tools as LangChain structured tools (@langchain/core 1.x),
 * each with the JSON Schema and description from the tool definitions, answering with exactly the
 * text tools.call gives. A failure is that text too, flagged `status: 'error'` on its ToolMessage.
 * The ToolMessage's artifact (kept from the model) is the call's ToolResult: isError, code, changed.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import type { DynamicStructuredTool as LangchainStructuredTool } from '@langchain/core/tools';
import { checkToolChoice } from '../adapters/include.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';
import { loadPeer } from '../adapters/load-peer.ts';
import { guardOf, toTools, type AdaptedTools, type ToolTarget } from '../adapters/tool-target.ts';
import type { GuardOptions } from '../guard/types.ts';
import type { ToolDefinition, ToolName } from '../tools/definitions.ts';
import type { ToolResult } from '../tools/types.ts';

const [toolsModule, messagesModule] = await Promise.all([
  loadPeer('langchain', '@langchain/core', () => import('@langchain/core/tools')),
  loadPeer('langchain', '@langchain/core', () => import('@langchain/core/messages')),
]);
const { DynamicStructuredTool } = toolsModule;
const { ToolMessage } = messagesModule;

/** `permissions`, `approve`, `onEvent` (docs/approval.md) guard the session made over a backend target; for a tool set, give them to createTools. */
export interface LangchainToolsOptions extends GuardOptions {
  /** Only these tools (for example a read-only agent: `['ls', 'read_file', 'glob', 'grep']`). Default: all six. */
  include?: readonly (ToolName | (string & {}))[] | undefined;
  /** Replace some tool descriptions (the text the model reads). */
  descriptions?: { [K in ToolName | (string & {})]?: string | undefined } | undefined;
}

/** A text block, then one block per image or document, in LangChain's standard content-block shape. */
type ContentBlock = { type: 'text'; text: string } | { type: 'image' | 'file'; mimeType: string; data: string };
type Content = string | ContentBlock[];
/** LangChain's content-and-artifact pair: what the model reads (or a ToolMessage made here), and the ToolResult. */
type Output = [Content | InstanceType<typeof ToolMessage>, ToolResult];
type Args = Record<string, unknown>;
type CallConfig = { toolCall?: { id?: string }; signal?: AbortSignalLike } | undefined;
/**
 * One of the tools langchainTools returns: a LangChain DynamicStructuredTool taking the tool's JSON
 * arguments. Typed by what invoke() resolves to (LangChain types it with the tool's output type):
 * the content (the text, or blocks with media) for plain arguments, a ToolMessage for a tool call.
 * Its function returns the content-and-artifact pair (Output), which LangChain takes apart.
 */
export type LangchainTool = LangchainStructuredTool<ToolDefinition['parameters'], Args, Args, Content>;

/**
 * One agentvfs tool. LangChain checks arguments against the JSON Schema before anything runs, and
 * throws, with no callback and no stream event, when they do not fit; the tool set checks them
 * itself and answers the model with agentvfs's own message naming the argument (writing nothing),
 * and takes what the schema refuses but agentvfs accepts (null for an optional argument, as
 * OpenAI's strict mode sends). So each call runs through LangChain's own call(), callbacks and
 * all, on a view of this tool whose schema takes anything; models still see the real schema.
 */
class AgentvfsTool extends DynamicStructuredTool<ToolDefinition['parameters'], Args, Args, Content> {
  override async call(given: unknown, configArg?: unknown, tags?: string[]): Promise<never> {
    // An argument set to undefined is left out, as in JSON.
    const arg = isToolCall(given) ? { ...given, args: withoutUndefined(given.args) } : withoutUndefined(given);
    // invoke() passes the tool call in the config; the deprecated call() may be given the tool
    // call itself. The function finds it in the config, to flag a failure under its id.
    const config = isToolCall(arg) ? { ...(configArg as object | undefined), toolCall: arg } : configArg;
    const unchecked = Object.create(this, { schema: { value: {} } }) as this;
    return (await super.call.call(unchecked, arg as never, config as never, tags)) as never;
  }
}

const LANGCHAIN_TOOLS_OPTIONS = optionNames<LangchainToolsOptions>({ include: true, descriptions: true, permissions: true, approve: true, onEvent: true });

/** The tools for a backend (or a tool set from createTools, to share its read tracking), as LangChain structured tools. */
export function langchainTools(target: ToolTarget, options: LangchainToolsOptions = {}): LangchainTool[] {
  checkOptionNames(options, LANGCHAIN_TOOLS_OPTIONS, 'agentvfs/langchain: langchainTools');
  const tools = toTools(target, 'langchain', guardOf(options));
  const names = checkToolChoice(
    options,
    'langchain',
    tools.definitions.map((d) => d.name),
  );
  return tools.definitions.filter((d) => names.has(d.name)).map((d) => makeTool(tools, d, options.descriptions?.[d.name]));
}

function makeTool(tools: AdaptedTools, definition: ToolDefinition<string>, description = definition.description): AgentvfsTool {
  return new AgentvfsTool({
    name: definition.name,
    description,
    schema: definition.parameters,
    responseFormat: 'content_and_artifact',
    // The run's signal (config.signal) cancels a call whose write is waiting for approval.
    func: (async (args: Args, _runManager?: unknown, config?: unknown) =>
      toOutput(await tools.run(definition.name, args, { signal: (config as CallConfig)?.signal }), definition.name, config as CallConfig)) as unknown as (
      args: Args,
    ) => Promise<Content>,
  });
}

function toOutput(result: ToolResult, name: string, config: CallConfig): Output {
  const content: Content = result.parts?.length
    ? [{ type: 'text', text: result.text }, ...result.parts.map((p): ContentBlock => ({ type: p.type, mimeType: p.mediaType, data: p.data }))]
    : result.text;
  const toolCallId = config?.toolCall?.id;
  // LangChain makes the ToolMessage itself (status 'success') from what a tool returns; a failure
  // needs its own to carry status 'error'. Called without a tool call there is no message: the text.
  if (!result.isError || !toolCallId) return [content, result];
  return [new ToolMessage({ content, artifact: result, tool_call_id: toolCallId, name, status: 'error' }), result];
}

function isToolCall(arg: unknown): arg is { args: unknown; id?: string } {
  return typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'tool_call' && 'args' in arg;
}

function withoutUndefined(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
