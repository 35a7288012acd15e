import { RemoteBackend, type ConnectOptions } from './remote-backend.ts';

/**
 * Connects to a worker running `expose()` from `agentvfs/worker`. `target` is
 * a Web Worker, a MessagePort, or Node's worker_threads Worker. Returns at
 * once; calls wait for the worker, and fail with WorkerGoneError if it fails
 * to load, crashes or is terminated.
 */
export function connect(target: object, options?: ConnectOptions): RemoteBackend {
  return new RemoteBackend(target, options);
}
