/**
 * Knows when the other side is gone, so no caller ever waits forever: a Web
 * Worker's `error` event (script or module failed to load, uncaught error at
 * load), `terminate()` called on it, a Node worker's `error`/`exit`, a port's
 * `close`, or no answer to the first ping in time.
 */
import { isNodeWorker } from '../worker/endpoint.ts';

export class WorkerGoneError extends Error {
  override readonly name = 'WorkerGoneError';
}

export interface Liveness {
  /** Rejects (never resolves) once the worker is gone. */
  readonly gone: Promise<never>;
  readonly reason: Error | null;
  markGone(reason: string): void;
  /**
   * `call`, or the worker's death, whichever comes first. (Not Promise.race with `gone`:
   * that would leave one reaction per call on `gone` for the worker's whole life.)
   */
  guard<T>(call: Promise<T>): Promise<T>;
}

export function watchLiveness(target: object): Liveness {
  let reject!: (e: Error) => void;
  const gone = new Promise<never>((_, r) => (reject = r));
  gone.catch(() => {}); // observed by callers; never an unhandled rejection by itself
  const pending = new Set<(e: Error) => void>();
  const state: Liveness = {
    gone,
    reason: null,
    markGone(reason: string) {
      if (state.reason) return;
      const error = new WorkerGoneError(`agentvfs: the backend worker is gone (${reason}); this call and all later ones fail. Start a new worker and connect() again.`);
      (state as { reason: Error | null }).reason = error;
      reject(error);
      for (const fail of pending) fail(error);
      pending.clear();
    },
    guard<T>(call: Promise<T>): Promise<T> {
      if (state.reason) {
        call.catch(() => {}); // superseded by the worker's death; not an unhandled rejection
        return Promise.reject(state.reason);
      }
      return new Promise<T>((resolve, fail) => {
        pending.add(fail);
        call.then(
          (value) => {
            pending.delete(fail);
            resolve(value);
          },
          (error: unknown) => {
            pending.delete(fail);
            fail(error);
          },
        );
      });
    },
  };
  const t = target as Record<string, unknown>;
  if (isNodeWorker(target)) {
    const on = (t.on as (type: string, fn: (arg: unknown) => void) => void).bind(target);
    on('error', (e) => state.markGone(`it threw: ${(e as Error)?.message ?? String(e)}`));
    on('exit', (code) => state.markGone(`it exited with code ${String(code)}`));
    on('messageerror', () => state.markGone('a message could not be deserialized'));
    return state;
  }
  if (typeof t.addEventListener === 'function') {
    const add = (t.addEventListener as (type: string, fn: (e: unknown) => void) => void).bind(target);
    add('error', (e) => {
      const message = (e as { message?: string })?.message;
      state.markGone(message ? `it failed: ${message}` : 'it failed to load or threw at load; check the worker script URL and its console');
    });
    add('messageerror', () => state.markGone('a message could not be deserialized'));
    add('close', () => state.markGone('its port was closed'));
  } else if (typeof t.on === 'function') {
    (t.on as (type: string, fn: () => void) => void).call(target, 'close', () => state.markGone('its port was closed'));
  }
  // Terminating a Web Worker fires no event: wrap terminate() so pending calls fail at once.
  if (typeof t.terminate === 'function') {
    const terminate = t.terminate as () => void;
    t.terminate = function patchedTerminate(this: unknown) {
      terminate.call(target);
      state.markGone('it was terminated');
    };
  }
  return state;
}
