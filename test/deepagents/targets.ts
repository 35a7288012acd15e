/** The backends AgentvfsBackend is tested over: in process, and in a worker_threads worker (a RemoteBackend). */
import type { Backend, StateBackendOptions } from '../../src/index.ts';
import { createStateBackend } from '../../src/index.ts';
import { inWorkerThread } from '../worker/factories.ts';

export { closeAll } from '../worker/factories.ts';

export const TARGETS: Record<string, (options?: StateBackendOptions) => Backend> = {
  'in process': (options) => createStateBackend(options),
  'in a worker_threads worker': (options) => inWorkerThread(options),
};
