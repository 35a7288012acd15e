/**
 * Turns what callers hand us into the structural MessageEndpoint Comlink talks through: anything with
 * postMessage + addEventListener (Web Worker, worker `self`, MessagePort in
 * browsers and Node) as is, or an EventEmitter-style port (Node's
 * worker_threads Worker) through a small adapter.
 */
import type { MessageEndpoint } from './message-endpoint.ts';

type Listener = (event: { data: unknown }) => void;

interface EmitterPort {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  on(type: string, listener: (data: unknown) => void): unknown;
  off(type: string, listener: (data: unknown) => void): unknown;
  start?: () => void;
}

export function toEndpoint(target: unknown): MessageEndpoint {
  if (typeof target !== 'object' || target === null || typeof (target as { postMessage?: unknown }).postMessage !== 'function') {
    throw new TypeError('agentvfs: expected a Worker, a MessagePort or a worker_threads Worker/MessagePort (something with postMessage).');
  }
  if (typeof (target as { addEventListener?: unknown }).addEventListener === 'function' && !isNodeWorker(target)) {
    return target as MessageEndpoint;
  }
  const port = target as EmitterPort;
  const wrapped = new WeakMap<Listener, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => port.postMessage(message, transfer ?? []),
    addEventListener: (_type: string, listener: unknown) => {
      const fn = listener as Listener;
      const onData = (data: unknown) => fn({ data });
      wrapped.set(fn, onData);
      port.on('message', onData);
    },
    removeEventListener: (_type: string, listener: unknown) => {
      const onData = wrapped.get(listener as Listener);
      if (onData) port.off('message', onData);
    },
    ...(port.start ? { start: () => port.start!() } : {}),
  } as MessageEndpoint;
}

/** Node's worker_threads Worker is an EventEmitter (its `message` passes the data itself), with `threadId`. */
export function isNodeWorker(target: object): boolean {
  return (
    typeof (target as { on?: unknown }).on === 'function' &&
    typeof (target as { threadId?: unknown }).threadId === 'number' &&
    typeof (target as { terminate?: unknown }).terminate === 'function'
  );
}

type Transferable = unknown;
