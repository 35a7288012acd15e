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
import { checkOptionNames, optionNames } from '../option-names.ts';
import { expose as comlinkExpose, transfer, type Endpoint } from 'comlink';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend, StateBackendOptions, WatchOptions } from '../backend/types.ts';
import { backendCall, toolCall } from '../calls.ts';
import { VfsError } from '../errors.ts';
import { createSessionTools, createTools } from '../tools/create-tools.ts';
import { sessionWithId, type ToolSession } from '../tools/session.ts';
import type { DialectName } from '../tools/dialects/names.ts';
import { isToolHost } from '../tool-host.ts';
import { approveThrough } from './approve-port.ts';
import type { Tools } from '../tools/types.ts';
import { runWithin } from '../tools/tool-set.ts';
import { markNumbered } from '../tools/read-versions.ts';
import { toEndpoint } from './endpoint.ts';
import { receivedEntries } from './unsendable.ts';
import { preserveVfsErrors } from './errors-over-comlink.ts';
import { indexWhenIdle } from './idle-index.ts';
import {
  CLOSING_MESSAGE,
  isBackendRef,
  PROTOCOL_VERSION,
  type BackendRequest,
  type SessionRequest,
  type PreviewRequest,
  type ToolRequest,
  type WatchMessage,
  type WorkerApi,
} from './protocol.ts';

export interface ExposeOptions {
  /**
   * Build grep's index in small slices while the worker is idle (after a load, restore or
   * writes), so the first search does not wait for it. Default true.
   */
  indexWhenIdle?: boolean | undefined;
}

const EXPOSE_OPTIONS = optionNames<ExposeOptions>({ indexWhenIdle: true });

export function expose(backend?: Backend, endpoint: unknown = (globalThis as { self?: unknown }).self, options: ExposeOptions = {}): void {
  if (endpoint === undefined) {
    throw new TypeError('agentvfs/worker: no endpoint. Outside a Web Worker, pass one: expose(backend, parentPort).');
  }
  checkOptionNames(options, EXPOSE_OPTIONS, 'agentvfs/worker: expose');
  preserveVfsErrors();
  serve(backend, endpoint, options, new Map(), true);
  announceSelfClose(endpoint);
}

/** The backends one worker serves (the first one and its forks), by id: merge and diff name them. */
type Family = Map<string, () => Backend>;

let idCounter = 0;
const newId = () => `b${(idCounter++).toString(36)}-${Math.random().toString(36).slice(2)}`;

/** Arguments that name a backend (a RemoteBackend's BackendRef) become that backend. */
function resolveRefs(args: unknown[], family: Family): unknown[] {
  return args.map((arg) => {
    if (!isBackendRef(arg)) return arg;
    const backend = family.get(arg.agentvfsBackend);
    if (!backend) throw new VfsError('EINVAL', 'That backend is not served by this worker (it was released, or belongs to another worker). Nothing was done.');
    return backend();
  });
}

