/**
 * The prebuilt worker script (`agentvfs/backend-worker`): a ready worker that serves an in-memory
 * backend, configured by the client's first call. createWorkerBackend() starts it as a Web Worker
 * (no bundler configuration needed); in Node it serves a worker_threads worker's parentPort.
 * Imported on Node's main thread, where nobody can reach it, it does nothing.
 */
import { expose } from './expose.ts';

interface Host {
  self?: unknown;
  // Node ≥ 20.16: a built-in without an import, which would tie this script to Node.
  process?: { getBuiltinModule?: (id: string) => { parentPort?: unknown } | undefined };
}
const host = globalThis as Host;
const endpoint = host.self ?? host.process?.getBuiltinModule?.('worker_threads')?.parentPort ?? null;
if (endpoint !== null) expose(undefined, endpoint);
