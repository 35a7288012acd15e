// examples/cloudflare's /mcp endpoint inside workerd, driven by the MCP SDK's official Client over
// its Streamable HTTP transport (its fetch is the Worker's own): one Durable Object per MCP
// session, tool errors as results with isError, files that outlive the object's instance, DELETE.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { abortAllDurableObjects } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const URL_MCP = new URL('http://example.test/mcp');
const workerFetch = (url: string | URL, init?: RequestInit) => exports.default.fetch(String(url), init);

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(URL_MCP, { fetch: workerFetch });
  const client = new Client({ name: 'workerd-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text;
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP over Streamable HTTP in workerd (examples/cloudflare /mcp)', () => {
  it('lists the tools with their hints and runs a write, a read, an edit and a search', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
    expect(tools.find((t) => t.name === 'edit_file')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(text(await client.callTool({ name: 'write_file', arguments: { path: '/src/app.ts', content: 'export const greeting = "hello";\n' } }))).toBe(
      'Created /src/app.ts (1 line, 33 bytes).',
    );
    expect(text(await client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } }))).toBe('     1\texport const greeting = "hello";');
    const edit = await client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' } });
    expect(text(edit)).toMatch(/^Edited \/src\/app\.ts: 1 replacement\./);
    expect(text(await client.callTool({ name: 'grep', arguments: { pattern: 'greeting', output_mode: 'content' } }))).toBe(
      '/src/app.ts:1:export const greeting = "hi";',
    );
    await client.close();
  });

  it('returns tool failures as results with isError, never protocol errors', async () => {
    const { client } = await connect();
    const missing = await client.callTool({ name: 'read_file', arguments: { path: '/nope.txt' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^Error: ENOENT: /);
    const bad = await client.callTool({ name: 'grep', arguments: {} });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^Error: EINVAL: .*pattern/);
    await client.close();
  });

  it('keeps each session in its own object: another client does not see its files', async () => {
    const a = await connect();
    const b = await connect();
    expect(b.transport.sessionId).not.toBe(a.transport.sessionId);
    await a.client.callTool({ name: 'write_file', arguments: { path: '/only-a.txt', content: 'a\n' } });
    expect(text(await b.client.callTool({ name: 'glob', arguments: { pattern: '**/*' } }))).toMatch(/^No files found/);
    await a.client.close();
    await b.client.close();
  });

  it("outlives the object's instance: after an eviction the session's files are restored", async () => {
    const { client } = await connect();
    await client.callTool({ name: 'write_file', arguments: { path: '/kept.md', content: 'kept\n' } });
    await abortAllDurableObjects();
    expect(text(await client.callTool({ name: 'read_file', arguments: { path: '/kept.md' } }))).toBe('     1\tkept');
    await client.close();
  });

  it('ends a session on DELETE; unknown sessions are 404, a first request that is not initialize is 400', async () => {
    const { transport } = await connect();
    const id = transport.sessionId!;
    await transport.terminateSession();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} });
    const after = await workerFetch(URL_MCP, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': id }, body: list });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    const forged = await workerFetch(URL_MCP, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': 'not-ours' }, body: list });
    expect(forged.status).toBe(404);
    const first = await workerFetch(URL_MCP, { method: 'POST', headers: POST_HEADERS, body: list });
    expect(first.status).toBe(400);
  });

  it('refuses a request from a browser page (Origin) with 403 before a session or its storage is made', async () => {
    const refused = await workerFetch(URL_MCP, {
      method: 'POST',
      headers: { ...POST_HEADERS, origin: 'https://evil.example' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
      }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/origin "https:\/\/evil\.example" are not allowed/);
  });

  it('opens no stream on GET, which would keep the object awake for nothing: 405', async () => {
    const { client, transport } = await connect();
    const get = await workerFetch(URL_MCP, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': transport.sessionId! } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');
    await get.body?.cancel();
    // Answered by the Worker, for a session or none, without waking an object.
    const none = await workerFetch(URL_MCP, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(none.status).toBe(405);
    await none.body?.cancel();
    await client.close();
  });
});
