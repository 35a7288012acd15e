/** aiSdkTools's shape and options, checked against the real `ai` package (its own tool(), jsonSchema() and mock model). */
import { asSchema, generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { toolResultsIn } from '../../test/ai/scenario.ts';
import { textResponse, toolCallsResponse } from '../../test/ai/mock-responses.ts';
import { createStateBackend, createTools, TOOL_NAMES, type ApprovalDecision, type ApprovalRequest, type ToolResult, type Tools } from '../index.ts';
import type { ToolTarget } from '../adapters/tool-target.ts';
import { type AiSdkToolsOptions, aiSdkTools } from './index.ts';

const options = { toolCallId: 't1', messages: [], context: {} };

describe('aiSdkTools', () => {
  it('makes one AI SDK tool per agentvfs tool, with its description and JSON Schema', async () => {
    const tools = createTools(createStateBackend());
    const set = aiSdkTools(tools);
    expect(Object.keys(set)).toEqual([...TOOL_NAMES]);
    for (const definition of tools.definitions) {
      const sdkTool = set[definition.name];
      expect(sdkTool.description).toBe(definition.description);
      expect(await asSchema(sdkTool.inputSchema).jsonSchema).toEqual(definition.parameters);
    }
  });

  it('include keeps only the tools named', () => {
    const set = aiSdkTools(createStateBackend(), { include: ['read_file', 'grep'] });
    expect(Object.keys(set).sort()).toEqual(['grep', 'read_file']);
  });

  it('refuses include with a name that is not a tool, naming the tools', () => {
    expect(() => aiSdkTools(createStateBackend(), { include: ['read_file', 'bash' as never] })).toThrow(
      'agentvfs/ai: include names unknown tools ("bash"); the tools are ls, read_file, write_file, edit_file, glob, grep.',
    );
    expect(() => aiSdkTools(createStateBackend(), { include: 'ls' as never })).toThrow(TypeError);
    expect(() => aiSdkTools(createStateBackend(), { descriptions: { readFile: 'x' } })).toThrow(
      'agentvfs/ai: descriptions names unknown tools ("readFile"); the tools are ls, read_file, write_file, edit_file, glob, grep.',
    );
  });

  it('refuses an option it does not know (a misspelt permissions would leave the tools unguarded), naming the one meant', () => {
    expect(() => aiSdkTools(createStateBackend(), { permission: { read: ['/src/**'] } } as never)).toThrow(
      'agentvfs/ai: aiSdkTools has no option "permission" (did you mean "permissions"?); its options are include, descriptions, needsApproval, permissions, approve, onEvent.',
    );
    expect(() => aiSdkTools(createStateBackend(), { needs_approval: true } as never)).toThrow(/"needs_approval" \(did you mean "needsApproval"\?\)/);
  });

  it('descriptions replace the text the model reads for those tools only', () => {
    const set = aiSdkTools(createStateBackend(), { descriptions: { grep: 'Search the project.' } });
    expect(set.grep.description).toBe('Search the project.');
    expect(set.glob.description).toBe(createTools(createStateBackend()).definitions.find((d) => d.name === 'glob')!.description);
  });

  it('refuses a target that is neither a backend nor a tool set, saying what it accepts', () => {
    expect(() => aiSdkTools({ files: {} } as never)).toThrow(
      /^agentvfs\/ai: expected a backend \(createStateBackend\(\), or connect\(worker\) from agentvfs\/client\) or a tool set from createTools\(\); got an object/,
    );
  });

  it('shares the session of a tool set it is given, and starts a new one for a backend', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'one\n' } });
    const tools = createTools(backend);
    await tools.call('read_file', { path: '/a.txt' });
    const edit = { path: '/a.txt', old_string: 'one', new_string: 'two' };

    const fresh = (await aiSdkTools(backend).edit_file.execute(edit, options)) as ToolResult;
    expect(fresh).toMatchObject({ isError: true, code: 'ENOTREAD', changed: [] });
    const shared = (await aiSdkTools(tools).edit_file.execute(edit, options)) as ToolResult;
    expect(shared).toMatchObject({ isError: false, changed: [{ path: '/a.txt' }] });
    expect(await backend.readText('/a.txt')).toBe('two\n');
  });

  it('approve and permissions guard the session made over a backend; a tool set must bring its own', async () => {
    const backend = createStateBackend();
    const asked: string[] = [];
    const set = aiSdkTools(backend, { approve: (r) => (asked.push(r.diff), { allow: false, reason: 'not now' }), permissions: { write: ['/ok/**'] } });
    const denied = (await set.write_file.execute({ path: '/ok/a.txt', content: 'a\n' }, options)) as ToolResult;
    expect(denied).toMatchObject({ isError: true, code: 'EDENIED' });
    expect(denied.text).toContain('"not now"');
    expect(asked).toEqual(['diff --git a/ok/a.txt b/ok/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/ok/a.txt\n@@ -0,0 +1,1 @@\n+a']);
    expect(((await set.write_file.execute({ path: '/b.txt', content: 'b' }, options)) as ToolResult).code).toBe('EACCES');
    expect(await backend.exists('/ok/a.txt')).toBe(false);
    expect(() => aiSdkTools(createTools(backend), { approve: () => ({ allow: true }) })).toThrow(/pass them to createTools/);
  });

  it('returns a bad argument as the tool’s own Error text, writing nothing', async () => {
    const backend = createStateBackend();
    const result = (await aiSdkTools(backend).write_file.execute({ path: '/x.txt', content: 42 }, options)) as ToolResult;
    expect(result.text).toBe(await createTools(createStateBackend()).call('write_file', { path: '/x.txt', content: 42 }));
    expect(result).toMatchObject({ isError: true, code: 'EINVAL' });
    expect(await backend.exists('/x.txt')).toBe(false);
  });
});

