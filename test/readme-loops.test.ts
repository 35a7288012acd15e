// The README's OpenAI, Anthropic and Gemini loops, exactly as printed: they must typecheck against
// the real SDK types and, run with Node against a local server that replays each API's wire format,
// carry out a scripted session of several tool calls (ls and read_file at once, then edit_file)
// that changes the file, sending every result back under the id of the call it answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplay, type Received, type Replay } from './readme-replay.ts';
import { runSnippet, scratchDir, snippetUnder, typecheck } from './readme-snippets.ts';

const TOOL_NAMES = ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'];
const EDIT = { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' };
const DONE = 'Done: /src/app.ts now greets with "hi".';
// Appended to each snippet: what the loop left in the backend.
const PRINT_FILE = `\nconsole.log('FILE ' + JSON.stringify(await backend.readText('/src/app.ts')));\n`;

const scratch = scratchDir('loops');
const openaiLoop = snippetUnder('With OpenAI');
const anthropicLoop = snippetUnder('With Anthropic');
const geminiLoop = snippetUnder('With Gemini');
afterAll(() => scratch.remove());

it('the loops typecheck with strict TypeScript against the shipped types and the SDKs', () => {
  typecheck(scratch.dir, { openai: openaiLoop, anthropic: anthropicLoop, gemini: geminiLoop });
});

/** The same set of ids, whatever the order; throws the vendor's complaint otherwise. */
function sameIds(asked: string[], answered: string[], missing: (id: string) => string, unexpected: (id: string) => string): void {
  for (const id of asked) if (!answered.includes(id)) throw new Error(missing(id));
  for (const id of answered) if (!asked.includes(id)) throw new Error(unexpected(id));
}

describe('OpenAI Responses API loop', () => {
  // Recorded in the shape POST /v1/responses returns; ids are what the test checks against.
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
  const script = [
    response('resp_1', [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      functionCall(1, 'call_ls', 'ls', {}),
      functionCall(2, 'call_read', 'read_file', { path: '/src/app.ts' }),
    ]),
    response('resp_2', [functionCall(3, 'call_edit', 'edit_file', EDIT)]),
    response('resp_3', [
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: DONE, annotations: [] }] },
    ]),
  ];

  let server: Replay;
  let stdout: string;
  beforeAll(async () => {
    server = await startReplay((request, index) => {
      const { body } = request;
      if (request.method !== 'POST' || request.path !== '/v1/responses') throw new Error(`unexpected ${request.method} ${request.path}`);
      if (request.headers.authorization !== 'Bearer test-key') throw new Error('Incorrect API key provided.');
      if (index >= script.length) throw new Error('the script has no more responses');
      if (index > 0) {
        // The API keeps the conversation (store) and needs an output for every call of the response it continues.
        const previous = script[index - 1]!;
        if (body.previous_response_id !== previous.id) throw new Error(`Previous response with id '${body.previous_response_id}' not found.`);
        const calls = previous.output.filter((item: any) => item.type === 'function_call').map((item: any) => item.call_id as string);
        const outputs = (body.input as any[]).filter((item) => item.type === 'function_call_output');
        if (outputs.some((item) => typeof item.output !== 'string')) throw new Error('function_call_output.output must be a string here');
        sameIds(
          calls,
          outputs.map((item) => item.call_id),
          (id) => `No tool output found for function call ${id}.`,
          (id) => `No tool call found for function call output with call_id ${id}.`,
        );
      }
      return script[index];
    });
    stdout = await runSnippet(scratch.dir, 'openai', openaiLoop + PRINT_FILE, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: `${server.url}/v1` });
  });
  afterAll(() => server.close());

  it('runs to the end: three requests, none refused, the final text printed', () => {
    expect(server.refusals).toEqual([]);
    expect(server.received).toHaveLength(3);
    expect(stdout).toContain(DONE);
  });

  it('offers the six tools as Responses API function tools', () => {
    const tools = server.received[0]!.body.tools as any[];
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool).toMatchObject({ type: 'function', strict: false, parameters: { type: 'object' } });
      expect(tool.description).toEqual(expect.any(String));
    }
  });

  it('sends each result back under the call_id it answers', () => {
    const outputs = (r: Received) => Object.fromEntries((r.body.input as any[]).map((item) => [item.call_id, item.output]));
    const second = outputs(server.received[1]!);
    expect(Object.keys(second).sort()).toEqual(['call_ls', 'call_read']);
    expect(JSON.parse(second.call_ls)).toEqual([{ name: 'src', path: '/src', is_dir: true, size: 0 }]);
    expect(second.call_read).toContain('     1\texport const greeting = "hello";');
    expect(outputs(server.received[2]!).call_edit).toMatch(/^Edited \/src\/app\.ts: 1 replacement\./);
  });

  it('leaves the edited file in the backend', () => {
    expect(stdout).toContain(`FILE ${JSON.stringify('export const greeting = "hi";\n')}`);
  });
});

