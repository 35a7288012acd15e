/**
 * agentvfs/worker — run inside a Web Worker (or a Node worker_threads worker)
 * and serve a backend to `agentvfs/client`.
 */
export { expose, type ExposeOptions } from './expose.ts';