describe('aiSdkTools media parts', () => {
  // The core produces no parts yet (SPEC §9); a tool set whose read_file returns one stands in.
  const png = 'iVBORw0KGgo=';
  const withParts: Omit<Tools, 'preview'> = {
    definitions: createTools(createStateBackend()).definitions,
    call: async () => 'Image /logo.png: PNG, 8 bytes.',
    run: async () => ({ text: 'Image /logo.png: PNG, 8 bytes.', isError: false, changed: [], parts: [{ type: 'image', mediaType: 'image/png', data: png }] }),
  };

  it('reach the model as file parts after the tool’s text', async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [{ type: 'tool-call', toolCallId: 'img', toolName: 'read_file', input: '{"path":"/logo.png"}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
        { content: [{ type: 'text', text: 'A logo.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    await generateText({ model, tools: aiSdkTools(withParts), stopWhen: stepCountIs(3), prompt: 'Describe the logo.' });
    expect(toolResultsIn(model.doGenerateCalls[1]!.prompt).img).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'Image /logo.png: PNG, 8 bytes.' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: png } },
      ],
    });
  });
});

describe('aiSdkTools with the SDK’s own approval', () => {
  // ai 7 decides approval per call in generateText/streamText (`toolApproval`); the tools need nothing for it.
  it('a denied write never runs: nothing is written and the model is told', async () => {
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [{ type: 'tool-call', toolCallId: 'w', toolName: 'write_file', input: '{"path":"/x.txt","content":"x"}' }],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        },
        { content: [{ type: 'text', text: 'Not allowed.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
      ],
    });
    const backend = createStateBackend();
    await generateText({
      model,
      tools: aiSdkTools(backend),
      toolApproval: { write_file: { type: 'denied', reason: 'read-only session' } },
      stopWhen: stepCountIs(3),
      prompt: 'Write /x.txt.',
    });
    expect(await backend.exists('/x.txt')).toBe(false);
    expect(toolResultsIn(model.doGenerateCalls[1]!.prompt).w).toMatchObject({ type: 'execution-denied', reason: 'read-only session' });
  });

  it("toolApproval 'user-approval': tools.preview gives the diff of the call the SDK waits on, and the approved call writes exactly that", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallsResponse(['r', 'read_file', { path: '/a.txt' }]),
        toolCallsResponse(['e', 'edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }]),
        textResponse('Done.'),
      ],
    });
    const backend = createStateBackend({ files: { '/a.txt': 'one\ntwo\n' } });
    const tools = createTools(backend);
    const run = { model, tools: aiSdkTools(tools), toolApproval: { edit_file: 'user-approval' as const }, stopWhen: stepCountIs(4) };
    const first = await generateText({ ...run, prompt: 'Change two.' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'edit_file' } });
    // The edit counts the read the SDK ran a step before: the same session.
    const preview = await tools.preview(request!.toolCall.toolName, request!.toolCall.input);
    expect(preview.error).toBeUndefined();
    expect(preview.changes).toHaveLength(1);
    expect(preview.changes[0]!.diff).toContain('-two\n+TWO');
    expect(await backend.readText('/a.txt')).toBe('one\ntwo\n');
    await generateText({
      ...run,
      messages: [
        { role: 'user', content: 'Change two.' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
      ],
    });
    expect(await backend.readText('/a.txt')).toBe(preview.changes[0]!.content);
  });

  it('needsApproval: a write stops at a tool-approval-request and runs once approved; a read never asks', async () => {
    const calls = toolCallsResponse(['r', 'read_file', { path: '/a.txt' }], ['w', 'write_file', { path: '/x.txt', content: 'x' }]);
    const done = textResponse('Done.');
    const model = new MockLanguageModelV4({ doGenerate: [calls, done] });
    const backend = createStateBackend({ files: { '/a.txt': 'a\n' } });
    const asked: string[] = [];
    const tools = aiSdkTools(backend, { needsApproval: (name, input) => (asked.push(`${name} ${String(input.path)}`), true) });
    expect(tools.read_file.needsApproval).toBeUndefined();
    expect(aiSdkTools(backend, { needsApproval: true }).edit_file.needsApproval).toBe(true);
    const first = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'Read /a.txt, write /x.txt.' });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ toolCall: { toolName: 'write_file' } });
    expect(asked).toEqual(['write_file /x.txt']);
    expect(await backend.exists('/x.txt')).toBe(false); // not before the answer
    await generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      messages: [
        { role: 'user', content: 'Read /a.txt, write /x.txt.' },
        ...first.response.messages,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] },
      ],
    });
    expect(await backend.readText('/x.txt')).toBe('x');
  });

  it('needsApproval on a tool of several commands asks for the ones that write, never for view or a dryRun preview', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'a\n' } });
    const set = aiSdkTools(createTools(backend, { dialect: 'anthropic' }), { needsApproval: true });
    const ask = set.str_replace_based_edit_tool.needsApproval as (input: Record<string, unknown>, options: never) => Promise<boolean> | boolean;
    expect(await ask({ command: 'view', path: '/a.txt' }, {} as never)).toBe(false);
    expect(await ask({ command: 'str_replace', path: '/a.txt', old_str: 'a', new_str: 'b' }, {} as never)).toBe(true);
    // mcp-filesystem's edit_file previews with dryRun: true, which writes nothing.
    const mcp = aiSdkTools(createTools(backend, { dialect: 'mcp-filesystem' }), { needsApproval: true });
    const askEdit = mcp.edit_file.needsApproval as (input: Record<string, unknown>, options: never) => Promise<boolean> | boolean;
    const edits = [{ oldText: 'a', newText: 'b' }];
    expect(await askEdit({ path: '/a.txt', edits, dryRun: true }, {} as never)).toBe(false);
    expect(await askEdit({ path: '/a.txt', edits, dryRun: false }, {} as never)).toBe(true);
    expect(await askEdit({ path: '/a.txt', edits }, {} as never)).toBe(true);
    // Any target typed as the adapters' ToolTarget still compiles (keyed by string).
    const anyTarget = (target: ToolTarget, options?: AiSdkToolsOptions) => aiSdkTools(target, options);
    expect(Object.keys(anyTarget(backend, { include: ['ls'] }))).toEqual(['ls']);
    // Typed by the tool set's own names: the text editor and memory, not the six.
    const names: ('str_replace_based_edit_tool' | 'memory')[] = Object.keys(set) as (keyof typeof set)[];
    expect(names.sort()).toEqual(['memory', 'str_replace_based_edit_tool']);
  });
});

