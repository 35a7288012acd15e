/**
 * The wire contract between `agentvfs/client` and `agentvfs/worker`. Plain
 * types and data only: the transport (Comlink) is an implementation detail of
 * the two edges and never appears in the public API.
 */
import type { StateBackendOptions } from '../backend/types.ts';
import type { BackendMethod } from '../calls.ts';
import type { VfsErrorJSON } from '../errors.ts';
import type { DialectName } from '../tools/dialects/names.ts';
import type { ToolResult } from '../tools/types.ts';

/**
 * One backend call: the method name, then the arguments exactly as the caller passed them.
 * A call is a single flat array (one Comlink argument): every object in a message costs a
 * structured-clone round on each side, so the per-call message is kept as small as Comlink allows.
 */
export type BackendRequest = [method: BackendMethod, ...args: unknown[]];

/**
 * One tool call in tool set `sessionId` (created on first use, of `dialect`, sharing read tracking
 * with every tool set that names the same `shared` session id). The last two are left out for the
 * default: the six tools with a session of their own.
 */
export type ToolRequest = [sessionId: string, name: string, args: unknown, dialect?: DialectName, shared?: string];

export interface WorkerApi {
  /** Liveness and version check; answers as soon as the worker has loaded. */
  ping(): Promise<{ protocol: number }>;
  /** Configures the backend of a worker started without one (the prebuilt worker). Once, before any call. */
  init(options: StateBackendOptions | undefined): Promise<void>;
  call(request: BackendRequest): Promise<unknown>;
  tool(request: ToolRequest): Promise<ToolResult>;
  closeSession(sessionId: string): Promise<void>;
}

/** 4: a tool request may name a dialect and a shared session; 3: tool() resolves to a ToolResult (2: its text); 2: call() and tool() take one flat request array. */
export const PROTOCOL_VERSION = 4;

/** How a VfsError travels: its JSON form plus a tag, so the other side can rebuild it. */
export interface WireVfsError extends VfsErrorJSON {
  agentvfsError: true;
}

/**
 * Posted by a Web Worker that closes itself (self.close()) just before it goes: the page gets
 * no event when that happens, and its pending calls would otherwise wait forever.
 */
export const CLOSING_MESSAGE = { agentvfsWorkerClosing: true } as const;

export function isClosingMessage(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { agentvfsWorkerClosing?: unknown }).agentvfsWorkerClosing === true;
}
