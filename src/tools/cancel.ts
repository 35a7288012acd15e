/**
 * A call's cancellation (RunOptions.signal): the options checked where the call is made, and
 * what a cancelled call answers. A call is cancelled only where it has written nothing yet.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import { VfsError } from '../errors.ts';
import type { ToolResult } from './types.ts';

/**
 * A call's options as createTools takes them (RunOptions, plus the turn an adapter knows; see
 * CallTag), checked. Absent (undefined or null) is no options.
 */
export function callOptions(options: unknown): { turn?: object; signal?: AbortSignalLike } {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`a tool call's options must be an object such as { signal }, not ${Array.isArray(options) ? 'an array' : typeof options}.`);
  }
  const { turn, signal } = options as { turn?: unknown; signal?: unknown };
  if (signal !== undefined && !isAbortSignal(signal))
    throw new TypeError("a tool call's options.signal must be an AbortSignal (from new AbortController().signal).");
  return { ...(typeof turn === 'object' && turn !== null ? { turn } : {}), ...(signal === undefined ? {} : { signal }) };
}

/** What a call cancelled before it started answers. */
export function cancelledResult(): ToolResult {
  const error = cancelledError();
  return { text: `Error: ${error.code}: ${error.message}`, isError: true, code: error.code, changed: [] };
}

/** The error a cancelled call fails with: nothing was written (`path`: the change it was waiting to make, `subject` what it was). */
export function cancelledError(path?: string, subject = `write of ${path}`, unchanged = 'The file is unchanged.'): VfsError {
  return path === undefined
    ? new VfsError('ECANCELED', 'The call was cancelled before it ran. Nothing was changed.')
    : new VfsError('ECANCELED', `The call was cancelled while the ${subject} waited for approval. ${unchanged}`, { path });
}

function isAbortSignal(value: unknown): value is AbortSignalLike {
  const s = value as Partial<AbortSignalLike> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.aborted === 'boolean' &&
    typeof s.addEventListener === 'function' &&
    typeof s.removeEventListener === 'function'
  );
}
