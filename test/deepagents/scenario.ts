/**
 * The agent tasks run the same way in Node, in workerd and in a Chromium page, each driven by
 * LangChain's own fake chat model: a deep agent over a backend (ls, write_file, read_file,
 * edit_file, grep, glob and a failing read), and a LangChain agent (createAgent) over given
 * tools. Imports only the frameworks, so every runtime bundles it.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { type BackendProtocolV2, createDeepAgent } from 'deepagents';
import { createAgent } from 'langchain';

export const START_FILES = { '/src/app.ts': 'export const greeting = "hello";\n' };

/** What the task leaves in agentvfs. */
export const END_FILES = {
  '/src/app.ts': 'export const greeting = "hi";\n',
  '/docs/notes.md': '# Notes\nThe greeting is now hi.\n',
};

const call = (name: string, args: Record<string, unknown>, id: string) => ({ name, args, id });

/**
 * Each tool call's id, status and the text deepagents sent back to the model. The statuses are
 * deepagents' own: its write_file and edit_file make their ToolMessage without one, and its
 * read_file reports a missing file as text without flagging it.
 */
export const EXPECTED_RESULTS: Array<[string, string, string]> = [
  ['c1', 'success', '/src/ (directory)'],
  ['c2', '', "Successfully wrote to '/docs/notes.md'"],
  ['c3', 'success', '@@ lines 1-1 of 1 @@\nexport const greeting = "hello";'],
  ['c4', '', "Successfully replaced 1 occurrence(s) in '/src/app.ts'"],
  ['c5', 'success', '/docs/notes.md:\n  2: The greeting is now hi.\n/src/app.ts:\n  1: export const greeting = "hi";'],
  ['c6', 'success', '/docs/notes.md'],
  ['c7', 'success', '/docs/ (directory)\n/src/ (directory)'],
  ['c8', 'success', "Error: File '/src/missing.ts' not found"],
];

export const FINAL_ANSWER = 'Done: the greeting says hi, and /docs/notes.md says so.';

export interface ScenarioOutcome {
  results: Array<[string, string, string]>;
  final: string;
  /** What the agent's LangGraph state holds under `files` (nothing: the files live in agentvfs). */
  stateFiles: Record<string, unknown>;
}

/** `files`: the agent's initial LangGraph `files` state, for deepagents' own StateBackend (which keeps files there). */
export async function runDeepAgentTask(backend: BackendProtocolV2, files?: Record<string, unknown>): Promise<ScenarioOutcome> {
  const model = fakeModel()
    .respondWithTools([call('ls', { path: '/' }, 'c1')])
    .respondWithTools([call('write_file', { file_path: '/docs/notes.md', content: END_FILES['/docs/notes.md'] }, 'c2')])
    .respondWithTools([call('read_file', { file_path: '/src/app.ts' }, 'c3')])
    .respondWithTools([call('edit_file', { file_path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' }, 'c4')])
    .respondWithTools([call('grep', { pattern: 'hi', glob: '*.{ts,md}' }, 'c5'), call('glob', { pattern: '**/*.md' }, 'c6')])
    .respondWithTools([call('ls', { path: '/' }, 'c7'), call('read_file', { file_path: '/src/missing.ts' }, 'c8')])
    .respond(new AIMessage(FINAL_ANSWER));
  const agent = createDeepAgent({ model, backend });
  const state = await agent.invoke({
    messages: [new HumanMessage('Make the greeting say hi and write a note about it.')],
    ...(files ? { files } : {}),
  } as never);
  const results = state.messages
    .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
    .map((m): [string, string, string] => [m.tool_call_id, m.status ?? '', textOf(m.content)]);
  return { results, final: textOf(state.messages.at(-1)!.content), stateFiles: (state as { files?: Record<string, unknown> }).files ?? {} };
}

/** deepagents answers read_file with content blocks; the other tools with a string. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as Array<{ type: string; text?: string }>).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('');
}

/** The LangChain agent's tool calls, in the order the fake model makes them (two, then one, then two). */
type Call = ReturnType<typeof call>;
export const LANGCHAIN_CALLS: [Call, Call, Call, Call, Call] = [
  call('write_file', { path: '/docs/notes.md', content: END_FILES['/docs/notes.md'] }, 'l1'),
  call('read_file', { path: '/src/app.ts' }, 'l2'),
  call('edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' }, 'l3'),
  call('grep', { pattern: 'hi', output_mode: 'content' }, 'l4'),
  call('read_file', { path: '/src/missing.ts' }, 'l5'),
];

/** Each call's status: the failing read is flagged. */
export const LANGCHAIN_STATUSES = ['success', 'success', 'success', 'success', 'error'];

/** createAgent over `tools` (langchainTools of a backend holding START_FILES): each call's id, status and text. */
export async function runLangchainAgentTask(tools: StructuredToolInterface[]): Promise<Omit<ScenarioOutcome, 'stateFiles'>> {
  const [l1, l2, l3, l4, l5] = LANGCHAIN_CALLS;
  const model = fakeModel().respondWithTools([l1, l2]).respondWithTools([l3]).respondWithTools([l4, l5]).respond(new AIMessage(FINAL_ANSWER));
  const agent = createAgent({ model, tools });
  const state = await agent.invoke({ messages: [new HumanMessage('Make the greeting say hi and write a note about it.')] });
  const results = state.messages
    .filter((m): m is ToolMessage => ToolMessage.isInstance(m))
    .map((m): [string, string, string] => [m.tool_call_id, m.status ?? '', textOf(m.content)]);
  return { results, final: textOf(state.messages.at(-1)!.content) };
}
