// mcpHandler served by a Node http server (requests and responses adapted to the fetch types),
// driven by the SDK's official Client over its Streamable HTTP transport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from '../tools/create-tools.ts';
import { mcpHandler } from './handler.ts';

const FILES = { '/src/app.ts': 'export const greeting = "hello";\n' };
const servers: Server[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** Serves a fetch handler on a free loopback port; resolves to its URL. */
async function serve(handle: (request: Request) => Promise<Response>): Promise<URL> {
  const server = createServer((req, res) => void answer(handle, req, res));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

async function answer(handle: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  const response = await handle(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  // SSE bodies stream: each event is written as it comes.
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}

async function connect(url: URL): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text;
const rpc = (method: string, id = 1, params: object = {}) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('mcpHandler, stateless (default)', () => {
  it('serves the tools to clients that share one workspace and one tool session', async () => {
    const backend = createStateBackend({ files: FILES });
    const url = await serve(mcpHandler(backend));
    const a = await connect(url);
    const b = await connect(url);
    expect(a.transport.sessionId).toBeUndefined();
    expect((await a.client.listTools()).tools.map((t) => t.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
    expect(textOf(await a.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } }))).toBe('     1\texport const greeting = "hello";');
    // Each request is served on its own, so the read above must count for the edit in a later request.
    const edit = await b.client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'hi' } });
    expect(edit.isError).toBe(false);
    expect(await backend.readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
  });

  it('returns a tool failure as a result with isError, over HTTP too', async () => {
    const url = await serve(mcpHandler(createStateBackend()));
    const { client } = await connect(url);
    const result = await client.callTool({ name: 'read_file', arguments: { path: '/missing.txt' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: ENOENT: /);
  });

  it('answers GET and DELETE with 405: no stream to hold open, no session to end', async () => {
    const url = await serve(mcpHandler(createStateBackend()));
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^Method not allowed/);
    }
  });

  it('answers with one JSON body when asked to', async () => {
    const url = await serve(mcpHandler(createStateBackend(), { enableJsonResponse: true }));
    const response = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: rpc('initialize', 1, INIT) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('agentvfs');
  });
});

describe('mcpHandler({ sessions: true })', () => {
  it('gives each client a session with its own read tracking, over one workspace', async () => {
    const backend = createStateBackend({ files: FILES });
    const url = await serve(mcpHandler(backend, { sessions: true }));
    const a = await connect(url);
    const b = await connect(url);
    expect(a.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.transport.sessionId).not.toBe(a.transport.sessionId);
    await a.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } });
    const unread = await b.client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'bye' } });
    expect(textOf(unread)).toMatch(/^Error: ENOTREAD: /);
    const edit = await a.client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'hi' } });
    expect(edit.isError).toBe(false);
    expect(textOf(await b.client.callTool({ name: 'grep', arguments: { pattern: 'hi', output_mode: 'content' } }))).toBe(
      '/src/app.ts:1:export const greeting = "hi";',
    );
  });

  it('shares the session of a tool set given as the target between MCP sessions', async () => {
    const tools = createTools(createStateBackend({ files: FILES }));
    const url = await serve(mcpHandler(tools, { sessions: true }));
    const a = await connect(url);
    const b = await connect(url);
    await a.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } });
    const edit = await b.client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'hi' } });
    expect(edit.isError).toBe(false);
  });

  it('ends a session on DELETE; an unknown session is 404 and a request without one that is not initialize is 400', async () => {
    const url = await serve(mcpHandler(createStateBackend(), { sessions: true }));
    const { transport } = await connect(url);
    const id = transport.sessionId!;
    await transport.terminateSession();
    const after = await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': id }, body: rpc('tools/list', 2) });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    const unknown = await fetch(url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': 'nope' }, body: rpc('tools/list', 3) });
    expect(unknown.status).toBe(404);
    const without = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: rpc('tools/list', 4) });
    expect(without.status).toBe(400);
  });
});

