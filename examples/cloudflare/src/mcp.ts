/**
 * /mcp: the session's tools over MCP's Streamable HTTP transport, one Durable Object per MCP
 * session. The Worker owns the session ids: an `initialize` without `Mcp-Session-Id` creates a new
 * object and the response carries its id; every later request with that header goes to that
 * object, which serves it with agentvfs/mcp's handler; DELETE ends the session and deletes what it
 * stored. Because the object keeps the files (and saves them), a session outlives the object's
 * instance: after an eviction the next request finds its files restored.
 */
import { type AgentFsSession, mcpError } from './session.ts';
import type { Env } from './shared.ts';

// The ids this Worker hands out (crypto.randomUUID()); anything else cannot name a session.
const MCP_SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// A name of its own, so an MCP session never shares an object with a /sessions/:id session.
const objectFor = (env: Env, id: string): DurableObjectStub<AgentFsSession> => env.SESSIONS.get(env.SESSIONS.idFromName(`mcp/${id}`));

export async function routeMcp(request: Request, env: Env, maxBodyBytes: number): Promise<Response> {
  // No server-sent event stream is offered (responses come as JSON), so a GET is answered here,
  // without waking (and loading) the session's object.
  if (request.method !== 'POST' && request.method !== 'DELETE') {
    return new Response(null, { status: 405, headers: { allow: 'POST, DELETE', 'cache-control': 'no-store' } });
  }
  // MCP requires a server to check Origin (DNS rebinding): this one serves MCP clients outside a
  // browser, which send none. Refused here, before a session (and its storage) is made.
  const origin = request.headers.get('origin');
  if (origin !== null)
    return mcpError(403, `Forbidden: requests from origin ${JSON.stringify(origin)} are not allowed (this server serves MCP clients outside a browser).`);
  // Read here, whole and bounded: a body streamed on to the object could still be read after this
  // Worker has answered (when the object answers without reading it), which workerd refuses.
  const body = request.method === 'POST' ? await readBody(request, maxBodyBytes) : undefined;
  if (body instanceof Response) return body;
  const id = request.headers.get('mcp-session-id');
  if (id === null) return startSession(request, env, body);
  if (!MCP_SESSION_ID.test(id)) return mcpError(404, 'Session not found');
  const object = objectFor(env, id);
  if (request.method === 'DELETE') {
    const outcome = await object.destroy(); // an RPC result is a structured clone of it
    return outcome.ok ? new Response(null, { status: 200 }) : mcpError(outcome.status, outcome.error.message);
  }
  return withSessionId(await object.fetch(new Request(request.url, { method: request.method, headers: request.headers, body })), id);
}

async function startSession(request: Request, env: Env, body: string | undefined): Promise<Response> {
  if (body === undefined) return mcpError(400, 'Bad Request: Mcp-Session-Id header is required');
  if (!isInitialize(body)) return mcpError(400, 'Bad Request: Mcp-Session-Id header is required (only an initialize request starts a session)');
  const id = crypto.randomUUID();
  const object = objectFor(env, id);
  const created = await object.create({});
  if (!created.ok) return mcpError(created.status, created.error.message);
  return withSessionId(await object.fetch(new Request(request.url, { method: 'POST', headers: request.headers, body })), id);
}

/** The body as text, or a 413 answer when it is over the limit (by Content-Length or as read). */
async function readBody(request: Request, max: number): Promise<string | Response> {
  const tooLarge = () => mcpError(413, `The request body is over the limit of ${max} bytes.`);
  if (Number(request.headers.get('content-length') ?? 0) > max) return tooLarge();
  const bytes = await request.arrayBuffer();
  return bytes.byteLength > max ? tooLarge() : new TextDecoder().decode(bytes);
}

function isInitialize(body: string): boolean {
  try {
    const message = JSON.parse(body) as unknown;
    const messages = Array.isArray(message) ? message : [message];
    return messages.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
  } catch {
    return false;
  }
}

function withSessionId(response: Response, id: string): Response {
  const headers = new Headers(response.headers);
  headers.set('mcp-session-id', id);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