describe('Anthropic Messages API loop', () => {
  // Recorded in the shape POST /v1/messages returns.
  const message = (id: string, content: object[], stop_reason: string) => ({
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-5-5',
    content,
    stop_reason,
    stop_sequence: null,
    usage: { input_tokens: 900, output_tokens: 40 },
  });
  const toolUse = (id: string, name: string, input: object) => ({ type: 'tool_use', id, name, input });
  const script = [
    message(
      'msg_1',
      [
        { type: 'text', text: 'Let me look at the project first.' },
        toolUse('toolu_ls', 'ls', {}),
        toolUse('toolu_read', 'read_file', { path: '/src/app.ts' }),
        toolUse('toolu_missing', 'read_file', { path: '/src/missing.ts' }),
      ],
      'tool_use',
    ),
    message('msg_2', [toolUse('toolu_edit', 'edit_file', EDIT)], 'tool_use'),
    message('msg_3', [{ type: 'text', text: DONE }], 'end_turn'),
  ];

  let server: Replay;
  let stdout: string;
  beforeAll(async () => {
    server = await startReplay((request, index) => {
      const { body } = request;
      if (request.method !== 'POST' || request.path !== '/v1/messages') throw new Error(`unexpected ${request.method} ${request.path}`);
      // The key from ANTHROPIC_API_KEY (SDK 1.x sends it as a bearer token; older ones as x-api-key).
      if (request.headers['x-api-key'] !== 'test-key' && request.headers.authorization !== 'Bearer test-key') throw new Error('invalid x-api-key');
      if (typeof body.max_tokens !== 'number') throw new Error('max_tokens: Field required');
      if (index >= script.length) throw new Error('the script has no more responses');
      const messages = body.messages as any[];
      // The whole conversation comes back each time: user first, then alternating, with each
      // assistant turn as it was sent and every tool_use answered in the very next user turn.
      if (messages.length !== 2 * index + 1) throw new Error(`expected ${2 * index + 1} messages, got ${messages.length}`);
      messages.forEach((m, i) => {
        if (m.role !== (i % 2 === 0 ? 'user' : 'assistant')) throw new Error(`messages.${i}: roles must alternate, starting with user`);
      });
      for (let turn = 0; turn < index; turn++) {
        const sent = script[turn]!.content as any[];
        expect(messages[2 * turn + 1].content, `messages.${2 * turn + 1} is the assistant turn as sent`).toEqual(sent);
        const asked = sent.filter((block) => block.type === 'tool_use').map((block) => block.id as string);
        const answered = (messages[2 * turn + 2].content as any[]).filter((block) => block.type === 'tool_result');
        sameIds(
          asked,
          answered.map((block) => block.tool_use_id),
          (id) =>
            `messages.${2 * turn + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${id}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          (id) =>
            `messages.${2 * turn + 2}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
      return script[index];
    });
    stdout = await runSnippet(scratch.dir, 'anthropic', anthropicLoop + PRINT_FILE, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: server.url });
  });
  afterAll(() => server.close());

  it('runs to the end: three requests, none refused, the final text printed', () => {
    expect(server.refusals).toEqual([]);
    expect(server.received).toHaveLength(3);
    expect(stdout).toContain(DONE);
  });

  it('offers the six tools with their JSON Schema as input_schema', () => {
    const tools = server.received[0]!.body.tools as any[];
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.input_schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description).toEqual(expect.any(String));
    }
  });

  it('answers each tool_use with a tool_result carrying its tool_use_id, a failure flagged is_error', () => {
    const blocks = (r: Received) => r.body.messages.at(-1).content as any[];
    const flags = [...blocks(server.received[1]!), ...blocks(server.received[2]!)].map((block) => [block.tool_use_id, block.is_error]);
    expect(flags).toEqual([
      ['toolu_ls', false],
      ['toolu_read', false],
      ['toolu_missing', true],
      ['toolu_edit', false],
    ]);
    const results = (r: Received) => Object.fromEntries(blocks(r).map((block) => [block.tool_use_id, block.content]));
    const second = results(server.received[1]!);
    expect(Object.keys(second).sort()).toEqual(['toolu_ls', 'toolu_missing', 'toolu_read']);
    expect(second.toolu_missing).toMatch(/^Error: ENOENT/);
    expect(JSON.parse(second.toolu_ls)).toEqual([{ name: 'src', path: '/src', is_dir: true, size: 0 }]);
    expect(second.toolu_read).toContain('     1\texport const greeting = "hello";');
    expect(results(server.received[2]!).toolu_edit).toMatch(/^Edited \/src\/app\.ts: 1 replacement\./);
  });

  it('leaves the edited file in the backend', () => {
    expect(stdout).toContain(`FILE ${JSON.stringify('export const greeting = "hi";\n')}`);
  });
});

