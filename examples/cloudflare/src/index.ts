/**
 * agentvfs on Cloudflare Workers: the six agent file tools over HTTP/JSON, one filesystem
 * per session, each session a Durable Object (see session.ts) that persists every mutation.
 *
 *   POST   /sessions                     {"id"?, "files"?} → 201 {"id", "generation"}
 *   GET    /sessions/:id                 → session info (generation, corrupt?, what was kept aside)
 *   GET    /tools                        → tool definitions for the model
 *   POST   /sessions/:id/tools/:tool     args as a JSON object → {"result", "is_error", "generation"}
 *   GET    /sessions/:id/snapshot        → a snapshot of the files (when corrupt: what still reads of what was kept aside)
 *   POST   /sessions/:id/recover         → a corrupt session starts empty (the bad data stays kept aside)
 *   DELETE /sessions/:id                 → delete the session
 *   POST/DELETE /mcp                     → MCP over Streamable HTTP, one session per object (see mcp.ts; GET is 405)
 *
 * Errors are JSON `{"error": {"code", "message", …}}` with a 4xx/5xx status.
 */
import { createStateBackend, createTools } from 'agentvfs';
import { routeMcp } from './mcp.ts';
import type { AgentFsSession, CallOutcome } from './session.ts';
import { TOOL_NAMES, type ApiError, type Env } from './shared.ts';

export { AgentFsSession } from './session.ts';

const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }
}

const fail = (status: number, code: string, message: string, extra: Omit<ApiError, 'code' | 'message'> = {}, headers?: Record<string, string>) =>
  new HttpError(status, { code, message, ...extra }, headers);

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'cache-control': 'no-store', ...headers } });
}

function fromOutcome(rpcOutcome: unknown, okStatus = 200): Response {
  const outcome = rpcOutcome as CallOutcome; // an RPC result is a structured clone of it
  if (!outcome.ok) return json({ error: outcome.error }, outcome.status);
  return json({ result: outcome.result, is_error: outcome.is_error, generation: outcome.generation }, okStatus);
}

/** Reads the body as JSON, refusing more than `max` bytes whatever Content-Length claims. */
async function readJson(request: Request, max: number, { optional = false } = {}): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > max) throw fail(413, 'BODY_TOO_LARGE', `The request body is ${declared} bytes; the limit is ${max} bytes.`, { limit: max });
  const parts: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel();
        throw fail(413, 'BODY_TOO_LARGE', `The request body is over the limit of ${max} bytes.`, { limit: max });
      }
      parts.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    bytes.set(p, offset);
    offset += p.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw fail(400, 'INVALID_JSON', 'The request body is not valid UTF-8.');
  }
  if (text.trim() === '') {
    if (optional) return undefined;
    throw fail(400, 'INVALID_JSON', 'The request body is empty; send a JSON object (use {} for no arguments).');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw fail(400, 'INVALID_JSON', `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function session(env: Env, id: string): DurableObjectStub<AgentFsSession> {
  if (!SESSION_ID.test(id)) throw fail(400, 'INVALID_SESSION_ID', 'A session id is 1 to 64 characters from A-Z, a-z, 0-9, "_" and "-".');
  return env.SESSIONS.get(env.SESSIONS.idFromName(id));
}

function allow(request: Request, ...methods: string[]): void {
  if (!methods.includes(request.method)) {
    throw fail(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${methods.join(' or ')}.`, {}, { allow: methods.join(', ') });
  }
}

