/**
 * The audit side of a tool set: times each call and hands onEvent one event per finished call,
 * numbered in the order the calls finished. It runs where the caller is (for a worker's tool
 * session too), and takes the call's decision off the result, where the guard left it.
 */
import type { ToolResult, Tools } from '../tools/types.ts';
import { runWithin, toolSet } from '../tools/tool-set.ts';
import type { CallTag } from '../tools/read-versions.ts';
import type { Decision, OnEvent } from './types.ts';

/** A tool result as a guarded session returns it, before the audit takes the decision off. */
export type DecidedResult = ToolResult & { decision?: Decision };

export function withAudit<N extends string>(tools: Tools<N>, onEvent: OnEvent | undefined): Tools<N> {
  let seq = 0;
  const emit = (event: Parameters<OnEvent>[0]) => {
    try {
      // An async callback's failure too (a rejection nobody handles would end a Node process).
      const returned = onEvent!(event) as unknown;
      if (typeof (returned as PromiseLike<unknown> | null)?.then === 'function') {
        // (What a hand-made thenable's then returns may reject too.)
        Promise.resolve((returned as PromiseLike<unknown>).then(undefined, () => {})).catch(() => {});
      }
    } catch {
      // A failing audit callback must not turn a done call into a failed one; the call's effect stands.
    }
  };
  const run = async (name: string, args?: unknown, call?: CallTag): Promise<ToolResult> => {
    const started = Date.now();
    let decided: DecidedResult;
    try {
      decided = await runWithin(tools, name, args, call);
    } catch (error) {
      // Only the transport fails here (a worker that is gone): the call's outcome is unknown.
      if (onEvent) emit({ seq: ++seq, tool: name, args, ok: false, changed: [], ms: Date.now() - started });
      throw error;
    }
    const { decision, ...result } = decided;
    if (onEvent) {
      emit({
        seq: ++seq,
        tool: name,
        args,
        ok: !result.isError,
        ...(result.code === undefined ? {} : { code: result.code }),
        changed: result.changed,
        ...(decision === undefined ? {} : { decision }),
        ms: Date.now() - started,
      });
    }
    return result;
  };
  // A preview is not a call: no event.
  return toolSet(tools.definitions, run, tools.preview);
}
