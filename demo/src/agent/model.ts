// Optional: drive a real model through the same six tools, with any OpenAI-compatible
// Chat Completions endpoint (OpenAI, OpenRouter, a local llama.cpp / Ollama / vLLM server…),
// through the Vercel AI SDK and agentvfs/ai: the SDK runs the loop, each tool call runs in the
// worker. The browser calls the endpoint directly, so it must allow CORS from this page.
// Loaded only when a model run starts (main bundle stays without the SDK).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { RunOptions, ToolResult, Tools } from 'agentvfs';
import { aiSdkTools } from 'agentvfs/ai';
import { generateText, stepCountIs } from 'ai';
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';

export interface ModelSettings {
  baseUrl: string;
  model: string;
  /** Used for this run's requests only: never stored, logged or put in the transcript. */
  apiKey: string;
}

const SYSTEM =
  'You are a coding agent working in a virtual filesystem through six tools (ls, read_file, write_file, edit_file, glob, grep). ' +
  'There is no shell. Read a file before editing it. Make the smallest correct change, then say briefly what you did.';
const MAX_STEPS = 25;

export async function runModelAgent(ws: Workspace, transcript: Transcript, settings: ModelSettings, task: string, signal?: AbortSignal): Promise<void> {
  const endpoint = createOpenAICompatible({ name: 'endpoint', baseURL: settings.baseUrl, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) });
  transcript.event('model', `Task for ${settings.model}: ${task}`);
  const result = await generateText({
    model: endpoint.chatModel(settings.model),
    system: SYSTEM,
    prompt: task,
    tools: aiSdkTools(recorded(ws, transcript)),
    stopWhen: stepCountIs(MAX_STEPS),
    maxRetries: 0, // a failing endpoint says so at once; the person retries
    ...(signal ? { abortSignal: signal } : {}),
    onStepFinish: (step) => {
      if (step.text) transcript.event('model', step.text);
    },
  });
  if (result.steps.length >= MAX_STEPS && result.finishReason === 'tool-calls') transcript.event('model', `Stopped after ${MAX_STEPS} steps.`);
}

/** A new tool session whose calls are recorded in the transcript (and refresh the page) as they run. */
function recorded(ws: Workspace, transcript: Transcript): Tools {
  const session = ws.session();
  // `options` as the adapter gives them (the SDK's abortSignal, which withdraws a question still open), passed on.
  const run = async (name: string, args?: unknown, options?: RunOptions): Promise<ToolResult> => {
    let result: ToolResult | undefined;
    const capture: Tools = { ...session, run: async (n, a) => (result = await session.run(n, a, options)) };
    const entry = await transcript.call(capture, 'model', name, (args ?? {}) as Record<string, unknown>);
    ws.changed();
    // No result only when the worker is gone: the transcript holds the error text.
    return result ?? { text: entry.result, isError: true, changed: [] };
  };
  return { definitions: session.definitions, run, call: async (name, args, options) => (await run(name, args, options)).text, preview: session.preview };
}
