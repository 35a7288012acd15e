/**
 * agentvfs/worker: serve a backend (and its tool sessions) to a client on the
 * other side of a Worker or MessagePort.
 *
 * @example
 * // worker.ts (browser)
 * import { expose } from 'agentvfs/worker';
 * expose();
 * // Node worker_threads
 * import { parentPort } from 'node:worker_threads';
 * expose(createStateBackend(), parentPort);
 */
import { expose as comlinkExpose, transfer } from 'comlink';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend, StateBackendOptions } from '../backend/types.ts';
import { VfsError } from '../errors.ts';
import { createTools, type Tools } from '../tools/create-tools.ts';
import { toEndpoint } from './endpoint.ts';
import { preserveVfsErrors } from './errors-over-comlink.ts';
import { BACKEND_METHODS, PROTOCOL_VERSION, type BackendMethod, type WorkerApi } from './protocol.ts';

const METHODS = new Set<string>(BACKEND_METHODS);

export function expose(backend?: Backend, endpoint: unknown = (globalThis as { self?: unknown }).self): void {
  if (endpoint === undefined) {
    throw new TypeError('agentvfs/worker: no endpoint. Outside a Web Worker, pass one: expose(backend, parentPort).');
  }
  preserveVfsErrors();
  let current: Backend | undefined = backend;
  let used = false;
  const sessions = new Map<string, Tools>();
  const get = (): Backend => {
    used = true;
    return (current ??= createStateBackend());
  };

  const api: WorkerApi = {
    async ping() {
      return { protocol: PROTOCOL_VERSION };
    },
    async init(options: StateBackendOptions | undefined) {
      if (backend || used) {
        throw new VfsError('EINVAL', 'This worker already has a backend; init() must come first and only in a worker started without one.');
      }
      current = createStateBackend(options);
      used = true;
    },
    async call(method: BackendMethod, args: unknown[]) {
      if (!METHODS.has(method)) throw new VfsError('EINVAL', `Unknown backend method ${JSON.stringify(method)}.`);
      const target = get();
      const result = await (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      // Results hold fresh copies made for this call: move them instead of copying again.
      const buffers = ownedBuffers(result);
      return buffers.length > 0 ? transfer(result, buffers) : result;
    },
    async tool(sessionId: string, name: string, args: unknown) {
      let tools = sessions.get(sessionId);
      if (!tools) sessions.set(sessionId, (tools = createTools(get())));
      return tools.call(name, args);
    },
    async closeSession(sessionId: string) {
      sessions.delete(sessionId);
    },
  };
  comlinkExpose(api, toEndpoint(endpoint));
}

/** ArrayBuffers of the Uint8Arrays in a backend result (readFile, read, downloadFiles, snapshot). */
function ownedBuffers(result: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (v: unknown) => {
    if (v instanceof Uint8Array && v.buffer instanceof ArrayBuffer && v.byteLength === v.buffer.byteLength && !out.includes(v.buffer)) {
      out.push(v.buffer);
    }
  };
  add(result);
  if (Array.isArray(result)) for (const item of result) add((item as { content?: unknown } | null)?.content);
  else if (result && typeof result === 'object') add((result as { content?: unknown }).content);
  return out;
}
