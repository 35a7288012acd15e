/**
 * How a backend can run the tools itself: a remote backend (the worker client)
 * implements this so `createTools(remote)` sends each tool call to where the
 * backend lives, as one round trip, with the session kept there too.
 */
import type { Tools, ToolsOptions } from './tools/create-tools.ts';

export const TOOL_HOST: unique symbol = Symbol.for('agentvfs.toolHost') as never;

export interface ToolHost {
  [TOOL_HOST](options: ToolsOptions): Tools;
}

export function isToolHost(value: unknown): value is ToolHost {
  return typeof value === 'object' && value !== null && typeof (value as Partial<ToolHost>)[TOOL_HOST] === 'function';
}
