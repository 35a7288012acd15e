/**
 * agentvfs/client — talk to a backend that lives in a Worker.
 *
 * @example
 * import { createTools } from 'agentvfs';
 * import { createWorkerBackend } from 'agentvfs/client';
 * const backend = createWorkerBackend({ files: { '/README.md': '# hi\n' } });
 * const tools = createTools(backend); // each call runs inside the worker
 * console.log(await tools.call('ls', {}));
 */
import type { StateBackendOptions } from '../backend/types.ts';
import { RemoteBackend, type ConnectOptions } from './remote-backend.ts';

export { RemoteBackend, WorkerGoneError, type ConnectOptions } from './remote-backend.ts';

/**
 * Connects to a worker running `expose()` from `agentvfs/worker`. `target` is
 * a Web Worker, a MessagePort, or Node's worker_threads Worker. Returns at
 * once; calls wait for the worker, and fail with WorkerGoneError if it fails
 * to load, crashes or is terminated.
 */
export function connect(target: object, options?: ConnectOptions): RemoteBackend {
  return new RemoteBackend(target, options);
}

/**
 * Starts the prebuilt backend worker that ships with the package and connects
 * to it: one line, no bundler configuration.
 */
export function createWorkerBackend(options: StateBackendOptions & Omit<ConnectOptions, 'backend'> = {}): RemoteBackend {
  const { startTimeoutMs, transferInputs, ...backend } = options;
  const WorkerCtor = (globalThis as { Worker?: new (url: URL, options: { type: 'module'; name?: string }) => object }).Worker;
  if (!WorkerCtor) throw new TypeError('agentvfs/client: createWorkerBackend() needs Web Workers; in Node, start a worker_threads Worker and use connect().');
  const worker = new WorkerCtor(new URL(/* @vite-ignore */ './backend-worker.js', import.meta.url), { type: 'module', name: 'agentvfs' });
  return connect(worker, {
    backend,
    ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
    ...(transferInputs === undefined ? {} : { transferInputs }),
  });
}