function serve(backend: Backend | undefined, endpoint: unknown, options: ExposeOptions, family: Family, root: boolean, id?: string): void {
  const selfId = id ?? newId();
  let current: Backend | undefined = backend;
  let used = false;
  const sessions = new Map<string, Tools<string>>();
  // Sessions shared by several tool sets, by id, with the tool sets still using each.
  const shared = new Map<string, { session: ToolSession; users: Set<string> }>();
  const sharedSession = (sharedId: string, user: string): ToolSession => {
    let entry = shared.get(sharedId);
    if (!entry) shared.set(sharedId, (entry = { session: sessionWithId(sharedId), users: new Set() }));
    entry.users.add(user);
    return entry.session;
  };
  // The approve ports of guarded sessions, let go when the session closes.
  const approvePorts = new Map<string, () => void>();
  // The numbered tool calls running, by session and number, for cancelCall.
  const running = new Map<string, AbortController>();
  const watches = new Map<string, () => void>();
  const port = toEndpoint(endpoint);
  const get = (): Backend => {
    used = true;
    return (current ??= createStateBackend());
  };
  // A tool set's session, made on its first call (a guarded one is opened before, by openSession).
  const toolSession = (sessionId: string, dialect: DialectName | undefined, sharedId: string | undefined): Tools<string> => {
    let tools = sessions.get(sessionId);
    if (!tools) {
      const session = sharedId === undefined ? undefined : sharedSession(sharedId, sessionId);
      sessions.set(sessionId, (tools = createTools(get(), { dialect, session })));
    }
    return tools;
  };
  const changed = options.indexWhenIdle === false ? () => {} : indexWhenIdle(() => current);
  if (backend) changed();
  family.set(selfId, get);

  const api: WorkerApi = {
    async ping() {
      return { protocol: PROTOCOL_VERSION, id: selfId };
    },
    async init(options: StateBackendOptions | undefined) {
      if (backend || used || !root) {
        throw new VfsError('EINVAL', 'This worker already has a backend; init() must come first and only in a worker started without one.');
      }
      current = createStateBackend(options);
      used = true;
      changed();
    },
    // call() and tool() are the per-request path: plain functions that hand back the backend's (or
    // the tool's) own promise, so a request costs no extra async frame or promise turn here. A
    // synchronous throw reaches the client exactly like a rejection (Comlink catches both).
    call(request: BackendRequest) {
      const method = Array.isArray(request) ? request[0] : undefined;
      const info = backendCall(method);
      if (!info) throw new VfsError('EINVAL', `Unknown backend method ${JSON.stringify(method)}.`);
      const target = get();
      const args = resolveRefs(request.slice(1), family);
      // Bytes that came in a message are this worker's own copy: the backend may keep them as they are.
      if (method === 'writeFile' && args[1] instanceof Uint8Array) args[2] = { ...(args[2] as object), copy: false };
      else if (method === 'uploadFiles') {
        args[0] = receivedEntries(args[0]);
        args[1] = { ...(args[1] as object), copy: false };
      }
      const result = (target[method!] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      // Afterwards some file may lack a current search index.
      if (info.writesFiles) changed();
      // Results with bytes hold fresh copies made for this call: move them instead of copying again.
      return info.returnsBytes ? Promise.resolve(result).then(moveBytes) : result;
    },
    tool(request: ToolRequest) {
      const [sessionId, name, args, dialect, sharedId, call] = request;
      const tools = toolSession(sessionId, dialect, sharedId);
      if (toolCall(name, dialect)?.mutates) changed();
      if (call === undefined) return runWithin(tools, name, args, undefined);
      // The caller's signal stays on its side: this call gets one here, aborted by cancelCall.
      const key = `${sessionId} ${call.n}`;
      const controller = new AbortController();
      running.set(key, controller);
      const numbered = markNumbered({ n: call.n, unanswered: call.unanswered, signal: controller.signal });
      return runWithin(tools, name, args, numbered).finally(() => running.delete(key));
    },
    preview(request: PreviewRequest) {
      const [sessionId, name, args, dialect, sharedId, after] = request;
      return toolSession(sessionId, dialect, sharedId).preview(name, args, after === undefined ? {} : { after });
    },
    cancelCall(sessionId: string, n: number) {
      running.get(`${sessionId} ${n}`)?.abort();
    },
    // A plain function, so the session exists before the next message (its first call) is handled.
    openSession([sessionId, permissions, port, dialect, sharedId]: SessionRequest) {
      const asked = port === undefined || port === null ? undefined : approveThrough(port);
      if (asked) approvePorts.set(sessionId, asked.release);
      const session = sharedId === undefined ? undefined : sharedSession(sharedId, sessionId);
      const options = {
        dialect,
        session,
        ...(permissions === undefined ? {} : { permissions }),
        // (An approve told each call's number, so the caller's side finds the call's signal.)
        ...(asked ? { approve: asked.approve } : {}),
      };
      const target = get();
      // The session's results keep their decision: the client's audit reads it (see withAudit).
      sessions.set(sessionId, isToolHost(target) ? target.createToolSession(options) : createSessionTools(target, options));
    },
    async closeSession(sessionId: string) {
      sessions.delete(sessionId);
      approvePorts.get(sessionId)?.();
      approvePorts.delete(sessionId);
      for (const [id, entry] of shared) {
        if (entry.users.delete(sessionId) && entry.users.size === 0) shared.delete(id);
      }
    },
    async watch(id: string, options: WatchOptions | undefined) {
      watches.get(id)?.();
      const message: WatchMessage = { agentvfsWatch: id, events: [] };
      watches.set(
        id,
        get().watch((events) => port.postMessage({ ...message, events }), options),
      );
    },
    async unwatch(id: string) {
      watches.get(id)?.();
      watches.delete(id);
    },
    async fork(id: string, forkPort: unknown) {
      const fork = await get().fork();
      serve(fork, forkPort, options, family, false, id);
    },
    async release() {
      if (root) return; // the first backend lives as long as its worker
      family.delete(selfId);
      for (const stop of watches.values()) stop();
      watches.clear();
      sessions.clear();
      shared.clear();
      // Closing this end closes the channel (the client has stopped listening for this answer).
      void Promise.resolve().then(() => (endpoint as { close?: () => void }).close?.());
    },
  };
  comlinkExpose(api, port as unknown as Endpoint); // the same shape, typed without DOM's Event
}

/**
 * A Web Worker that calls close() on itself (or self.close()) is gone without any event on the
 * page's side, so close() is wrapped to post CLOSING_MESSAGE first. Only in a worker's global
 * scope (it has importScripts), never a window's close().
 */
function announceSelfClose(endpoint: unknown): void {
  const scope = globalThis as { self?: unknown; importScripts?: unknown; close?: () => void; postMessage?: (message: unknown) => void };
  if (endpoint !== scope.self || typeof scope.importScripts !== 'function' || typeof scope.close !== 'function') return;
  const close = scope.close;
  scope.close = function closeAndSayGoodbye(this: unknown) {
    try {
      scope.postMessage?.(CLOSING_MESSAGE);
    } finally {
      close.call(scope);
    }
  };
}

/** Marks the ArrayBuffers of the Uint8Arrays in a result (readFile, read, downloadFiles, snapshot) for transfer. */
function moveBytes(result: unknown): unknown {
  const out: ArrayBuffer[] = [];
  const add = (v: unknown) => {
    if (v instanceof Uint8Array && v.buffer instanceof ArrayBuffer && v.byteLength === v.buffer.byteLength && !out.includes(v.buffer)) {
      out.push(v.buffer);
    }
  };
  add(result);
  if (Array.isArray(result)) for (const item of result) add((item as { content?: unknown } | null)?.content);
  else if (result && typeof result === 'object') add((result as { content?: unknown }).content);
  return out.length > 0 ? transfer(result, out) : result;
}
