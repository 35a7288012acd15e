/**
 * Tools.preview: a call run as far as its first write, over a guarded view of the backend whose
 * approve() notes each question and says yes, and under it a backend that stops at the first
 * change. Every tool of every dialect makes its change in one backend call (a patch is one
 * applyBatch, asked about file by file before it is made), so the questions noted by then are
 * everything the call would write, each with the diff the guard computes for a real question.
 */
import type { Backend } from '../backend/types.ts';
import { BACKEND_CALLS, BACKEND_METHODS, callMayWrite, toolCall } from '../calls.ts';
import { isWorkerGoneError, type VfsErrorCode } from '../errors.ts';
import { guardCall } from '../guard/guarded-backend.ts';
import { compilePermissions } from '../guard/permissions.ts';
import type { GuardSession } from '../guard/session.ts';
import type { ApprovalRequest } from '../guard/types.ts';
import type { ToolDefinition } from './definitions.ts';
import type { ReadVersions } from './read-versions.ts';
import { callChecker, type ArgsValidator, type HandlersFor } from './run-tool.ts';
import { toolError } from './tool-error.ts';
import type { PreviewCall } from './tool-set.ts';
import type { PreviewedChange, ToolPreview } from './types.ts';

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
  return async (name, args) => {
    const checkedCall = check(name, args);
    if ('isError' in checkedCall) return failed(checkedCall);
    const { def, checked } = checkedCall;
    if (!callMayWrite(toolCall(def.name, dialect), checked)) return { changes: [] };
    const changes: PreviewedChange[] = [];
    const noting: GuardSession = {
      rules,
      ...(dialect === undefined ? {} : { dialect }),
      approve: (request: ApprovalRequest) => {
        const { signal: _, ...change } = request;
        changes.push(change);
        return { allow: true };
      },
      always: false,
    };
    const stopping = stoppingBackend(backend);
    const call = guardCall(stopping.backend, noting, def.name, checked);
    try {
      await handlersFor(call.backend, reads.forPreview())[def.name](checked, []);
    } catch (error) {
      if (isWorkerGoneError(error)) throw error;
      // What a handler makes of the stop (it may wrap or catch it) does not matter: the call ended there.
      if (!stopping.reached()) return failed(toolError(error));
    }
    return { changes };
  };
}

function failed(result: { text: string; code?: VfsErrorCode | undefined }): ToolPreview {
  return { changes: [], error: result.code === undefined ? { text: result.text } : { text: result.text, code: result.code } };
}

/**
 * `backend` for a preview: it reads as `backend` does, and stops the call at its first change. A
 * backend that cannot write now (a tab following another's workspace, a closed one) is given the
 * change, which it refuses as it would the call's.
 */
function stoppingBackend(backend: Backend): { backend: Backend; reached(): boolean } {
  let reached = false;
  const writable = () => (backend as { writable?: unknown }).writable !== false;
  const view: Record<string, unknown> = {};
  for (const method of BACKEND_METHODS) {
    const own = (backend as unknown as Record<string, (...args: unknown[]) => unknown>)[method];
    if (typeof own !== 'function') continue;
    const changes = BACKEND_CALLS[method].mutates || NOT_FOR_A_PREVIEW.has(method);
    view[method] = !changes
      ? own.bind(backend)
      : (...args: unknown[]) => {
          if (!writable() && BACKEND_CALLS[method].mutates) return own.apply(backend, args);
          reached = true;
          return Promise.reject(new PreviewStop(`${method} is not made in a preview`));
        };
  }
  Object.defineProperty(view, 'writable', { get: writable });
  return { backend: view as unknown as Backend, reached: () => reached };
}
