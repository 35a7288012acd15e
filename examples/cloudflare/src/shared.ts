import { TOOL_NAMES as CORE_TOOL_NAMES, type Limits } from 'agentvfs';
import type { AgentFsSession } from './session.ts';

export interface Env {
  SESSIONS: DurableObjectNamespace<AgentFsSession>;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  MAX_BODY_BYTES?: string;
}

/** The JSON body of every error response: `{ "error": ApiError }`. */
export interface ApiError {
  code: string;
  message: string;
  /** SNAPSHOT_CORRUPT: why the stored workspace could not be opened; PERSIST_FAILED: what the store said. */
  reason?: string;
  /** NOTHING_READS: the keys of the records kept aside that do not read. */
  leftOut?: readonly string[];
  /** UNKNOWN_TOOL: the tools there are. */
  tools?: readonly string[];
  /** BODY_TOO_LARGE: the limit, in bytes. */
  limit?: number;
}

export const TOOL_NAMES: readonly string[] = CORE_TOOL_NAMES;

/**
 * Per-session limits, well inside a Durable Object's 128 MB of memory: the filesystem and,
 * while it opens, the records read from storage must fit at once.
 */
export const SESSION_LIMITS: Partial<Limits> = {
  maxTotalBytes: 32 * 1024 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  maxFiles: 20_000,
};