describe('mcpHandler sessions that are never ended by their client', () => {
  afterEach(() => vi.useRealTimers());
  const listTools = (url: URL, id: string) =>
    fetch(url, { method: 'POST', headers: { ...POST_HEADERS, 'mcp-session-id': id }, body: rpc('tools/list', 9) }).then(
      async (r) => (await r.text(), r.status),
    );
  // Raw requests, not the SDK's client: it also opens a GET stream whenever it gets to it, which
  // would count as a use at a moment the test does not choose.
  const open = async (url: URL) => {
    const response = await fetch(url, { method: 'POST', headers: POST_HEADERS, body: rpc('initialize', 1, INIT) });
    await response.text();
    return response.headers.get('mcp-session-id')!;
  };

  it('ends the one idle longest once maxSessions are open', async () => {
    const url = await serve(mcpHandler(createStateBackend(), { sessions: true, maxSessions: 2 }));
    const a = await open(url);
    const b = await open(url);
    expect(await listTools(url, a)).toBe(200); // a was used last: b is now the idlest
    const c = await open(url);
    expect([await listTools(url, b), await listTools(url, a), await listTools(url, c)]).toEqual([404, 200, 200]);
  });

  it('ends a session that got no request for sessionIdleMs; the others stay', async () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // only the clock: the sockets and the SDK's timers stay real
    const url = await serve(mcpHandler(createStateBackend(), { sessions: true, sessionIdleMs: 60_000 }));
    const idle = await open(url);
    vi.setSystemTime(Date.now() + 40_000);
    const busy = await open(url);
    vi.setSystemTime(Date.now() + 30_000); // idle: 70 s without a request; busy: 30 s
    expect(await listTools(url, busy)).toBe(200);
    expect(await listTools(url, idle)).toBe(404);
  });

  it('refuses bad limits when the handler is made', () => {
    expect(() => mcpHandler(createStateBackend(), { sessions: true, sessionIdleMs: 0 })).toThrow(/sessionIdleMs must be a number of milliseconds above 0/);
    expect(() => mcpHandler(createStateBackend(), { sessions: true, maxSessions: 1.5 })).toThrow(/maxSessions must be an integer of at least 1, not 1\.5/);
    // A flag that is not a boolean would read as true ("yes") or false (0) without a word.
    expect(() => mcpHandler(createStateBackend(), { sessions: 'yes' as never })).toThrow('agentvfs/mcp: sessions must be true or false, not "yes".');
    // A misspelt option (a stateless handler where sessions were meant; an unguarded one) is named.
    expect(() => mcpHandler(createStateBackend(), { session: true } as never)).toThrow(
      /^agentvfs\/mcp: mcpHandler has no option "session" \(did you mean "sessions"\?\)/,
    );
    expect(() => mcpHandler(createStateBackend(), { allowed_origins: '*' } as never)).toThrow(/"allowed_origins" \(did you mean "allowedOrigins"\?\)/);
    expect(() => mcpHandler(createStateBackend(), { enableJsonResponse: 1 as never })).toThrow(
      'agentvfs/mcp: enableJsonResponse must be true or false, not 1.',
    );
  });
});

describe('mcpHandler targets', () => {
  it('refuses a wrong target, include or descriptions when the handler is made, not at the first request', () => {
    expect(() => mcpHandler(createStateBackend(), { include: 'ls' as never })).toThrow(/^agentvfs\/mcp: include must be an array of tool names/);
    for (const sessions of [false, true]) {
      expect(() => mcpHandler(createStateBackend(), { sessions, descriptions: { gerp: 'x' } })).toThrow(
        /^agentvfs\/mcp: descriptions names unknown tools \("gerp"\)/,
      );
    }
    expect(() => mcpHandler('/tmp/project' as never)).toThrow(/^agentvfs\/mcp: expected a backend .* got the string "\/tmp\/project"\.$/);
  });
});

