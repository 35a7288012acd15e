// The floor: a bare postMessage echo in a worker_threads worker.
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => parentPort.postMessage(m));
