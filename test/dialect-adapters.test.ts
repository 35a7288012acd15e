// The adapters take a dialect's tool set (createTools(backend, { dialect })) as they take the six:
// aiSdkTools driven by the AI SDK's own generateText loop, and createMcpServer listed and called
// through the MCP SDK's Client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../src/ai/index.ts';
import { createStateBackend } from '../src/backend/state-backend.ts';
import { createMcpServer } from '../src/mcp/index.ts';
import { createTools } from '../src/tools/create-tools.ts';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const toolCall = (toolName: string, input: object) => ({
  content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: undefined },
  usage,
  warnings: [],
});
const done = { content: [{ type: 'text' as const, text: 'Done.' }], finishReason: { unified: 'stop' as const, raw: undefined }, usage, warnings: [] };

/** The text of the tool result the model got back in its second call. */
function resultText(model: MockLanguageModelV4): string {
  const messages = model.doGenerateCalls[1]!.prompt as unknown as Array<{ content: unknown }>;
  const parts = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<{ type: string; output?: { value: unknown } }>) : []));
  const value = parts.find((p) => p.type === 'tool-result')!.output!.value;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

describe('aiSdkTools with a dialect tool set', () => {
  it("runs the anthropic text editor in the SDK's loop", async () => {
    const backend = createStateBackend({ files: { '/primes.py': 'for num in range(2, limit + 1)\n' } });
    const tools = aiSdkTools(createTools(backend, { dialect: 'anthropic' }));
    expect(Object.keys(tools)).toEqual(['str_replace_based_edit_tool', 'memory']);
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCall('str_replace_based_edit_tool', { command: 'str_replace', path: '/primes.py', old_str: 'limit + 1)', new_str: 'limit + 1):' }),
        done,
      ],
    });
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'Fix the syntax error.' });
    expect(await backend.readText('/primes.py')).toBe('for num in range(2, limit + 1):\n');
    expect(resultText(model)).toContain('The file /primes.py has been edited.');
  });

  it("runs Gemini CLI's replace, and include picks among the dialect's own tools", async () => {
    const backend = createStateBackend({ files: { '/a.ts': 'let x = 1;\n' } });
    const tools = aiSdkTools(createTools(backend, { dialect: 'gemini' }), { include: ['read_file', 'replace'] });
    expect(Object.keys(tools)).toEqual(['read_file', 'replace']);
    const model = new MockLanguageModelV4({
      doGenerate: [toolCall('replace', { file_path: '/a.ts', instruction: 'x is 2', old_string: 'x = 1', new_string: 'x = 2' }), done],
    });
    await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'Set x to 2.' });
    expect(resultText(model)).toContain('Successfully modified file: /a.ts (1 replacements).');
    expect(() => aiSdkTools(createTools(backend, { dialect: 'gemini' }), { include: ['edit_file'] })).toThrow(
      'agentvfs/ai: include names unknown tools ("edit_file"); the tools are read_file, write_file, replace, glob, grep_search, list_directory, read_many_files.',
    );
  });
});

describe('createMcpServer with a dialect tool set', () => {
  async function client(tools: ReturnType<typeof createTools>) {
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(tools).connect(serverSide);
    const c = new Client({ name: 'test', version: '1.0.0' });
    await c.connect(clientSide);
    return c;
  }

  it("lists the anthropic dialect's tools with their schemas and write hints, and runs them", async () => {
    const backend = createStateBackend();
    const c = await client(createTools(backend, { dialect: 'anthropic' }));
    const { tools } = await c.listTools();
    expect(tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['str_replace_based_edit_tool', false],
      ['memory', false],
    ]);
    expect(tools[0]!.inputSchema.properties).toHaveProperty('view_range', expect.objectContaining({ type: 'array' }));
    const made = await c.callTool({ name: 'memory', arguments: { command: 'create', path: '/memories/a.md', file_text: 'x\n' } });
    expect(made.content).toEqual([{ type: 'text', text: 'File created successfully at: /memories/a.md' }]);
    expect(await backend.readText('/memories/a.md')).toBe('x\n');
  });

  it("lists the gemini dialect's tools, read-only ones hinted so, and answers errors as tool errors", async () => {
    const c = await client(createTools(createStateBackend({ files: { '/a.txt': 'hi\n' } }), { dialect: 'gemini' }));
    const { tools } = await c.listTools();
    expect(tools.filter((t) => t.annotations?.readOnlyHint === false).map((t) => t.name)).toEqual(['write_file', 'replace']);
    const found = await c.callTool({ name: 'grep_search', arguments: { pattern: 'hi' } });
    expect(found.content).toEqual([{ type: 'text', text: 'Found 1 match for pattern "hi" in the workspace directory:\n---\nFile: /a.txt\nL1: hi\n---' }]);
    const missing = await c.callTool({ name: 'read_file', arguments: { file_path: '/b.txt' } });
    expect(missing).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Error: ENOENT: File not found: /b.txt. Use list_directory or glob to see what exists.' }],
    });
  });
});
