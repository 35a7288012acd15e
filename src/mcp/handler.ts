/**
 * mcpHandler(target): MCP's Streamable HTTP transport as a web-standard fetch handler, for any
 * runtime with Request and Response (Node, Deno, Bun, workerd, a service worker).
 */
import { checkToolChoice } from '../adapters/include.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';
import { guardOf, type ToolTarget, toTools } from '../adapters/tool-target.ts';
import { MCP_SERVER_OPTIONS, serverFor, type McpServerOptions } from './create-server.ts';
import { WebStandardStreamableHTTPServerTransport } from './peer.ts';

export interface McpHandlerOptions extends McpServerOptions {
  /**
   * false (default): stateless; every request is served on its own and all clients share one
   * tool session (read tracking). true: a client's `initialize` opens a session (the
   * `Mcp-Session-Id` header) with a tool session of its own, kept until the client sends DELETE.
   */
  sessions?: boolean | undefined;
  /**
   * With sessions: a session that gets no request for this long is ended (its tool session
   * freed); its client's next request gets 404 and, as MCP clients do, starts a new session.
   * Default 30 minutes. A client that goes away without DELETE would otherwise be kept forever.
   */
  sessionIdleMs?: number | undefined;
  /** With sessions: the most kept at once; opening one more ends the one idle longest. Default 1,000. */
  maxSessions?: number | undefined;
  /** Answer with one JSON body instead of an SSE stream. Default false (as the SDK). */
  enableJsonResponse?: boolean | undefined;
  /**
   * The `Origin` header values a request may carry (e.g. `['https://app.example']`), or `'*'` for
   * any. A request that carries another gets 403, before anything is read, as MCP requires (a page
   * on another site must not reach a server on localhost through DNS rebinding). Requests without
   * an Origin (other servers, CLIs, MCP clients outside a browser) are served. A page on an allowed
   * origin may call the server from another origin (CORS: preflights answered, `Mcp-Session-Id`
   * readable). Default: none, so every request from a browser page is refused.
   */
  allowedOrigins?: readonly string[] | '*' | undefined;
  /** The largest request body, in bytes (a bigger one gets 413 before it is read whole). Default 4 MiB, as the SDK's. */
  maxRequestBytes?: number | undefined;
}

type Transport = InstanceType<typeof WebStandardStreamableHTTPServerTransport>;

const MCP_HANDLER_OPTIONS = [
  ...MCP_SERVER_OPTIONS,
  ...optionNames<Omit<McpHandlerOptions, keyof McpServerOptions>>({
    sessions: true,
    sessionIdleMs: true,
    maxSessions: true,
    enableJsonResponse: true,
    allowedOrigins: true,
    maxRequestBytes: true,
  }),
];

export function mcpHandler(target: ToolTarget, options: McpHandlerOptions = {}): (request: Request) => Promise<Response> {
  checkOptionNames(options, MCP_HANDLER_OPTIONS, 'agentvfs/mcp: mcpHandler');
  const {
    sessions = false,
    enableJsonResponse = false,
    sessionIdleMs = 30 * 60_000,
    maxSessions = 1_000,
    allowedOrigins = [],
    maxRequestBytes = 4 * 1024 * 1024,
    ...serverOptions
  } = options;
  if (allowedOrigins !== '*' && (!Array.isArray(allowedOrigins) || !allowedOrigins.every((o) => typeof o === 'string'))) {
    throw new TypeError(`agentvfs/mcp: allowedOrigins must be an array of origins (like "https://app.example") or "*", not ${JSON.stringify(allowedOrigins)}.`);
  }
  for (const [name, value] of Object.entries({ sessions, enableJsonResponse })) {
    if (typeof value !== 'boolean') throw new TypeError(`agentvfs/mcp: ${name} must be true or false, not ${JSON.stringify(value)}.`);
  }
  if (!Number.isInteger(maxRequestBytes) || maxRequestBytes < 1) {
    throw new TypeError(`agentvfs/mcp: maxRequestBytes must be a whole number of bytes above 0, not ${JSON.stringify(maxRequestBytes)}.`);
  }
  const transportOptions = { enableJsonResponse, maxRequestBodySize: maxRequestBytes };
  const handler = serve(target, sessions, transportOptions, sessionIdleMs, maxSessions, serverOptions);
  const methods = sessions ? 'GET, POST, DELETE' : 'POST';
  return async (request) => {
    const origin = request.headers.get('origin');
    if (origin === null) return handler(request);
    if (allowedOrigins !== '*' && !allowedOrigins.includes(origin)) return forbiddenOrigin(origin);
    if (request.method === 'OPTIONS') return preflight(origin, methods, request.headers.get('access-control-request-headers'));
    return withCors(await handler(request), origin);
  };
}

