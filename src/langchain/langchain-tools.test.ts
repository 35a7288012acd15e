/**
 * langchainTools against the real @langchain/core (and langchain's createAgent): each tool answers
 * with exactly the text tools.call gives, a failure is that text on a ToolMessage with
 * status 'error' (never a throw), and the model is offered the definitions' JSON Schemas.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, humanInTheLoopMiddleware, type HITLRequest, type Interrupt } from 'langchain';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { closeAll, inWorkerThread } from '../../test/worker/factories.ts';
import type { Backend } from '../backend/types.ts';
import { createStateBackend, createTools, TOOL_NAMES } from '../index.ts';
import type { Tools } from '../tools/types.ts';
import type { ApprovalDecision, ApprovalRequest } from '../guard/types.ts';
import { langchainTools } from './index.ts';

afterEach(closeAll);

const START = { '/src/app.ts': 'export const greeting = "hello";\n' };
const call = (name: string, args: object, id: string) => ({ name, args, id, type: 'tool_call' as const });

/** The text the same call gets from tools.call on a fresh copy of the start state. */
async function reference(name: string, args: object): Promise<string> {
  return createTools(createStateBackend({ files: START })).call(name, args);
}

describe('langchainTools', () => {
  it('offers the six tools with the definitions’ names, descriptions and JSON Schemas', () => {
    const tools = langchainTools(createStateBackend());
    const definitions = createTools(createStateBackend()).definitions;
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const [i, t] of tools.entries()) {
      expect(convertToOpenAITool(t)).toEqual({ type: 'function', function: definitions[i] });
    }
  });

  it('answers a tool call with a ToolMessage holding tools.call’s text, status success, and the ToolResult as its artifact', async () => {
    const [, readFile, writeFile] = langchainTools(createStateBackend({ files: START }));
    const message = await readFile!.invoke(call('read_file', { path: '/src/app.ts' }, 'c1'));
    expect(message).toBeInstanceOf(ToolMessage);
    const text = await reference('read_file', { path: '/src/app.ts' });
    expect(message).toMatchObject({ tool_call_id: 'c1', name: 'read_file', status: 'success', content: text });
    expect(message.artifact).toEqual({ text, isError: false, changed: [] });
    const written = (await writeFile!.invoke(call('write_file', { path: '/new.md', content: 'x' }, 'c7'))) as ToolMessage;
    expect(written.artifact).toMatchObject({ isError: false, changed: [{ path: '/new.md', version: expect.any(Number) }] });
  });

  it('answers a failure with tools.call’s Error: text, flagged status error, never thrown', async () => {
    const [, readFile] = langchainTools(createStateBackend({ files: START }));
    const args = { path: '/src/missing.ts' };
    const message = (await readFile!.invoke(call('read_file', args, 'c2'))) as ToolMessage;
    expect(message).toMatchObject({ tool_call_id: 'c2', status: 'error', content: await reference('read_file', args) });
    expect(message.content).toMatch(/^Error: /);
    expect(message.artifact).toMatchObject({ isError: true, code: 'ENOENT', changed: [] });
  });

  it('called with plain arguments (no tool call), returns the text, failures included', async () => {
    const backend = createStateBackend({ files: START });
    const byName = Object.fromEntries(langchainTools(backend).map((t) => [t.name, t]));
    expect(await byName.grep!.invoke({ pattern: 'greeting' })).toBe(await reference('grep', { pattern: 'greeting' }));
    expect(await byName.write_file!.invoke({ path: '/src/app.ts', content: 'x' })).toBe(await reference('write_file', { path: '/src/app.ts', content: 'x' }));
    expect(await backend.readText('/src/app.ts')).toBe(START['/src/app.ts']);
  });

  it('is typed as it answers: plain arguments give the content (a string here), a tool call a ToolMessage', async () => {
    const [ls] = langchainTools(createStateBackend({ files: START }), { include: ['ls'] });
    const out = await ls!.invoke({ path: '/' });
    // (Typed as the content-and-artifact pair, `out` was never a string to the compiler.)
    expectTypeOf(out).toExtend<string | object[]>();
    expect(typeof out === 'string' && out.startsWith('[{"name":"src"')).toBe(true);
    const message = await ls!.invoke(call('ls', { path: '/' }, 'c1'));
    expectTypeOf(message).toEqualTypeOf<ToolMessage>();
    expect(message).toBeInstanceOf(ToolMessage);
  });

  it('a run’s signal (config.signal) withdraws a question still open: nothing is written', async () => {
    const backend = createStateBackend();
    let answer!: (decision: ApprovalDecision) => void;
    let asked: ApprovalRequest | undefined;
    const events: string[] = [];
    const [write] = langchainTools(backend, {
      include: ['write_file'],
      approve: (request) => ((asked = request), new Promise((resolve) => (answer = resolve))),
      onEvent: (e) => events.push(`${e.tool} ${e.code}`),
    });
    const controller = new AbortController();
    const invoked = write!.invoke(call('write_file', { path: '/x.md', content: 'x' }, 'c1'), { signal: controller.signal });
    invoked.catch(() => {}); // LangChain may reject at once on abort; the call itself still ends
    while (asked === undefined) await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual(['write_file ECANCELED']);
    expect(asked.signal?.aborted).toBe(true);
    answer({ allow: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await backend.exists('/x.md')).toBe(false);
  });

  it('permissions and approve guard the session made over a backend', async () => {
    const backend = createStateBackend();
    const events: string[] = [];
    const byName = Object.fromEntries(
      langchainTools(backend, {
        permissions: { write: ['/ok/**'] },
        approve: () => ({ allow: false, reason: 'not today' }),
        onEvent: (e) => events.push(`${e.tool}:${e.code}`),
      }).map((t) => [t.name, t]),
    );
    expect(await byName.write_file!.invoke({ path: '/ok/a', content: 'x' })).toMatch(/^Error: EDENIED: .*"not today"/);
    expect(await byName.write_file!.invoke({ path: '/b', content: 'x' })).toMatch(/^Error: EACCES: /);
    expect(events).toEqual(['write_file:EDENIED', 'write_file:EACCES']);
    expect(await backend.exists('/ok/a')).toBe(false);
  });

  it('answers arguments that do not fit the schema with agentvfs’s message naming them, and writes nothing', async () => {
    const backend = createStateBackend({ files: START });
    const byName = Object.fromEntries(langchainTools(backend).map((t) => [t.name, t]));
    const bad = { path: '/new.txt', content: 42 };
    const message = (await byName.write_file!.invoke(call('write_file', bad, 'c3'))) as ToolMessage;
    expect(message).toMatchObject({ tool_call_id: 'c3', status: 'error', content: await reference('write_file', bad) });
    expect(message.content).toContain('content');
    expect(message.artifact).toMatchObject({ isError: true, code: 'EINVAL', changed: [] });
    expect(await byName.read_file!.invoke({ offset: 2 } as never)).toBe(await reference('read_file', { offset: 2 }));
    // The deprecated call() given the tool call itself answers under its id too.
    expect(await byName.write_file!.call(call('write_file', bad, 'c5') as never)).toMatchObject({ tool_call_id: 'c5', status: 'error' });
    expect(await byName.read_file!.call(call('read_file', { path: '/nope' }, 'c6') as never)).toMatchObject({ tool_call_id: 'c6', status: 'error' });
    expect(await backend.exists('/new.txt')).toBe(false);
  });

  it('takes null for an optional argument (OpenAI strict mode) and undefined as left out, answering as any call', async () => {
    const backend = createStateBackend({ files: START });
    const byName = Object.fromEntries(langchainTools(backend).map((t) => [t.name, t]));
    const text = await reference('read_file', { path: '/src/app.ts' });
    const read = (await byName.read_file!.invoke(call('read_file', { path: '/src/app.ts', offset: null, limit: null }, 'n1'))) as ToolMessage;
    expect(read).toBeInstanceOf(ToolMessage);
    expect(read).toMatchObject({ tool_call_id: 'n1', name: 'read_file', status: 'success', content: text });
    expect(read.artifact).toEqual({ text, isError: false, changed: [] });
    const edit = (await byName.edit_file!.invoke(
      call('edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"', replace_all: null }, 'n2'),
    )) as ToolMessage;
    expect(edit).toMatchObject({ tool_call_id: 'n2', status: 'success' });
    expect(edit.artifact).toMatchObject({ isError: false, changed: [{ path: '/src/app.ts', version: (await backend.stat('/src/app.ts')).version }] });
    const plain = await byName.read_file!.invoke({ path: '/src/app.ts' });
    expect(plain).toMatch(/"hi"/);
    expect(await byName.read_file!.invoke({ path: '/src/app.ts', offset: undefined })).toBe(plain);
    const missing = (await byName.write_file!.invoke(call('write_file', { path: '/b.txt', content: undefined }, 'n3'))) as ToolMessage;
    expect(missing).toMatchObject({ tool_call_id: 'n3', status: 'error', content: await reference('write_file', { path: '/b.txt' }) });
    expect(await backend.exists('/b.txt')).toBe(false);
  });

  it('every call reaches LangChain’s callbacks and stream events, whether its arguments fit the schema or not', async () => {
    const [read_file] = langchainTools(createStateBackend({ files: START }), { include: ['read_file'] });
    for (const args of [{ path: '/src/app.ts' }, { path: '/src/app.ts', offset: null }, { path: 5 }]) {
      const seen: string[] = [];
      const callbacks = [
        { handleToolStart: () => void seen.push('start'), handleToolEnd: () => void seen.push('end'), handleToolError: () => void seen.push('error') },
      ];
      const message = (await read_file!.invoke(call('read_file', args, 'e1'), { callbacks })) as ToolMessage;
      expect(message.status).toBe(typeof args.path === 'string' ? 'success' : 'error');
      expect(seen, JSON.stringify(args)).toEqual(['start', 'end']);
      const events: string[] = [];
      for await (const event of read_file!.streamEvents(call('read_file', args, 'e2'), { version: 'v2' })) events.push(event.event);
      expect(events, JSON.stringify(args)).toEqual(['on_tool_start', 'on_tool_end']);
    }
  });

  it('shares a tool set’s session: a file read through tools.call can be edited through LangChain', async () => {
    const backend = createStateBackend({ files: START });
    const edit = { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' };

    const unread = langchainTools(backend).find((t) => t.name === 'edit_file')!;
    expect(await unread.invoke(edit)).toMatch(/^Error: /);

    const session = createTools(backend);
    await session.call('read_file', { path: '/src/app.ts' });
    const shared = langchainTools(session).find((t) => t.name === 'edit_file')!;
    expect(await shared.invoke(edit)).not.toMatch(/^Error: /);
    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
  });

  it('maps media parts to LangChain content blocks after the text', async () => {
    const definitions = createTools(createStateBackend()).definitions;
    const run = async () => ({
      text: 'PNG image, 1x1',
      isError: false,
      parts: [{ type: 'image' as const, mediaType: 'image/png', data: 'iVBORw0KGgo=' }],
      changed: [],
    });
    const withMedia: Omit<Tools, 'preview'> = { definitions, run, call: async () => (await run()).text };
    const readFile = langchainTools(withMedia).find((t) => t.name === 'read_file')!;
    const message = (await readFile.invoke(call('read_file', { path: '/a.png' }, 'c4'))) as ToolMessage;
    expect(message.content).toEqual([
      { type: 'text', text: 'PNG image, 1x1' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    ]);
  });

  it('takes a subset of tools and replacement descriptions; refuses unknown names and non-targets', () => {
    const tools = langchainTools(createStateBackend(), { include: ['read_file', 'ls'], descriptions: { ls: 'List it.' } });
    expect(tools.map((t) => [t.name, t.description === 'List it.'])).toEqual([
      ['ls', true],
      ['read_file', false],
    ]);
    expect(() => langchainTools(createStateBackend(), { include: ['bash' as never] })).toThrow(/unknown tools \("bash"\); the tools are ls, read_file/);
    expect(() => langchainTools(createStateBackend(), { descriptions: { bash: 'x' } })).toThrow(
      /agentvfs\/langchain: descriptions names unknown tools \("bash"\)/,
    );
    expect(() => langchainTools('/tmp' as never)).toThrow(TypeError);
    expect(() => langchainTools({} as never)).toThrow(/agentvfs\/langchain: expected a backend/);
    expect(() => langchainTools(createStateBackend(), { permission: {} } as never)).toThrow(
      /^agentvfs\/langchain: langchainTools has no option "permission" \(did you mean "permissions"\?\); its options are include, descriptions, permissions, approve, onEvent\.$/,
    );
  });
});

const targets: Record<string, () => Backend> = {
  'in process': () => createStateBackend({ files: START }),
  'in a worker_threads worker': () => inWorkerThread({ files: START }),
};

describe.each(Object.keys(targets))('langchainTools in langchain’s createAgent, backend %s', (where) => {
  it('human-in-the-loop: tools.preview describes the interrupted call with its diff; once approved, it writes exactly that', async () => {
    const backend = targets[where]!();
    const tools = createTools(backend);
    const model = fakeModel()
      .respondWithTools([call('read_file', { path: '/src/app.ts' }, 'h1')])
      .respondWithTools([call('edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' }, 'h2')])
      .respond(new AIMessage('Done.'));
    const described = async (toolCall: { name: string; args: Record<string, unknown> }) => {
      const { changes, error } = await tools.preview(toolCall.name, toolCall.args);
      return error?.text ?? changes.map((change) => change.diff).join('\n');
    };
    const agent = createAgent({
      model,
      tools: langchainTools(tools),
      middleware: [humanInTheLoopMiddleware({ interruptOn: { edit_file: { allowedDecisions: ['approve', 'reject'], description: described } } })],
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: `preview-${where}` } };
    const paused = await agent.invoke({ messages: [new HumanMessage('Say hi.')] }, config);
    const request = (paused.__interrupt__?.[0] as Interrupt<HITLRequest> | undefined)?.value.actionRequests[0];
    expect(request?.name).toBe('edit_file');
    expect(request?.description).toContain('-export const greeting = "hello";\n+export const greeting = "hi";');
    expect(await backend.readText('/src/app.ts')).toBe(START['/src/app.ts']);
    await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
  });

  it('runs a multi-step tool loop driven by a fake model; the files land in agentvfs', async () => {
    const backend = targets[where]!();
    const model = fakeModel()
      .respondWithTools([call('ls', {}, 't1'), call('read_file', { path: '/src/app.ts' }, 't2'), call('read_file', { path: '/nope.ts' }, 't3')])
      .respondWithTools([call('edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' }, 't4')])
      .respondWithTools([call('write_file', { path: '/docs/notes.md', content: '# Notes\ngreeting is hi\n' }, 't5')])
      .respondWithTools([call('grep', { pattern: 'hi', output_mode: 'content' }, 't6'), call('glob', { pattern: '**/*.md' }, 't7')])
      .respond(new AIMessage('Done.'));
    const agent = createAgent({ model, tools: langchainTools(backend) });

    const { messages } = await agent.invoke({ messages: [new HumanMessage('Say hi instead of hello, and note it.')] });

    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
    expect(await backend.readText('/docs/notes.md')).toBe('# Notes\ngreeting is hi\n');
    const results = messages.filter((m) => m instanceof ToolMessage);
    expect(results.map((m) => [m.tool_call_id, m.status])).toEqual([
      ['t1', 'success'],
      ['t2', 'success'],
      ['t3', 'error'],
      ['t4', 'success'],
      ['t5', 'success'],
      ['t6', 'success'],
      ['t7', 'success'],
    ]);
    // The model was sent exactly the tool texts, in order, each under its call's id.
    const session = createTools(createStateBackend({ files: START }));
    const expected = [
      await session.call('ls', {}),
      await session.call('read_file', { path: '/src/app.ts' }),
      await session.call('read_file', { path: '/nope.ts' }),
      await session.call('edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' }),
      await session.call('write_file', { path: '/docs/notes.md', content: '# Notes\ngreeting is hi\n' }),
      await session.call('grep', { pattern: 'hi', output_mode: 'content' }),
      await session.call('glob', { pattern: '**/*.md' }),
    ];
    expect(results.map((m) => m.content)).toEqual(expected);
    // The artifact (never sent to the model) says what each call wrote.
    expect(results.map((m) => (m.artifact as { changed: Array<{ path: string }> }).changed.map((c) => c.path))).toEqual([
      [],
      [],
      [],
      ['/src/app.ts'],
      ['/docs/notes.md'],
      [],
      [],
    ]);
    expect(messages.at(-1)!.content).toBe('Done.');
  });
});
