/**
 * The wire contract between `agentvfs/client` and `agentvfs/worker`. Plain
 * types and data only: the transport (Comlink) is an implementation detail of
 * the two edges and never appears in the public API.
 */
import type { StateBackendOptions, WatchEvent, WatchOptions } from '../backend/types.ts';
import type { BackendMethod } from '../calls.ts';
import type { VfsErrorJSON } from '../errors.ts';
import type { Permissions } from '../guard/types.ts';
import type { DialectName } from '../tools/dialects/names.ts';
import type { PreviewOptions, ToolPreview, ToolResult } from '../tools/types.ts';
import type { CallContext } from '../tools/read-versions.ts';

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
export type ToolRequest = [sessionId: string, name: string, args: unknown, dialect?: DialectName, shared?: string, call?: CallContext];

/** A preview (Tools.preview) in a tool set, named as in a ToolRequest; `after`: PreviewOptions.after. */
export type PreviewRequest = [sessionId: string, name: string, args: unknown, dialect?: DialectName, shared?: string, after?: PreviewOptions['after']];

/**
 * Opens a guarded tool set before its first call: its permissions, the port its approve() is
 * asked through (on the caller's side) if it has one, its dialect and shared session as in a
 * ToolRequest. Its results carry the call's decision.
 */
export type SessionRequest = [sessionId: string, permissions: Permissions | undefined, approvePort: unknown, dialect?: DialectName, shared?: string];

export interface WorkerApi {
  /** Liveness and version check; answers as soon as the worker has loaded. */
  ping(): Promise<{ protocol: number; id: string }>;
  /** Configures the backend of a worker started without one (the prebuilt worker). Once, before any call. */
  init(options: StateBackendOptions | undefined): Promise<void>;
  call(request: BackendRequest): Promise<unknown>;
  tool(request: ToolRequest): Promise<ToolResult>;
  /** What a tool call would write (Tools.preview), in tool set `sessionId`. */
  preview(request: PreviewRequest): Promise<ToolPreview>;
  openSession(request: SessionRequest): void;
  closeSession(sessionId: string): Promise<void>;
  /** The caller cancelled call `n` of tool set `sessionId` (its signal aborted): the call, if still running, sees it. */
  cancelCall(sessionId: string, n: number): void;
  /** Subscribes watch `id` in the backend; its events come back as WatchMessages. */
  watch(id: string, options: WatchOptions | undefined): Promise<void>;
  unwatch(id: string): Promise<void>;
  /** Forks the backend; the fork is served on `port` (the other end of the client's MessageChannel) and named `id`. */
  fork(id: string, port: unknown): Promise<void>;
  /** A fork's client is done with it: the worker forgets it and closes its port. */
  release(): Promise<void>;
}

/** How a RemoteBackend passed as an argument (merge, diff) names the backend it stands for in the worker. */
export interface BackendRef {
  agentvfsBackend: string;
}

export function isBackendRef(data: unknown): data is BackendRef {
  return typeof data === 'object' && data !== null && typeof (data as { agentvfsBackend?: unknown }).agentvfsBackend === 'string';
}

/** One commit's events for watch `agentvfsWatch`, posted by the worker on the channel its answers use. */
export interface WatchMessage {
  agentvfsWatch: string;
  events: WatchEvent[];
}

export function isWatchMessage(data: unknown): data is WatchMessage {
  return typeof data === 'object' && data !== null && typeof (data as { agentvfsWatch?: unknown }).agentvfsWatch === 'string';
}

/** 9: preview(); 8: cancelCall(); 7: fork(), release(), BackendRef arguments, ping() gives the backend's id; 6: openSession() (guarded sessions); 5: watch() and unwatch(); 4: a tool request may name a dialect and a shared session; 3: tool() resolves to a ToolResult (2: its text); 2: call() and tool() take one flat request array. */
export const PROTOCOL_VERSION = 9;

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