describe('mcpHandler({ allowedOrigins })', () => {
  it.each([false, true])(
    'sessions: %s — a request from another origin is 403 before anything runs; an allowed or absent Origin is served',
    async (sessions) => {
      const backend = createStateBackend({ files: FILES });
      const handle = mcpHandler(backend, { sessions, allowedOrigins: ['https://app.example'], enableJsonResponse: true });
      const post = (origin: string | null) =>
        handle(
          new Request('http://127.0.0.1/mcp', {
            method: 'POST',
            headers: { ...POST_HEADERS, ...(origin === null ? {} : { origin }) },
            body: rpc('initialize', 1, INIT),
          }),
        );
      const refused = await post('http://evil.example');
      expect(refused.status).toBe(403);
      expect((await refused.json()).error.message).toMatch(/origin "http:\/\/evil\.example" are not allowed/);
      expect((await post('https://app.example')).status).toBe(200);
      expect((await post(null)).status).toBe(200);
      expect(() => mcpHandler(backend, { allowedOrigins: 'https://app.example' as never })).toThrow(
        /allowedOrigins must be an array of origins \(like "https:\/\/app\.example"\) or "\*"/,
      );
    },
  );

  it.each([false, true])('sessions: %s — answers an allowed origin’s CORS preflight and lets it read the session id; no CORS for others', async (sessions) => {
    const handle = mcpHandler(createStateBackend({ files: FILES }), { sessions, allowedOrigins: ['https://app.example'], enableJsonResponse: true });
    const preflight = await handle(
      new Request('http://127.0.0.1/mcp', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': sessions ? 'GET, POST, DELETE' : 'POST',
      'access-control-allow-headers': 'content-type, mcp-session-id',
    });
    const init = await handle(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { ...POST_HEADERS, origin: 'https://app.example' }, body: rpc('initialize', 1, INIT) }),
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(init.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    expect((await init.json()).result.serverInfo.name).toBe('agentvfs');
    const refused = await handle(new Request('http://127.0.0.1/mcp', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } }));
    expect([refused.status, refused.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    // Without allowedOrigins a request from any page is refused (MCP: servers must check Origin,
    // against DNS rebinding); one without an Origin is served. '*' lets every origin in.
    const closed = mcpHandler(createStateBackend({ files: FILES }), { sessions, enableJsonResponse: true });
    const initFrom = (origin: string | null) =>
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...POST_HEADERS, ...(origin === null ? {} : { origin }) },
        body: rpc('initialize', 1, INIT),
      });
    const page = await closed(initFrom('http://localhost:5173'));
    expect([page.status, page.headers.get('access-control-allow-origin')]).toEqual([403, null]);
    expect((await page.json()).error.message).toBe(
      'Forbidden: requests from origin "http://localhost:5173" are not allowed: list it in mcpHandler\'s allowedOrigins.',
    );
    expect((await closed(initFrom(null))).status).toBe(200);
    const open = mcpHandler(createStateBackend({ files: FILES }), { sessions, enableJsonResponse: true, allowedOrigins: '*' });
    const any = await open(initFrom('https://anywhere.example'));
    expect([any.status, any.headers.get('access-control-allow-origin')]).toEqual([200, 'https://anywhere.example']);
  });

  it('maxRequestBytes bounds a request body (413 before it is read whole)', async () => {
    const handle = mcpHandler(createStateBackend({ files: FILES }), { enableJsonResponse: true, maxRequestBytes: 1_000 });
    const big = await handle(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: POST_HEADERS, body: rpc('initialize', 1, { ...INIT, pad: 'x'.repeat(2_000) }) }),
    );
    expect(big.status).toBe(413);
    expect((await handle(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: POST_HEADERS, body: rpc('initialize', 1, INIT) }))).status).toBe(200);
    expect(() => mcpHandler(createStateBackend(), { maxRequestBytes: 0 })).toThrow(/maxRequestBytes must be a whole number of bytes above 0/);
  });

  it('stateless: every method but POST is 405 with Allow: POST', async () => {
    const handle = mcpHandler(createStateBackend({ files: FILES }));
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
      const answer = await handle(new Request('http://127.0.0.1/mcp', { method }));
      expect([method, answer.status, answer.headers.get('allow')]).toEqual([method, 405, 'POST']);
    }
  });
});
