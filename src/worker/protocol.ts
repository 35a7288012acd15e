/**
 * The wire contract between `agentvfs/client` and `agentvfs/worker`. Plain
 * types and data only: the transport (Comlink) is an implementation detail of
 * the two edges and never appears in the public API.
 */
import type { Backend, StateBackendOptions } from '../backend/types.ts';
import type { VfsErrorJSON } from '../errors.ts';

/** Backend methods a client may call, by name. */
export const BACKEND_METHODS = [
  'resolvePath',
  'ls',
  'stat',
  'exists',
  'readFile',
  'readText',
  'read',
  'writeFile',
  'edit',
  'mkdir',
  'remove',
  'rename',
  'glob',
  'grep',
  'uploadFiles',
  'downloadFiles',
  'prepareSearch',
  'snapshot',
  'restore',
  'checkpoint',
  'listCheckpoints',
  'rollback',
  'diff',
  'deleteCheckpoint',
] as const satisfies ReadonlyArray<keyof Backend>;

export type BackendMethod = (typeof BACKEND_METHODS)[number];

/**
 * One backend call: the method name, then the arguments exactly as the caller passed them.
 * A call is a single flat array (one Comlink argument): every object in a message costs a
 * structured-clone round on each side, so the per-call message is kept as small as Comlink allows.
 */
export type BackendRequest = [method: BackendMethod, ...args: unknown[]];

/** One tool call in session `sessionId` (created on first use). */
export type ToolRequest = [sessionId: string, name: string, args: unknown];

/** Methods whose results hold Uint8Arrays made for the call: the worker moves (transfers) them. */
export const BYTE_RESULT_METHODS = ['readFile', 'read', 'downloadFiles', 'snapshot'] as const satisfies ReadonlyArray<BackendMethod>;

export interface WorkerApi {
  /** Liveness and version check; answers as soon as the worker has loaded. */
  ping(): Promise<{ protocol: number }>;
  /** Configures the backend of a worker started without one (the prebuilt worker). Once, before any call. */
  init(options: StateBackendOptions | undefined): Promise<void>;
  call(request: BackendRequest): Promise<unknown>;
  tool(request: ToolRequest): Promise<string>;
  closeSession(sessionId: string): Promise<void>;
}

/** 2: call() and tool() take one flat request array (1 passed separate arguments). */
export const PROTOCOL_VERSION = 2;

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
