/**
 * agentvfs/client — talk to a backend that lives in a Worker.
 *
 * @example
 * import { createTools, createWorkerBackend } from 'agentvfs/client'; // or createTools from 'agentvfs'
 * const backend = createWorkerBackend({ files: { '/README.md': '# hi\n' } });
 * const tools = createTools(backend); // each call runs inside the worker
 * console.log(await tools.call('ls', {}));
 */
export { connect } from './connect.ts';
export { createTools } from './create-tools.ts';
export { createWorkerBackend } from './create-worker-backend.ts';
export { RemoteBackend, WorkerGoneError, type ConnectOptions, type WorkerBackendOptions } from './remote-backend.ts';
