// formatDefinitions with the real `openai` SDK against a local server replaying the API's wire
// format: a Chat Completions loop ('openai-chat'), and a Responses loop in strict mode whose
// recorded calls carry null for every optional parameter, as strict mode makes the model send.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateBackend, createTools, formatDefinitions, type StateBackend } from '../src/index.ts';
import { startReplay, type Replay } from './readme-replay.ts';

const TOOL_NAMES = ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'];
const FILES = { '/src/app.ts': 'export const greeting = "hello";\n' };
const EDIT = { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' };
const DONE = 'Done: /src/app.ts now greets with "hi".';
const TASK = 'In /src/app.ts, make the greeting "hi".';

describe('Chat Completions loop (openai-chat)', () => {
  // Recorded in the shape POST /v1/chat/completions returns.
  const toolCall = (id: string, name: string, args: object) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const completion = (id: string, message: object, finish_reason: string) => ({
    id,
    object: 'chat.completion',
    created: 1_764_000_000,
    model: 'gpt-5',
    choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, ...message }, finish_reason, logprobs: null }],
    usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
  });
  const script = [
    completion('chatcmpl_1', { tool_calls: [toolCall('call_ls', 'ls', {}), toolCall('call_read', 'read_file', { path: '/src/app.ts' })] }, 'tool_calls'),
    completion('chatcmpl_2', { tool_calls: [toolCall('call_edit', 'edit_file', EDIT)] }, 'tool_calls'),
    completion('chatcmpl_3', { content: DONE }, 'stop'),
  ];

  let server: Replay;
  let backend: StateBackend;
  let answer: string | null = null;
  beforeAll(async () => {
    server = await startReplay((request, index) => {
      if (request.method !== 'POST' || request.path !== '/v1/chat/completions') throw new Error(`unexpected ${request.method} ${request.path}`);
      if (request.headers.authorization !== 'Bearer test-key') throw new Error('Incorrect API key provided.');
      if (index >= script.length) throw new Error('the script has no more responses');
      const messages = request.body.messages as any[];
      // Every assistant message with tool_calls is followed by one tool message per call, and every
      // tool message answers a call of the assistant message before it (the API's own rules).
      for (const [i, m] of messages.entries()) {
        if (m.role === 'tool') {
          const asker = messages.slice(0, i).findLast((prev) => prev.role !== 'tool');
          if (!asker?.tool_calls?.some((c: any) => c.id === m.tool_call_id)) {
            throw new Error("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
          }
        }
        if (m.role !== 'assistant' || !m.tool_calls) continue;
        const answered = messages
          .slice(i + 1)
          .filter((_, k, rest) => rest.slice(0, k + 1).every((r) => r.role === 'tool'))
          .map((r) => r.tool_call_id);
        const missing = m.tool_calls.map((c: any) => c.id).filter((id: string) => !answered.includes(id));
        if (missing.length > 0) {
          throw new Error(
            `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
          );
        }
      }
      return script[index];
    });

    backend = createStateBackend({ files: FILES });
    const tools = createTools(backend);
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const chatTools = formatDefinitions(tools.definitions, 'openai-chat');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: TASK }];
    for (let turn = 0; turn < 10; turn++) {
      const { message } = (await openai.chat.completions.create({ model: 'gpt-5', messages, tools: chatTools })).choices[0]!;
      messages.push(message);
      const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
      if (calls.length === 0) {
        answer = message.content;
        break;
      }
      for (const call of calls) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: await tools.call(call.function.name, JSON.parse(call.function.arguments)) });
      }
    }
  });
  afterAll(() => server.close());

  it('runs to the end: three requests, none refused, the final text returned', () => {
    expect(server.refusals).toEqual([]);
    expect(server.received).toHaveLength(3);
    expect(answer).toBe(DONE);
  });

  it('offers the six tools as function tools with their JSON Schema', () => {
    const tools = server.received[0]!.body.tools as any[];
    expect(tools.map((t) => t.function.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t).toMatchObject({ type: 'function', function: { description: expect.any(String), parameters: { type: 'object', additionalProperties: false } } });
      expect(t.function).not.toHaveProperty('strict');
    }
  });

  it('answers each call with a tool message under its tool_call_id', () => {
    const answers = (n: number) =>
      Object.fromEntries((server.received[n]!.body.messages as any[]).filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]));
    expect(Object.keys(answers(1)).sort()).toEqual(['call_ls', 'call_read']);
    expect(JSON.parse(answers(1).call_ls)).toEqual([{ name: 'src', path: '/src', is_dir: true, size: 0 }]);
    expect(answers(1).call_read).toContain('     1\texport const greeting = "hello";');
    expect(answers(2).call_edit).toMatch(/^Edited \/src\/app\.ts: 1 replacement\./);
  });

  it('leaves the edited file in the backend', async () => {
    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
  });
});

describe('Responses loop in strict mode (openai-responses, { strict: true })', () => {
  // Recorded as strict mode makes the model write them: every parameter present, null when unused.
  const functionCall = (n: number, call_id: string, name: string, args: object) => ({
    type: 'function_call',
    id: `fc_${n}`,
    call_id,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  });
  const response = (id: string, output: object[]) => ({
    id,
    object: 'response',
    created_at: 1_764_000_000,
    status: 'completed',
    model: 'gpt-5',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 900, output_tokens: 40, total_tokens: 940 },
  });
  const grepArgs = {
    pattern: 'greeting',
    path: null,
    glob: null,
    output_mode: 'content',
    ignore_case: null,
    fixed_strings: null,
    context: null,
    head_limit: null,
    respect_git_ignore: null,
  };
  const script = [
    response('resp_1', [
      functionCall(1, 'call_grep', 'grep', grepArgs),
      functionCall(2, 'call_read', 'read_file', { path: '/src/app.ts', offset: null, limit: null, part: null }),
      functionCall(3, 'call_ls', 'ls', { path: null, respect_git_ignore: null }),
    ]),
    response('resp_2', [functionCall(4, 'call_edit', 'edit_file', { ...EDIT, replace_all: null })]),
    response('resp_3', [functionCall(5, 'call_glob', 'glob', { pattern: '**/*.ts', path: null, respect_git_ignore: null })]),
    response('resp_4', [
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: DONE, annotations: [] }] },
    ]),
  ];

  /** OpenAI's checks of a strict function schema, with its error messages. */
  function checkStrict(tool: any): void {
    const where = `Invalid schema for function '${tool.name}'`;
    if (tool.strict !== true) throw new Error(`${where}: expected strict: true`);
    const { parameters } = tool;
    if (parameters.additionalProperties !== false)
      throw new Error(`${where}: In context=(), 'additionalProperties' is required to be supplied and to be false.`);
    const missing = Object.keys(parameters.properties).filter((key) => !parameters.required.includes(key));
    if (missing.length > 0) {
      throw new Error(
        `${where}: In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`,
      );
    }
    for (const [key, prop] of Object.entries(parameters.properties as Record<string, object>)) {
      if ('default' in prop) throw new Error(`${where}: In context=('properties', '${key}'), 'default' is not permitted.`);
    }
  }

  let server: Replay;
  let backend: StateBackend;
  let sentTools: any[] = [];
  beforeAll(async () => {
    server = await startReplay((request, index) => {
      const { body } = request;
      if (request.method !== 'POST' || request.path !== '/v1/responses') throw new Error(`unexpected ${request.method} ${request.path}`);
      if (index >= script.length) throw new Error('the script has no more responses');
      for (const tool of body.tools) checkStrict(tool);
      sentTools = body.tools;
      // The recording is what constrained decoding could produce: every property of the schema present.
      for (const item of script[index]!.output as any[]) {
        if (item.type !== 'function_call') continue;
        const schema = body.tools.find((t: any) => t.name === item.name).parameters;
        expect(Object.keys(JSON.parse(item.arguments)).sort(), `the recorded ${item.name} call`).toEqual(Object.keys(schema.properties).sort());
      }
      if (index > 0) {
        const previous = script[index - 1]!;
        if (body.previous_response_id !== previous.id) throw new Error(`Previous response with id '${body.previous_response_id}' not found.`);
        const calls = previous.output.filter((item: any) => item.type === 'function_call').map((item: any) => item.call_id);
        const outputs = (body.input as any[]).map((item) => item.call_id);
        if (calls.some((id: string) => !outputs.includes(id)))
          throw new Error(`No tool output found for function call ${calls.find((id: string) => !outputs.includes(id))}.`);
      }
      return script[index];
    });

    backend = createStateBackend({ files: FILES });
    const tools = createTools(backend);
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    const functionTools = formatDefinitions(tools.definitions, 'openai-responses', { strict: true });
    let response = await openai.responses.create({ model: 'gpt-5', tools: functionTools, input: TASK });
    for (let turn = 0; turn < 10; turn++) {
      const calls = response.output.filter((item) => item.type === 'function_call');
      if (calls.length === 0) break;
      const results: OpenAI.Responses.ResponseInputItem[] = [];
      for (const call of calls)
        results.push({ type: 'function_call_output', call_id: call.call_id, output: await tools.call(call.name, JSON.parse(call.arguments)) });
      response = await openai.responses.create({ model: 'gpt-5', tools: functionTools, previous_response_id: response.id, input: results });
    }
  });
  afterAll(() => server.close());

  it('runs to the end: four requests, none refused (the strict schemas pass the API checks)', () => {
    expect(server.refusals).toEqual([]);
    expect(server.received).toHaveLength(4);
    expect(sentTools.map((t) => t.name)).toEqual(TOOL_NAMES);
  });

  it('runs every call with its null optionals as if they were left out', () => {
    const outputs = (n: number) => Object.fromEntries((server.received[n]!.body.input as any[]).map((item) => [item.call_id, item.output as string]));
    const first = outputs(1);
    expect(first.call_grep).toBe('/src/app.ts:1:export const greeting = "hello";');
    expect(first.call_read).toBe('     1\texport const greeting = "hello";');
    expect(JSON.parse(first.call_ls)).toEqual([{ name: 'src', path: '/src', is_dir: true, size: 0 }]);
    expect(outputs(2).call_edit).toMatch(/^Edited \/src\/app\.ts: 1 replacement\./);
    expect(outputs(3).call_glob).toBe('/src/app.ts');
  });

  it('leaves the edited file in the backend', async () => {
    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
  });
});
