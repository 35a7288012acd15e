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
export { connect } from './connect.ts';
export { createWorkerBackend } from './create-worker-backend.ts';
export { RemoteBackend, WorkerGoneError, type ConnectOptions, type WorkerBackendOptions } from './remote-backend.ts';
