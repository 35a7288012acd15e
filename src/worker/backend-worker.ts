/**
 * The prebuilt worker script (`agentvfs/backend-worker`): a ready Web Worker
 * that serves an in-memory backend, configured by the client's first call.
 * Used by `createWorkerBackend()`; no bundler configuration needed.
 */
import { expose } from './expose.ts';

expose();
