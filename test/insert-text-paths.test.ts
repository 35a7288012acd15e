// insert_text (as Claude sends it) on every path a text editor call takes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { aiSdkTools } from '../src/ai/index.ts';
import { createStateBackend } from '../src/backend/state-backend.ts';
import { langchainTools } from '../src/langchain/index.ts';
import { createMcpServer } from '../src/mcp/index.ts';
import { createTools } from '../src/tools/create-tools.ts';
import { formatDefinitions } from '../src/tools/format-definitions.ts';
import { createTools as clientCreateTools } from '../src/client/create-tools.ts';
import { closeAll, overMessageChannel } from './worker/factories.ts';

const NAME = 'str_replace_based_edit_tool';
const args = { command: 'insert', path: '/t.txt', insert_line: 1, insert_text: 'NEW' };
const start = () => createStateBackend({ files: { '/t.txt': 'one\ntwo\n' } });
afterEach(closeAll);

describe('insert_text', () => {
  it('approve() is asked and sees the change', async () => {
    const backend = start();
    const asked: unknown[] = [];
    const tools = createTools(backend, { dialect: 'anthropic', approve: (r) => (asked.push(r), { allow: true }) });
    const r = await tools.run(NAME, args);
    expect(r.isError, r.text).toBe(false);
    expect(asked.length).toBe(1);
    expect(await backend.readText('/t.txt')).toBe('one\nNEW\ntwo\n');
  });
  it('preview', async () => {
    const tools = createTools(start(), { dialect: 'anthropic' });
    const p = await tools.preview(NAME, args);
    expect(JSON.stringify(p)).toContain('NEW');
  });
  it('AI SDK', async () => {
    const backend = start();
    const t = aiSdkTools(createTools(backend, { dialect: 'anthropic' }));
    const tool = t[NAME] as { execute: (a: unknown, o: unknown) => Promise<unknown>; inputSchema: unknown };
    expect(JSON.stringify(tool.inputSchema)).toContain('insert_text');
    await tool.execute(args, { toolCallId: '1', messages: [] });
    expect(await backend.readText('/t.txt')).toBe('one\nNEW\ntwo\n');
  });
  it('LangChain', async () => {
    const backend = start();
    const [tool] = langchainTools(createTools(backend, { dialect: 'anthropic' }), { include: [NAME] } as never);
    const out = await tool!.invoke(args as never);
    expect(String(JSON.stringify(out))).toContain('edited');
    expect(await backend.readText('/t.txt')).toBe('one\nNEW\ntwo\n');
  });
  it('MCP', async () => {
    const backend = start();
    const server = createMcpServer(createTools(backend, { dialect: 'anthropic' }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const c = new Client({ name: 't', version: '1' });
    await c.connect(b);
    const list = await c.listTools();
    expect(JSON.stringify(list.tools.find((t) => t.name === NAME)?.inputSchema)).toContain('insert_text');
    const r = await c.callTool({ name: NAME, arguments: args });
    expect(r.isError ?? false, JSON.stringify(r)).toBe(false);
    expect(await backend.readText('/t.txt')).toBe('one\nNEW\ntwo\n');
  });
  it('strict OpenAI formatting: every property required and nullable; nulls are left out', async () => {
    const defs = createTools(start(), { dialect: 'anthropic' }).definitions;
    for (const provider of ['openai-chat', 'openai-responses'] as const) {
      const out = formatDefinitions(defs, provider, { strict: true }) as unknown as Record<string, unknown>[];
      const te = out.find((d) => JSON.stringify(d).includes(NAME))!;
      const params = ((te.function as Record<string, unknown>) ?? te).parameters as { required: string[]; properties: Record<string, { type: unknown }> };
      expect(params.required).toContain('insert_text');
      expect(params.properties.insert_text!.type).toEqual(['string', 'null']);
    }
    // What a strict model sends for an insert: every other parameter null.
    const backend = start();
    const tools = createTools(backend, { dialect: 'anthropic' });
    const r = await tools.run(NAME, { ...args, file_text: null, view_range: null, old_str: null, new_str: null });
    expect(r.isError, r.text).toBe(false);
    const r2 = await tools.run(NAME, {
      command: 'insert',
      path: '/t.txt',
      insert_line: 0,
      insert_text: null,
      new_str: 'TOP',
      file_text: null,
      view_range: null,
      old_str: null,
    });
    expect(r2.isError, r2.text).toBe(false);
    expect(await backend.readText('/t.txt')).toBe('TOP\none\nNEW\ntwo\n');
  });
  it('through a worker (connect), with the client createTools', async () => {
    const remote = overMessageChannel({ files: { '/t.txt': 'one\ntwo\n' } });
    const tools = clientCreateTools(remote, { dialect: 'anthropic' });
    const r = await tools.run(NAME, args);
    expect(r.isError, r.text).toBe(false);
    expect(await remote.readText('/t.txt')).toBe('one\nNEW\ntwo\n');
  });
});