describe('Gemini generateContent loop', () => {
  const MODEL_PATH = '/v1/models/gemini-2.5-flash:generateContent'; // the SDK's default API version
  // Recorded in the shape POST /v1/models/{model}:generateContent returns. Gemini 3 models
  // sign their function calls: the signature must come back on the same part, as sent.
  const call = (id: string, name: string, args: object, thoughtSignature?: string) => ({
    functionCall: { id, name, args },
    ...(thoughtSignature ? { thoughtSignature } : {}),
  });
  const reply = (responseId: string, parts: object[]) => ({
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 40, totalTokenCount: 940 },
    modelVersion: 'gemini-2.5-flash',
    responseId,
  });
  const script = [
    reply('r1', [
      call('fc_ls', 'ls', {}, 'c2lnbmF0dXJlLTE='),
      call('fc_read', 'read_file', { path: '/src/app.ts' }),
      call('fc_missing', 'read_file', { path: '/src/missing.ts' }),
    ]),
    reply('r2', [call('fc_edit', 'edit_file', EDIT, 'c2lnbmF0dXJlLTI=')]),
    reply('r3', [{ text: DONE }]),
  ];

  let server: Replay;
  let stdout: string;
  beforeAll(async () => {
    server = await startReplay((request, index) => {
      const { body } = request;
      if (request.method !== 'POST' || request.path !== MODEL_PATH) throw new Error(`unexpected ${request.method} ${request.path}`);
      if (request.headers['x-goog-api-key'] !== 'test-key') throw new Error('API key not valid. Please pass a valid API key.');
      if (index >= script.length) throw new Error('the script has no more responses');
      const contents = body.contents as any[];
      // The whole conversation each time: user first, then alternating with the model's turns as sent.
      if (contents.length !== 2 * index + 1) throw new Error(`expected ${2 * index + 1} contents, got ${contents.length}`);
      contents.forEach((c, i) => {
        if (c.role !== (i % 2 === 0 ? 'user' : 'model')) throw new Error(`contents.${i}: roles must alternate, starting with user`);
      });
      for (let turn = 0; turn < index; turn++) {
        const sent = script[turn]!.candidates[0]!.content;
        expect(contents[2 * turn + 1], `contents.${2 * turn + 1} is the model turn as sent, signatures included`).toEqual(sent);
        const calls = sent.parts.filter((part: any) => part.functionCall).map((part: any) => part.functionCall);
        const responses = (contents[2 * turn + 2].parts as any[]).filter((part) => part.functionResponse).map((part) => part.functionResponse);
        if (responses.length !== calls.length) {
          throw new Error('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
        }
        for (const r of responses) {
          if (!calls.some((c: any) => c.id === r.id && c.name === r.name)) throw new Error(`function response ${r.id} (${r.name}) answers no function call`);
        }
      }
      return script[index];
    });
    stdout = await runSnippet(scratch.dir, 'gemini', geminiLoop + PRINT_FILE, { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.url });
  });
  afterAll(() => server.close());

  it('runs to the end: three requests, none refused, the final text printed', () => {
    expect(server.refusals).toEqual([]);
    expect(server.received).toHaveLength(3);
    expect(stdout).toContain(DONE);
  });

  it("offers the six tools as one tool of function declarations in Gemini's schema", () => {
    const tools = server.received[0]!.body.tools as any[];
    expect(tools).toHaveLength(1);
    expect(tools[0].functionDeclarations.map((f: any) => f.name)).toEqual(TOOL_NAMES);
    for (const f of tools[0].functionDeclarations) {
      expect(f.parameters).toMatchObject({ type: 'OBJECT', properties: expect.any(Object) });
      expect(f.parameters).not.toHaveProperty('additionalProperties');
    }
  });

  it('answers each function call under its id and name: output for a result, error for a failure', () => {
    const answers = (r: Received) => Object.fromEntries((r.body.contents.at(-1).parts as any[]).map(({ functionResponse: f }) => [f.id, f]));
    const second = answers(server.received[1]!);
    expect(Object.keys(second).sort()).toEqual(['fc_ls', 'fc_missing', 'fc_read']);
    expect(JSON.parse(second.fc_ls.response.output)).toEqual([{ name: 'src', path: '/src', is_dir: true, size: 0 }]);
    expect(second.fc_read).toMatchObject({ name: 'read_file', response: { output: expect.stringContaining('     1\texport const greeting = "hello";') } });
    expect(second.fc_missing).toEqual({ id: 'fc_missing', name: 'read_file', response: { error: expect.stringMatching(/^Error: ENOENT/) } });
    expect(answers(server.received[2]!).fc_edit.response.output).toMatch(/^Edited \/src\/app\.ts: 1 replacement\./);
  });

  it('leaves the edited file in the backend', () => {
    expect(stdout).toContain(`FILE ${JSON.stringify('export const greeting = "hi";\n')}`);
  });
});
