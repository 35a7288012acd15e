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
  'snapshot',
  'restore',
  'checkpoint',
  'listCheckpoints',
  'rollback',
  'diff',
  'deleteCheckpoint',
] as const satisfies ReadonlyArray<keyof Backend>;

export type BackendMethod = (typeof BACKEND_METHODS)[number];

export interface WorkerApi {
  /** Liveness and version check; answers as soon as the worker has loaded. */
  ping(): Promise<{ protocol: number }>;
  /** Configures the backend of a worker started without one (the prebuilt worker). Once, before any call. */
  init(options: StateBackendOptions | undefined): Promise<void>;
  call(method: BackendMethod, args: unknown[]): Promise<unknown>;
  /** Runs a tool in session `sessionId` (created on first use). */
  tool(sessionId: string, name: string, args: unknown): Promise<string>;
  closeSession(sessionId: string): Promise<void>;
}

export const PROTOCOL_VERSION = 1;

/** How a VfsError travels: its JSON form plus a tag, so the other side can rebuild it. */
export interface WireVfsError extends VfsErrorJSON {
  agentvfsError: true;
}
