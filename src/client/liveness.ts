/**
 * Knows when the other side is gone, so no caller ever waits forever: a Web
 * Worker's `error` event (script or module failed to load, uncaught error at
 * load), `terminate()` called on it, the worker closing itself (expose() has it
 * say so first), a Node worker's `error`/`exit`, a port's `close`, or no answer
 * to the first pings in time.
 *
 * It also is the Comlink endpoint the client talks through. It notes the id of
 * every request sent and crossed off by its answer; once the worker is gone it
 * answers each open request itself with the WorkerGoneError, and answers every
 * later one the same way. So a call needs no wrapper of its own: no extra
 * promise, closure or turn per call just to be able to fail it.
 */
import type { MessageEndpoint } from '../worker/message-endpoint.ts';
import { isNodeWorker } from '../worker/endpoint.ts';
import { isClosingMessage } from '../worker/protocol.ts';

export class WorkerGoneError extends Error {
  override readonly name = 'WorkerGoneError';
}
// Node's inspect and devtools print the constructor's name, which minification shortens.
Object.defineProperty(WorkerGoneError, 'name', { value: 'WorkerGoneError' });

export interface Liveness {
  /** Rejects (never resolves) once the worker is gone. */
  readonly gone: Promise<never>;
  readonly reason: Error | null;
  /** `message`: the whole message instead of "the backend worker is gone (reason)…" (a closed fork: the worker still runs). */
  markGone(reason: string, message?: string): void;
  /** The endpoint to wrap(): requests on it reject with `reason` once the worker is gone. */
  readonly endpoint: MessageEndpoint;
}

type MessageListener = (event: { data: unknown }) => void;

/**
 * The answer Comlink would get for a request whose handler threw `error`, as its `throw`
 * transfer handler reads it (`isError: false` passes the value itself, so the caller gets this
 * very WorkerGoneError instance; errors-over-comlink.ts leaves it untouched).
 */
function goneAnswer(id: unknown, error: Error) {
  return { data: { id, type: 'HANDLER', name: 'throw', value: { isError: false, value: error } } };
}

export function watchLiveness(target: object): Liveness {
  let reject!: (e: Error) => void;
  const gone = new Promise<never>((_, r) => (reject = r));
  gone.catch(() => {}); // observed by callers; never an unhandled rejection by itself
  const t = target as Record<string, unknown>;
  const node = typeof target === 'object' && target !== null && isNodeWorker(target);
  if (!node && (typeof t?.postMessage !== 'function' || (typeof t.addEventListener !== 'function' && typeof t.on !== 'function'))) {
    throw new TypeError('agentvfs: expected a Worker, a MessagePort or a worker_threads Worker/MessagePort (something with postMessage).');
  }

  /** Ids of the requests sent and not answered yet. */
  const open = new Set<unknown>();
  let listener: MessageListener | null = null; // Comlink's (wrap() adds exactly one)
  const answer = (event: { data: unknown }) => {
    if (listener) listener(event);
  };
  const receive = (event: { data: unknown }) => {
    const data = event.data as { id?: unknown } | null;
    if (data !== null && typeof data === 'object') {
      if (isClosingMessage(data)) return state.markGone('it closed itself');
      open.delete(data.id);
    }
    if (listener) listener(event);
  };
  const receiveData = (data: unknown) => receive({ data }); // EventEmitter style: the data itself
  const send = (t.postMessage as (message: unknown, transfer?: unknown) => void).bind(target);
  let attached = false;
  const attach = (on: boolean) => {
    if (on === attached) return;
    attached = on;
    if (node || typeof t.addEventListener !== 'function') {
      (t[on ? 'on' : 'off'] as (type: string, fn: (data: unknown) => void) => void).call(target, 'message', receiveData);
    } else {
      (t[on ? 'addEventListener' : 'removeEventListener'] as (type: string, fn: MessageListener) => void).call(target, 'message', receive);
      // A MessagePort delivers nothing until started; once is enough (Comlink would call start() on every request).
      if (on) (t.start as (() => void) | undefined)?.call(target);
    }
  };

  const state: Liveness = {
    gone,
    reason: null,
    markGone(reason: string, message?: string) {
      if (state.reason) return;
      const error = new WorkerGoneError(
        message ?? `agentvfs: the backend worker is gone (${reason}); this call and all later ones fail. Start a new worker and connect() again.`,
      );
      // Its stack made into text now: until then V8 keeps the frames' receivers alive (the closed
      // fork's backend, say), for as long as the error is kept here.
      void error.stack;
      (state as { reason: Error | null }).reason = error;
      reject(error);
      const ids = [...open];
      open.clear();
      for (const id of ids) answer(goneAnswer(id, error));
    },
    endpoint: {
      postMessage(message: unknown, transfer?: Transferable[]) {
        const id = (message as { id?: unknown }).id;
        // Comlink's own release of a proxy collected (a fork dropped): nobody waits for its answer,
        // and failing it would be an unhandled rejection inside Comlink. Sent if it can be, no more.
        if ((message as { type?: unknown }).type === 'RELEASE') {
          if (!state.reason) send(message, node ? (transfer ?? []) : transfer);
          return;
        }
        if (state.reason) {
          const error = state.reason;
          void Promise.resolve(goneAnswer(id, error)).then(answer); // after Comlink has noted the request
          return;
        }
        open.add(id);
        try {
          send(message, node ? (transfer ?? []) : transfer);
        } catch (error) {
          open.delete(id); // not sent (e.g. DataCloneError): Comlink rejects the call with it
          throw error;
        }
      },
      addEventListener(_type: string, fn: unknown) {
        listener = fn as MessageListener;
        attach(true);
      },
      removeEventListener(_type: string, fn: unknown) {
        if (listener !== fn) return;
        listener = null;
        attach(false);
      },
    } as MessageEndpoint,
  };

  if (node) {
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

type Transferable = unknown;
