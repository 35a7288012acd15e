/// <reference lib="dom" />
// mcpHandler with allowedOrigins, called from a page on another origin in real Chromium: the
// browser's own CORS rules decide (preflight, reading Mcp-Session-Id), not a test's reading of headers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
// The built package (npm test builds it first), by its own name as users import it.
import { createStateBackend } from 'agentvfs';
import { mcpHandler } from 'agentvfs/mcp';

type Handle = (request: Request) => Promise<Response>;
const servers: Server[] = [];

async function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

/** Node's http to the fetch handler and back. */
const adapt = (handle: Handle) => async (req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const body = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' ? undefined : Buffer.concat(chunks);
  const response = await handle(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
};

test.afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

test('a page on an allowed origin calls the server across origins, session id included; another origin cannot', async ({ page }) => {
  const pagePort = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>client</title>'));
  const allowed = `http://127.0.0.1:${pagePort}`;
  const backend = createStateBackend({ files: { '/notes.md': '# Notes\n' } });
  const mcpPort = await listen(adapt(mcpHandler(backend, { sessions: true, enableJsonResponse: true, allowedOrigins: [allowed] })));
  const url = `http://127.0.0.1:${mcpPort}/mcp`;

  const session = async (origin: string) => {
    await page.goto(`${origin}/`);
    return page.evaluate(async (url) => {
      const post = (body: object, session?: string) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session ? { 'mcp-session-id': session } : {}) },
          body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        });
      try {
        const init = await post({
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
        });
        const id = init.headers.get('mcp-session-id');
        if (id === null) return { error: 'no session id readable' };
        await post({ method: 'notifications/initialized' }, id);
        const call = await post({ id: 2, method: 'tools/call', params: { name: 'read_file', arguments: { path: '/notes.md' } } }, id);
        const result = (await call.json()) as { result: { content: Array<{ text: string }> } };
        return { text: result.result.content[0]!.text };
      } catch (error) {
        return { error: String(error) };
      }
    }, url);
  };

  expect(await session(allowed)).toEqual({ text: '     1\t# Notes' });
  // localhost is another origin than 127.0.0.1, and not allowed: the browser gets no answer it may read.
  expect(await session(`http://localhost:${pagePort}`)).toEqual({ error: 'TypeError: Failed to fetch' });
});