async function route(request: Request, env: Env): Promise<Response> {
  const max = Number(env.MAX_BODY_BYTES ?? DEFAULT_MAX_BODY_BYTES) || DEFAULT_MAX_BODY_BYTES;
  const parts = new URL(request.url).pathname.split('/').filter(Boolean).map(decodeURIComponent);

  if (parts.length === 1 && parts[0] === 'mcp') return routeMcp(request, env, max);
  if (parts.length === 1 && parts[0] === 'tools') {
    allow(request, 'GET');
    return json({ tools: createTools(createStateBackend()).definitions });
  }
  if (parts[0] !== 'sessions') throw fail(404, 'NOT_FOUND', `No route for ${new URL(request.url).pathname}. See GET /tools and POST /sessions.`);

  if (parts.length === 1) {
    allow(request, 'POST');
    const body = (await readJson(request, max, { optional: true })) ?? {};
    if (!isPlainObject(body)) throw fail(400, 'INVALID_BODY', 'Send a JSON object: {"id"?: string, "files"?: {path: text}}.');
    const files = body.files ?? {};
    if (!isPlainObject(files) || !Object.values(files).every((v) => typeof v === 'string')) {
      throw fail(400, 'INVALID_BODY', '"files" must be an object mapping paths to text contents.');
    }
    const id = body.id === undefined ? crypto.randomUUID() : body.id;
    if (typeof id !== 'string') throw fail(400, 'INVALID_SESSION_ID', '"id" must be a string.');
    const outcome = await session(env, id).create(files as Record<string, string>);
    if (!outcome.ok) return json({ error: outcome.error }, outcome.status);
    return json({ id, generation: outcome.generation }, 201, { location: `/sessions/${encodeURIComponent(id)}` });
  }

  const stub = session(env, parts[1]!);
  const rest = parts.slice(2);
  if (rest.length === 0) {
    allow(request, 'GET', 'DELETE');
    if (request.method === 'DELETE') return fromOutcome(await stub.destroy());
    const info = await stub.info();
    if ('ok' in info) return fromOutcome(info);
    if (!info.exists) throw fail(404, 'UNKNOWN_SESSION', `No session "${parts[1]}". Create one with POST /sessions first.`);
    return json(info);
  }
  if (rest.length === 2 && rest[0] === 'tools') {
    allow(request, 'POST');
    const tool = rest[1]!;
    // Refused here, before the object is woken or the body read.
    if (!TOOL_NAMES.includes(tool)) throw fail(404, 'UNKNOWN_TOOL', `Unknown tool "${tool}". Tools: ${TOOL_NAMES.join(', ')}.`, { tools: TOOL_NAMES });
    const args = await readJson(request, max);
    if (!isPlainObject(args))
      throw fail(
        400,
        'INVALID_ARGUMENTS',
        `The body must be a JSON object of arguments for ${tool}, not ${Array.isArray(args) ? 'an array' : typeof args === 'object' ? 'null' : `a ${typeof args}`}.`,
      );
    return fromOutcome(await stub.call(tool, args));
  }
  if (rest.length === 1 && rest[0] === 'snapshot') {
    allow(request, 'GET');
    const stored = await stub.storedSnapshot();
    if ('ok' in stored) return fromOutcome(stored);
    if (stored.bytes === null) {
      throw fail(409, 'NOTHING_READS', 'Nothing of the workspace kept aside still reads; its records stay in storage as they were.', {
        leftOut: stored.leftOut,
      });
    }
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream', 'cache-control': 'no-store' };
    // Of a corrupt session: the records that did not read, left out of the snapshot (still in storage).
    if (stored.leftOut.length > 0) headers['x-agentvfs-left-out'] = String(stored.leftOut.length);
    return new Response(stored.bytes, { headers });
  }
  if (rest.length === 1 && rest[0] === 'recover') {
    allow(request, 'POST');
    return fromOutcome(await stub.recover());
  }
  throw fail(404, 'NOT_FOUND', `No route for ${new URL(request.url).pathname}.`);
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      return await route(request, env);
    } catch (error) {
      if (error instanceof HttpError) return json({ error: error.error }, error.status, error.headers);
      if (error instanceof URIError) return json({ error: { code: 'INVALID_PATH', message: 'The URL path is not valid percent-encoding.' } }, 400);
      console.error(error);
      return json({ error: { code: 'INTERNAL', message: 'Internal error; nothing was acknowledged.' } }, 500);
    }
  },
} satisfies ExportedHandler<Env>;
