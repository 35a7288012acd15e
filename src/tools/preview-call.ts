/**
 * Tools.preview: the call runs on a scratch fork of the backend (look-ahead.ts: the backend is
 * untouched), over a guarded view whose approve() notes each question and says yes. So the
 * questions noted are everything the call would write, each with the diff the guard computes for a
 * real question, and a write the backend itself would refuse (a limit, a file in the way) fails as
 * the call would. A backend with no scratch fork (a custom one, one in a worker the tools do not
 * run in), or one that cannot write now (a tab following another's workspace), is looked at
 * directly: the call runs as far as its first change, where it stops (or which the backend refuses,
 * as it would the call's). Every tool makes its change in one backend call (a patch is one
 * applyBatch, asked about file by file before it is made), so the questions are all noted by then.
 */
import type { Backend } from '../backend/types.ts';
import { scratchForkOf } from '../backend/look-ahead.ts';
import { BACKEND_CALLS, BACKEND_METHODS, callMayWrite, toolCall } from '../calls.ts';
import { isWorkerGoneError } from '../errors.ts';
import { guardCall } from '../guard/guarded-backend.ts';
import { compilePermissions } from '../guard/permissions.ts';
import type { GuardSession } from '../guard/session.ts';
import type { ApprovalRequest } from '../guard/types.ts';
import type { ToolDefinition } from './definitions.ts';
import type { ReadVersions } from './read-versions.ts';
import { callChecker, type ArgsValidator, type HandlersFor } from './run-tool.ts';
import { toolError } from './tool-error.ts';
import { failedPreview, type PreviewCall } from './tool-set.ts';
import type { PreviewedChange } from './types.ts';

// Not changes of the files, but of the backend beside them: a preview makes none of those either.
const NOT_FOR_A_PREVIEW = new Set<string>(['checkpoint', 'deleteCheckpoint', 'fork', 'watch', 'prepareSearch']);

/** Thrown by the stopping backend where the call would change something: the call ends there. */
class PreviewStop extends Error {}

export function toolPreviewer<N extends string>(
  definitions: readonly ToolDefinition<N>[],
  handlersFor: HandlersFor<N>,
  backend: Backend,
  reads: ReadVersions,
  validators: Partial<Record<N, ArgsValidator>> = {},
  guard?: GuardSession,
  dialect?: string,
): PreviewCall {
  const check = callChecker(definitions, validators);
  const rules = guard?.rules ?? compilePermissions(undefined);
  const session = (approve: GuardSession['approve']): GuardSession => ({ rules, ...(dialect === undefined ? {} : { dialect }), approve, always: false });
  return async (name, args, options = {}) => {
    const checkedCall = check(name, args);
    if ('isError' in checkedCall) return failedPreview(checkedCall);
    const { def, checked } = checkedCall;
    if (!callMayWrite(toolCall(def.name, dialect), checked)) return { changes: [] };
    const fork = writable(backend) ? scratchForkOf(backend) : undefined;
    const scratch = fork === undefined ? stoppingBackend(backend) : { backend: fork, reached: noStop };
    const callReads = reads.forPreview();
    // The calls that run before it, on the fork, as they would (a backend that cannot write refuses them all).
    for (const earlier of scratch.reached === noStop ? (options.after ?? []) : []) {
      const before = check(earlier.name, earlier.args);
      if ('isError' in before) continue;
      const quiet = guardCall(
        scratch.backend,
        session(() => ({ allow: true })),
        before.def.name,
        before.checked,
      );
      try {
        await handlersFor(quiet.backend, callReads)[before.def.name](before.checked, []);
      } catch (error) {
        if (isWorkerGoneError(error)) throw error; // (its own failure changes nothing, as when it runs)
      }
    }
    const changes: PreviewedChange[] = [];
    const noting = session((request: ApprovalRequest) => {
      const { signal: _, ...change } = request;
      changes.push(change);
      return { allow: true };
    });
    const call = guardCall(scratch.backend, noting, def.name, checked);
    try {
      await handlersFor(call.backend, callReads)[def.name](checked, []);
    } catch (error) {
      if (isWorkerGoneError(error)) throw error;
      // What a handler makes of the stop (it may wrap or catch it) does not matter: the call ended there.
      if (!scratch.reached()) return failedPreview(toolError(error));
    }
    return { changes };
  };
}

const noStop = () => false;
const writable = (backend: Backend) => (backend as { writable?: unknown }).writable !== false;

/**
 * `backend` for a preview without a fork: it reads as `backend` does and stops the call at its
 * first change; a backend that cannot write now is given the change, which it refuses.
 */
function stoppingBackend(backend: Backend): { backend: Backend; reached(): boolean } {
  let reached = false;
  const view: Record<string, unknown> = {};
  for (const method of BACKEND_METHODS) {
    const own = (backend as unknown as Record<string, (...args: unknown[]) => unknown>)[method];
    if (typeof own !== 'function') continue;
    const changes = BACKEND_CALLS[method].mutates || NOT_FOR_A_PREVIEW.has(method);
    view[method] = !changes
      ? own.bind(backend)
      : (...args: unknown[]) => {
          if (!writable(backend) && BACKEND_CALLS[method].mutates) return own.apply(backend, args);
          reached = true;
          return Promise.reject(new PreviewStop(`${method} is not made in a preview`));
        };
  }
  Object.defineProperty(view, 'writable', { get: () => writable(backend) });
  return { backend: view as unknown as Backend, reached: () => reached };
}
