// Optional: drive a real model through the same six tools, with any OpenAI-compatible
// Chat Completions endpoint (OpenAI, OpenRouter, a local llama.cpp / Ollama / vLLM server…).
// The browser calls the endpoint directly, so it must allow CORS from this page.
import type { Transcript } from '../transcript.ts';
import type { Workspace } from '../workspace.ts';

export interface ModelSettings {
  baseUrl: string;
  model: string;
  apiKey: string;
}

const SYSTEM =
  'You are a coding agent working in a virtual filesystem through six tools (ls, read_file, write_file, edit_file, glob, grep). ' +
  'There is no shell. Read a file before editing it. Make the smallest correct change, then say briefly what you did.';
const MAX_TURNS = 25;

interface ToolCall {
  id: string;
  function: { name: string; arguments: string };
}
interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export async function runModelAgent(ws: Workspace, transcript: Transcript, settings: ModelSettings, task: string, signal?: AbortSignal): Promise<void> {
  const tools = ws.session();
  const toolSpecs = tools.definitions.map((d) => ({ type: 'function', function: { name: d.name, description: d.description, parameters: d.parameters } }));
  const messages: Message[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: task },
  ];
  transcript.event('model', `Task for ${settings.model}: ${task}`);
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const response = await fetch(`${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify({ model: settings.model, messages, tools: toolSpecs }),
      signal,
    });
    if (!response.ok) throw new Error(`The endpoint answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    const data = (await response.json()) as { choices?: Array<{ message: Message }> };
    const message = data.choices?.[0]?.message;
    if (!message) throw new Error('The endpoint returned no message.');
    messages.push(message);
    if (message.content) transcript.event('model', message.content);
    if (!message.tool_calls?.length) return;
    for (const call of message.tool_calls) {
      let args: Record<string, unknown>;
      let result: string;
      try {
        args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
        const entry = await transcript.call(tools, 'model', call.function.name, args);
        result = entry.result;
        ws.changed();
      } catch {
        result = `Error: the arguments of ${call.function.name} are not valid JSON: ${call.function.arguments.slice(0, 200)}`;
        transcript.event('model', result);
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  transcript.event('model', `Stopped after ${MAX_TURNS} turns.`);
}
