/**
 * The seam through which a backend runs the tools itself. It exists for backends whose files
 * live elsewhere: a RemoteBackend's tool calls run in its worker (one round trip each, the
 * session's read tracking kept there), and a persisted backend wraps its inner backend's tool
 * sessions to save after calls that changed files. createTools(backend) uses a backend's
 * createToolSession when it has one, and runs the tools in process over its methods otherwise.
 */
import type { Tools, ToolsOptions } from './tools/types.ts';

export interface ToolHost {
  /** A new tool session (its own read tracking) that runs each call where this backend's files live. */
  createToolSession(options: ToolsOptions): Tools;
}

/** True when `backend` runs tool sessions itself (see ToolHost). */
export function isToolHost(backend: object): backend is ToolHost {
  return typeof (backend as Partial<ToolHost>).createToolSession === 'function';
}
