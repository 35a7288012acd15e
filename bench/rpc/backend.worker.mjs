// The built backend behind agentvfs/worker, as a Node user would run it (dist/, or workerData.dist).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
const dist = workerData?.dist ?? join(import.meta.dirname, '../../dist');
const { createStateBackend } = await import(pathToFileURL(join(dist, 'index.js')).href);
const { expose } = await import(pathToFileURL(join(dist, 'worker.js')).href);
expose(createStateBackend({ files: { '/f.txt': `${'x'.repeat(2047)}\n` } }), parentPort);
