/**
 * One scripted agent task for the AI SDK adapter, shared by the Node tests and the Chromium page:
 * the tool calls a mock model makes step by step (some of them failing), the files it should
 * leave, and how to read back what the model saw. It imports no agentvfs module, so the page can
 * run it over the built package.
 */
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

export const START_FILES = {
  '/src/app.ts': 'export const greeting = "hello";\n',
  '/README.md': '# demo\n',
};

interface ScriptedCall {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  /** The call fails: the model must see its `Error: …` text flagged as an error. */
  fails?: true;
}

/** Each step's calls run together (the SDK runs one step's calls in parallel), so none depends on another of its step. */
export const STEPS: ScriptedCall[][] = [
  [
    { toolCallId: 'c1', toolName: 'glob', input: { pattern: '**/*.ts' } },
    { toolCallId: 'c2', toolName: 'read_file', input: { path: '/src/app.ts' } },
    { toolCallId: 'c3', toolName: 'edit_file', input: { path: '/src/missing.ts', old_string: 'a', new_string: 'b' }, fails: true },
    // A bad argument (no content): refused by the tool's own check, nothing written.
    { toolCallId: 'c4', toolName: 'write_file', input: { path: '/src/bad.ts' }, fails: true },
  ],
  [
    { toolCallId: 'c5', toolName: 'edit_file', input: { path: 'src/app.ts', old_string: '"hello"', new_string: '"hello, world"' } },
    { toolCallId: 'c6', toolName: 'write_file', input: { path: '/notes/todo.md', content: '- ship it\n' } },
  ],
  [{ toolCallId: 'c7', toolName: 'grep', input: { pattern: 'world', output_mode: 'content' } }],
];

export const FINAL_TEXT = 'Done: the greeting says hello, world.';

export const END_FILES = {
  '/src/app.ts': 'export const greeting = "hello, world";\n',
  '/notes/todo.md': '- ship it\n',
  '/README.md': '# demo\n',
};
export const NEVER_WRITTEN = ['/src/bad.ts', '/src/missing.ts'];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const toolCalls = { unified: 'tool-calls' as const, raw: undefined };
const stop = { unified: 'stop' as const, raw: undefined };
const asToolCall = (c: ScriptedCall) => ({ type: 'tool-call' as const, toolCallId: c.toolCallId, toolName: c.toolName, input: JSON.stringify(c.input) });

/** A model for generateText: one response per step, then the final text. */
export function generatingModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: [
      ...STEPS.map((calls) => ({ content: calls.map(asToolCall), finishReason: toolCalls, usage, warnings: [] })),
      { content: [{ type: 'text' as const, text: FINAL_TEXT }], finishReason: stop, usage, warnings: [] },
    ],
  });
}

/** The same script as streams, for streamText. */
export function streamingModel(): MockLanguageModelV4 {
  // null delays: the chunks are emitted as they are read, no timers.
  const stream = <T>(chunks: T[]) => ({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) });
  return new MockLanguageModelV4({
    doStream: [
      ...STEPS.map((calls) =>
        stream([{ type: 'stream-start' as const, warnings: [] }, ...calls.map(asToolCall), { type: 'finish' as const, finishReason: toolCalls, usage }]),
      ),
      stream([
        { type: 'stream-start' as const, warnings: [] },
        { type: 'text-start' as const, id: 't' },
        { type: 'text-delta' as const, id: 't', delta: FINAL_TEXT },
        { type: 'text-end' as const, id: 't' },
        { type: 'finish' as const, finishReason: stop, usage },
      ]),
    ],
  });
}

type Prompt = MockLanguageModelV4['doGenerateCalls'][number]['prompt'];
export type SeenOutput = { type: string; value?: unknown };

/** The tool results in one prompt the model received, by tool call id. */
export function toolResultsIn(prompt: Prompt): Record<string, SeenOutput> {
  const seen: Record<string, SeenOutput> = {};
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') seen[part.toolCallId] = part.output as SeenOutput;
  }
  return seen;
}

/**
 * What the model should have seen after each step: every call's text from a reference tool set
 * (`call`, over a backend holding START_FILES), as `text`, or `error-text` for a failing call.
 * The calls run in script order; no result depends on the order within a step.
 */
export async function expectedResults(reference: { call(name: string, args: unknown): Promise<string> }): Promise<Record<string, SeenOutput>[]> {
  const afterStep: Record<string, SeenOutput>[] = [];
  const seen: Record<string, SeenOutput> = {};
  for (const calls of STEPS) {
    for (const c of calls) seen[c.toolCallId] = { type: c.fails ? 'error-text' : 'text', value: await reference.call(c.toolName, c.input) };
    afterStep.push({ ...seen });
  }
  return afterStep;
}
