/**
 * createWorkerBackend(): start the prebuilt backend worker and connect, in one
 * line. The worker's code is embedded and started from a Blob URL, so it works
 * with any bundler (or none) and in dev servers, with no configuration. Pages
 * with a Content-Security-Policy need `worker-src blob:`; otherwise serve
 * `agentvfs/backend-worker` yourself and use connect().
 */
import workerSource from 'virtual:agentvfs/backend-worker-source';
import { optionNames } from '../option-names.ts';
import { connect } from './connect.ts';
import { checkWorkerBackendOptions, type ConnectOptions, type RemoteBackend, type WorkerBackendOptions } from './remote-backend.ts';

const CONNECTION_OPTIONS = optionNames<Omit<ConnectOptions, 'backend'>>({ startTimeoutMs: true, transferInputs: true });

interface WebGlobals {
  Worker?: new (url: string, options: { type: 'module'; name?: string }) => object;
  Blob?: new (parts: string[], options: { type: string }) => object;
  URL: { createObjectURL?(blob: object): string; revokeObjectURL?(url: string): void };
}

export function createWorkerBackend(options: WorkerBackendOptions & Omit<ConnectOptions, 'backend'> = {}): RemoteBackend {
  checkWorkerBackendOptions(options, 'agentvfs/client: createWorkerBackend', CONNECTION_OPTIONS);
  const { startTimeoutMs, transferInputs, ...backend } = options;
  const web = globalThis as unknown as WebGlobals;
  if (!web.Worker || !web.Blob || !web.URL.createObjectURL) {
    throw new TypeError(
      "agentvfs/client: createWorkerBackend() needs Web Workers; in Node, use connect(new Worker(new URL(import.meta.resolve('agentvfs/backend-worker')))) with Worker from node:worker_threads.",
    );
  }
  const url = web.URL.createObjectURL(new web.Blob([workerSource], { type: 'text/javascript' }));
  const worker = new web.Worker(url, { type: 'module', name: 'agentvfs' });
  const remote = connect(worker, {
    backend,
    ...(startTimeoutMs === undefined ? {} : { startTimeoutMs }),
    ...(transferInputs === undefined ? {} : { transferInputs }),
  });
  // The worker has loaded its code once it answers (or failed to): the URL is no longer needed.
  remote.ready.then(
    () => web.URL.revokeObjectURL?.(url),
    () => web.URL.revokeObjectURL?.(url),
  );
  return remote;
}
