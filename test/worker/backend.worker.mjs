// A worker_threads worker serving the built backend, as a Node user would write it.
// workerData: { options, clock?: Float64Array on a SharedArrayBuffer, failAtLoad?: boolean }
import { parentPort, workerData } from 'node:worker_threads';
import { createStateBackend } from '../../dist/index.js';
import { expose } from '../../dist/worker.js';

const { options = {}, clock, failAtLoad } = workerData ?? {};
if (failAtLoad) throw new Error('boom at load');
const backend = createStateBackend({ ...options, ...(clock ? { now: () => clock[0] } : {}) });
expose(backend, parentPort);