// The headers MCP's Streamable HTTP requests carry besides the simple ones.
const REQUEST_HEADERS = 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id';

/** The answer to a browser's CORS preflight from an allowed origin. */
function preflight(origin: string, methods: string, asked: string | null): Response {
  return new web.Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': asked ?? REQUEST_HEADERS,
      'access-control-max-age': '86400',
      vary: 'Origin',
    },
  });
}

/** `response` readable by a page on `origin`, the session id included (the SSE body streams through as it is). */
function withCors(response: Response, origin: string): Response {
  const headers = new web.Headers(response.headers);
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version');
  headers.append('vary', 'Origin');
  // The body (an SSE stream) passes through untouched; its type is the runtime's.
  const { body } = response as Response & { body: unknown };
  return new web.Response(body, { status: response.status, statusText: response.statusText, headers });
}

function serve(
  target: ToolTarget,
  sessions: boolean,
  transportOptions: { enableJsonResponse: boolean; maxRequestBodySize: number },
  sessionIdleMs: number,
  maxSessions: number,
  serverOptions: McpServerOptions,
): (request: Request) => Promise<Response> {
  if (typeof sessionIdleMs !== 'number' || !(sessionIdleMs > 0)) {
    throw new TypeError(`agentvfs/mcp: sessionIdleMs must be a number of milliseconds above 0 (Infinity: never), not ${JSON.stringify(sessionIdleMs)}.`);
  }
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new TypeError(`agentvfs/mcp: maxSessions must be an integer of at least 1, not ${JSON.stringify(maxSessions)}.`);
  }
  // Checked now, so a wrong target or option fails where the handler is made, not at the first request.
  const guard = guardOf(serverOptions);
  const shared = toTools(target, 'mcp', guard);
  checkToolChoice(
    serverOptions,
    'mcp',
    shared.definitions.map((d) => d.name),
  );
  if (!sessions) {
    return async (request) => {
      // No session, so no stream of its own to open (a per-request server would never write to it,
      // and it would hold the connection open) and nothing to end: MCP's answer for GET and DELETE
      // is 405, and every method but POST gets the same.
      if (request.method !== 'POST') return methodNotAllowed();
      // A stateless transport serves one request (the SDK refuses to reuse it), and an McpServer connects once.
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, ...transportOptions });
      await serverFor(shared, serverOptions).connect(transport);
      return transport.handleRequest(request);
    };
  }

  // In order of last use (a use moves a session to the end), so the idlest come first.
  const open = new Map<string, { transport: Transport; usedAt: number }>();
  const end = (id: string) => {
    const session = open.get(id);
    open.delete(id);
    void session?.transport.close().catch(() => {});
  };
  return async (request) => {
    const now = Date.now();
    for (const [id, session] of open) {
      if (now - session.usedAt <= sessionIdleMs) break;
      end(id);
    }
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const session = open.get(id);
      if (!session) return sessionNotFound();
      open.delete(id);
      open.set(id, { transport: session.transport, usedAt: now });
      return session.transport.handleRequest(request);
    }
    // No session yet: the transport accepts only an initialize request here (400 otherwise).
    const transport: Transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomId,
      ...transportOptions,
      onsessioninitialized: (sessionId) => {
        open.set(sessionId, { transport, usedAt: Date.now() });
        if (open.size > maxSessions) end(open.keys().next().value!);
      },
      onsessionclosed: (sessionId) => {
        open.delete(sessionId);
      },
    });
    // A backend gets a new tool session per MCP session; a tool set given as the target is shared.
    await serverFor(toTools(target, 'mcp', guard), serverOptions).connect(transport);
    return transport.handleRequest(request);
  };
}

// Only runtime globals every target runtime has; reached through globalThis so that the core's
// type environment stays free of DOM and Node declarations.
const web = globalThis as unknown as {
  crypto: { randomUUID(): string };
  Response: new (body: unknown, init: { status: number; statusText?: string; headers: Record<string, string> | Headers }) => Response;
  Headers: new (init: Headers) => Headers;
};

const randomId = (): string => web.crypto.randomUUID();

/** What the SDK's transport answers for an unknown session: the client then starts a new one. */
function sessionNotFound(): Response {
  return jsonRpcError(404, -32001, 'Session not found');
}

function forbiddenOrigin(origin: string): Response {
  return jsonRpcError(403, -32000, `Forbidden: requests from origin ${JSON.stringify(origin)} are not allowed: list it in mcpHandler's allowedOrigins.`);
}

function methodNotAllowed(): Response {
  return jsonRpcError(405, -32000, 'Method not allowed: this stateless server has no stream to open and no session to end; send requests with POST.', {
    allow: 'POST',
  });
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  return new web.Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
}
