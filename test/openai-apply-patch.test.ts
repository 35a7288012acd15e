// The 'openai' dialect with the real `openai` SDK against a local server replaying the Responses
// API's wire format for its built-in apply_patch tool: the tool is offered by the type its
// definition carries, each apply_patch_call item goes to tools.run as it is, and each result goes
// back as an apply_patch_call_output (status 'failed' for an error, which the model reads).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateBackend, createTools, formatDefinitions, type StateBackend } from '../src/index.ts';
import { startReplay, type Replay } from './readme-replay.ts';

const FILES = {
  '/src/shapes.py': 'class Square:\n    def area(self):\n        return 0\n\nclass Circle:\n    def area(self):\n        return 0\n',
  '/old.txt': 'gone soon\n',
};

describe('Responses loop with the built-in apply_patch tool', () => {
  const call = (n: number, operation: object) => ({ type: 'apply_patch_call', id: `apc_${n}`, call_id: `call_${n}`, status: 'completed', operation });
  const response = (id: string, output: object[]) => ({
    id,
    object: 'response',
    created_at: 1_764_000_000,
    status: 'completed',
    model: 'gpt-5',
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [{ type: 'apply_patch' }],
    usage: { input_tokens: 900, output_tokens: 40, total_tokens: 940 },
  });
  const script = [
    response('resp_1', [
      call(1, {
        type: 'update_file',
        path: 'src/shapes.py',
        diff: '@@ class Circle:\n@@     def area(self):\n-        return 0\n+        return 3.14159 * self.r ** 2',
      }),
      call(2, { type: 'create_file', path: 'src/__init__.py', diff: '+from .shapes import Circle, Square\n+' }),
      call(3, { type: 'delete_file', path: 'old.txt' }),
    ]),
    response('resp_2', [call(4, { type: 'update_file', path: 'src/shapes.py', diff: '@@\n-        return 1\n+        return self.side ** 2' })]),
    response('resp_3', [
      call(5, {
        type: 'update_file',
        path: 'src/shapes.py',
        diff: '@@ class Square:\n@@     def area(self):\n-        return 0\n+        return self.side ** 2',
      }),
    ]),
    response('resp_4', [
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] },
    ]),
  ];

  let server: Replay;
  let backend: StateBackend;
  let offered: unknown;
  beforeAll(async () => {
    server = await startReplay((request, index) => {
      const { body } = request;
      if (request.method !== 'POST' || request.path !== '/v1/responses') throw new Error(`unexpected ${request.method} ${request.path}`);
      if (index >= script.length) throw new Error('the script has no more responses');
      offered = body.tools;
      if (index > 0) {
        const previous = script[index - 1]!;
        if (body.previous_response_id !== previous.id) throw new Error(`Previous response with id '${body.previous_response_id}' not found.`);
        for (const item of previous.output as any[]) {
          const answer = (body.input as any[]).find((i) => i.call_id === item.call_id);
          if (answer?.type !== 'apply_patch_call_output') throw new Error(`No tool output found for apply patch call ${item.call_id}.`);
          if (!['completed', 'failed'].includes(answer.status)) throw new Error(`Invalid value for 'status': ${answer.status}.`);
        }
      }
      return script[index];
    });

    backend = createStateBackend({ files: FILES });
    const tools = createTools(backend, { dialect: 'openai' });
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/v1` });
    // The built-in tool: formatDefinitions sends a definition of type 'apply_patch' as { type: 'apply_patch' }.
    const builtIn = formatDefinitions(tools.definitions, 'openai-responses');
    let reply = await openai.responses.create({ model: 'gpt-5', tools: builtIn, input: 'Implement Circle.area and Square.area.' });
    for (let turn = 0; turn < 10; turn++) {
      const calls = reply.output.filter((item) => item.type === 'apply_patch_call');
      if (calls.length === 0) break;
      const results: OpenAI.Responses.ResponseInputItem[] = [];
      for (const item of calls) {
        const result = await tools.run('apply_patch', item);
        results.push({ type: 'apply_patch_call_output', call_id: item.call_id, status: result.isError ? 'failed' : 'completed', output: result.text });
      }
      reply = await openai.responses.create({ model: 'gpt-5', tools: builtIn, previous_response_id: reply.id, input: results });
    }
  });
  afterAll(() => server.close());

  it('runs to the end: four requests, none refused, the tool offered as { type: "apply_patch" }', () => {
    expect(server.refusals).toEqual([]);
    expect(server.received).toHaveLength(4);
    expect(offered).toEqual([{ type: 'apply_patch' }]);
  });

  it('answers each call with its outcome: Codex summaries, and a failure the model can act on', () => {
    const outputs = (n: number) => Object.fromEntries((server.received[n]!.body.input as any[]).map((item) => [item.call_id, [item.status, item.output]]));
    expect(outputs(1)).toEqual({
      call_1: ['completed', 'Success. Updated the following files:\nM /src/shapes.py'],
      call_2: ['completed', 'Success. Updated the following files:\nA /src/__init__.py'],
      call_3: ['completed', 'Success. Updated the following files:\nD /old.txt'],
    });
    const [status, text] = outputs(2).call_4 as [string, string];
    expect(status).toBe('failed');
    expect(text).toMatch(
      /^Error: ENOMATCH: Failed to find expected lines in \/src\/shapes\.py \(chunk 1 of 1, at line 1 of the diff\):\n {8}return 1\nClosest lines in \/src\/shapes\.py:\n/,
    );
    expect(outputs(3).call_5).toEqual(['completed', 'Success. Updated the following files:\nM /src/shapes.py']);
  });

  it('leaves the files as the calls that applied made them', async () => {
    expect(await backend.readText('/src/shapes.py')).toBe(
      'class Square:\n    def area(self):\n        return self.side ** 2\n\nclass Circle:\n    def area(self):\n        return 3.14159 * self.r ** 2\n',
    );
    expect(await backend.readText('/src/__init__.py')).toBe('from .shapes import Circle, Square\n');
    expect(await backend.exists('/old.txt')).toBe(false);
  });
});
