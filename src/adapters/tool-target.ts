/**
 * What every framework adapter accepts as its `target` (SPEC §7): a backend (in process, or a
 * RemoteBackend whose tools run in its worker) or a tool set from createTools, to share its
 * session (what it has read). Anything else is refused here, before a framework sees it.
 * The in-process tools load on a backend's first call (lazy-local-tools.ts), so a page whose
 * backend lives in a worker does not bundle them with the adapter.
 */
import type { Backend } from '../backend/types.ts';
import type { GuardOptions } from '../guard/types.ts';
import { describeTarget, isBackend } from '../tools/check-backend.ts';
import { lazyLocalTools } from '../tools/lazy-local-tools.ts';
import { numberedTools } from '../tools/numbered-tools.ts';
import type { Tools, ToolsOptions } from '../tools/types.ts';

/** What an adapter uses of a tool set (a tool set of one's own needs no `preview`). */
export type AdaptedTools = Pick<Tools<string>, 'definitions' | 'call' | 'run'>;

/** A backend or a tool set: what an adapter plugs into a framework. */
export type ToolTarget = Backend | AdaptedTools;

/** An adapter's guard options (permissions, approve, onEvent), only those given: for toTools. */
export function guardOf(options: GuardOptions): GuardOptions {
  const { permissions, approve, onEvent } = options;
  // Any value given is passed on (and checked there): null is refused, not dropped.
  return { ...(permissions !== undefined && { permissions }), ...(approve !== undefined && { approve }), ...(onEvent !== undefined && { onEvent }) };
}

/** The tool set for `target`: a new session over a backend (with `options`), or the tool set itself. */
export function toTools(target: ToolTarget, subpath: string, options: ToolsOptions<'agentvfs'> = {}): AdaptedTools {
  if (isToolSet(target)) {
    if (options.permissions || options.approve || options.onEvent) {
      throw new TypeError(
        `agentvfs/${subpath}: permissions, approve and onEvent belong to the tool set: pass them to createTools(backend, { … }) when you make it, or pass the backend here.`,
      );
    }
    return target;
  }
  if (isBackend(target)) return numberedTools(target, options, lazyLocalTools);
  throw new TypeError(
    `agentvfs/${subpath}: expected a backend (createStateBackend(), or connect(worker) from agentvfs/client) or a tool set from createTools(); got ${describeTarget(target)}.`,
  );
}

function isToolSet(value: unknown): value is AdaptedTools {
  const v = value as Partial<Tools> | null;
  return typeof v === 'object' && v !== null && Array.isArray(v.definitions) && typeof v.run === 'function' && typeof v.call === 'function';
}
