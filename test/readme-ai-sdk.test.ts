// The README's Vercel AI SDK example, exactly as printed: it typechecks against the shipped types
// and `ai`, and runs with Node. Its model id goes to the AI Gateway, the SDK's default provider;
// a preloaded module points that provider at a local server replaying the Gateway's wire format
// (the SDK's documented AI_SDK_DEFAULT_PROVIDER hook), which scripts a session of several tool
// calls (ls and read_file at once, a failing edit, then the edit) and checks the tool results.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReplay, type Replay } from './readme-replay.ts';
import { runSnippet, scratchDir, snippetUnder, typecheck } from './readme-snippets.ts';

const scratch = scratchDir('ai-sdk');
const example = snippetUnder('With the Vercel AI SDK');
const DONE = 'Done: /src/app.ts now greets with "hi".';
const usage = { inputTokens: { total: 900, noCache: 900 }, outputTokens: { total: 40, text: 40 } };
const call = (toolCallId: string, toolName: string, input: object) => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) });
const toolCalls = (...content: object[]) => ({ content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] });
// The language model results the Gateway returns (LanguageModelV4 results as JSON), one per request.
const script = [
  toolCalls(call('call_ls', 'ls', {}), call('call_read', 'read_file', { path: '/src/app.ts' })),
  toolCalls(call('call_bad', 'edit_file', { path: '/src/app.ts', old_string: '"howdy"', new_string: '"hi"' })),
  toolCalls(call('call_edit', 'edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' })),
  { content: [{ type: 'text', text: DONE }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
];

let server: Replay;
let stdout: string;
beforeAll(async () => {
  server = await startReplay((request, index) => {
    if (request.method !== 'POST' || request.path !== '/language-model') throw new Error(`unexpected ${request.method} ${request.path}`);
    if (request.headers.authorization !== 'Bearer test-key') throw new Error('Invalid API key');
    if (request.headers['ai-language-model-id'] !== 'openai/gpt-5') throw new Error(`unexpected model ${request.headers['ai-language-model-id']}`);
    if (index >= script.length) throw new Error('the script has no more responses');
    return script[index];
  });
  const preload = join(scratch.dir, 'gateway.mjs');
  writeFileSync(
    preload,
    `import { createGateway } from 'ai';\nglobalThis.AI_SDK_DEFAULT_PROVIDER = createGateway({ baseURL: ${JSON.stringify(server.url)} });\n`,
  );
  stdout = await runSnippet(scratch.dir, 'ai-sdk', example, { AI_GATEWAY_API_KEY: 'test-key', NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` });
}, 60_000);
afterAll(async () => {
  await server?.close();
  scratch.remove();
});

it('typechecks with strict TypeScript against the shipped types and ai', () => {
  // ai's own declarations name Node's types (node:http, Buffer), as a user's project of it has them.
  typecheck(scratch.dir, { aiSdk: `/// <reference types="node" />\n${example}` });
});

it('runs the loop to the model’s answer and leaves the edited file in the backend', () => {
  expect(server.refusals).toEqual([]);
  expect(server.received).toHaveLength(script.length);
  expect(stdout).toBe(`${DONE}\nexport const greeting = "hi";\n\n`);
});

it('offers the six tools with their JSON Schemas', () => {
  const tools = server.received[0]!.body.tools as any[];
  expect(tools.map((t) => t.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
  for (const tool of tools) expect(tool).toMatchObject({ type: 'function', description: expect.any(String), inputSchema: { type: 'object' } });
});

it('sends the model each result as the tool’s text, a failure flagged as an error', () => {
  const results = (index: number) =>
    Object.fromEntries(
      (server.received[index]!.body.prompt as any[])
        .filter((m) => m.role === 'tool')
        .flatMap((m) => m.content)
        .map((part) => [part.toolCallId, part.output]),
    );
  const second = results(1);
  expect(second.call_ls).toEqual({ type: 'text', value: JSON.stringify([{ name: 'src', path: '/src', is_dir: true, size: 0 }]) });
  expect(second.call_read).toEqual({ type: 'text', value: '     1\texport const greeting = "hello";' });
  expect(results(2).call_bad).toMatchObject({ type: 'error-text', value: expect.stringMatching(/^Error: ENOMATCH: \/src\/app\.ts: old_string was not found/) });
  expect(results(3).call_edit).toMatchObject({ type: 'text', value: expect.stringMatching(/^Edited \/src\/app\.ts: 1 replacement\./) });
});
