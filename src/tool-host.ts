/**
 * The seam through which a backend runs the tools itself. It exists for backends whose files
 * live elsewhere: a RemoteBackend's tool calls run in its worker (one round trip each, the
 * session's read tracking kept there), and a persisted backend wraps its inner backend's tool
 * sessions to save after calls that changed files. createTools(backend) uses a backend's
 * createToolSession when it has one, and runs the tools in process over its methods otherwise.
 */
import type { Tools, ToolsOptions } from './tools/types.ts';

/** Wraps a tool set's calls (see createLocalTools). */
export type ToolsAround = (tools: Tools<string>) => Tools<string>;

export interface ToolHost {
  /**
   * A new tool set of `options.dialect` (its own read tracking, or `options.session`'s) that runs
   * each call where this backend's files live. createTools has checked the options, and runs
   * the audit (onEvent) around what this returns: leave each guarded call's `decision` on its
   * result, for the audit to take off. `around`, when given, wraps each call (a persistence
   * wrapper's save), so onEvent sees what it makes of the result. `here` (a persistence wrapper's
   * own): run the tools in this realm over the backend's methods, where a follower's read
   * tracking lives, even when the backend could run them where its files are.
   */
  createToolSession(options: ToolsOptions, around?: ToolsAround, here?: boolean): Tools<string>;
}

/** True when `backend` runs tool sessions itself (see ToolHost). */
export function isToolHost(backend: object): backend is ToolHost {
  return typeof (backend as Partial<ToolHost>).createToolSession === 'function';
}