describe('aiSdkTools over an in-process backend, its tools loaded on the first call', () => {
  it('the SDK’s abortSignal withdraws a question still open: nothing is written, in generateText too', async () => {
    const backend = createStateBackend();
    const answers: Array<(decision: ApprovalDecision) => void> = [];
    const asked: ApprovalRequest[] = [];
    const tools = aiSdkTools(backend, { approve: (request) => (asked.push(request), new Promise((resolve) => answers.push(resolve))) });
    const controller = new AbortController();
    const output = tools.write_file.execute({ path: '/x.txt', content: 'x' }, { ...options, abortSignal: controller.signal });
    while (asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    expect(await output).toMatchObject({ isError: true, code: 'ECANCELED', changed: [] });
    expect(asked[0]!.signal?.aborted).toBe(true);
    answers[0]!({ allow: true });

    const model = new MockLanguageModelV4({ doGenerate: [toolCallsResponse(['w', 'write_file', { path: '/y.txt', content: 'y' }]), textResponse('Done.')] });
    const stopped = new AbortController();
    const run = generateText({ model, tools, abortSignal: stopped.signal, stopWhen: stepCountIs(3), prompt: 'Write /y.txt.' }).catch(() => {});
    while (asked.length === 1) await new Promise((resolve) => setTimeout(resolve, 0));
    stopped.abort();
    await run;
    answers[1]!({ allow: true });
    await tools.ls.execute({}, options);
    expect(await backend.exists('/x.txt')).toBe(false);
    expect(await backend.exists('/y.txt')).toBe(false);
  });

  it('a bad permissions list throws when the set is made; a glob the matcher cannot compile rejects each call (a setup error, docs/approval.md)', async () => {
    const backend = createStateBackend({ files: { '/a/x': 'x' } });
    expect(() => aiSdkTools(backend, { permissions: { read: ['src/**'] } })).toThrow(/permissions\.read must be an array of globs of absolute paths/);
    const set = aiSdkTools(backend, { permissions: { read: ['/a/!(b)/*/*/*'] } });
    await expect(set.read_file.execute({ path: '/a/x' }, options)).rejects.toMatchObject({
      code: 'EINVAL',
      message: expect.stringMatching(/^Invalid glob pattern/),
    });
    // The same options over a backend whose tools are made here at once: thrown by createTools.
    expect(() => createTools(backend, { permissions: { read: ['/a/!(b)/*/*/*'] } })).toThrow(/^Invalid glob pattern/);
  });
});
