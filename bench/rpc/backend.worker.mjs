// The built backend behind agentvfs/worker, as a Node user would run it.
import { parentPort } from 'node:worker_threads';
import { createStateBackend } from '../../dist/index.js';
import { expose } from '../../dist/worker.js';
expose(createStateBackend({ files: { '/f.txt': 'x'.repeat(2047) + '\n' } }), parentPort);
