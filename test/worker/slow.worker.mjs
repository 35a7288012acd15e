// Serves a backend whose grep never returns quickly: lets a test terminate the worker mid-call.
import { parentPort } from 'node:worker_threads';
import { createStateBackend } from '../../dist/index.js';
import { expose } from '../../dist/worker.js';

const backend = createStateBackend({ files: { '/a': 'a' } });
backend.grep = () => new Promise(() => {}); // never settles
expose(backend, parentPort);
