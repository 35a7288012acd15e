/**
 * RemoteBackend: the Backend contract, served by a worker. Every method is one
 * round trip; createTools(remote) runs each tool call in the worker.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import { transfer, wrap, type Endpoint, type Remote } from 'comlink';
import type { Backend, StateBackendOptions, WatchListener, WatchOptions } from '../backend/types.ts';
import { BACKEND_METHODS, type BackendMethod } from '../calls.ts';
import type { ToolHost, ToolsAround } from '../tool-host.ts';
import { VfsError } from '../errors.ts';
import { checkDialect, type DialectName } from '../tools/dialects/names.ts';
import { dialectDefinitions } from '../tools/dialects/definitions.ts';
import { checkSession } from '../tools/session.ts';
import { failedPreview, toolSet } from '../tools/tool-set.ts';
import type { PreviewOptions, ToolPreview, ToolResult, Tools, ToolsOptions } from '../tools/types.ts';
import { numberedCall, type CallContext, type CallTag } from '../tools/read-versions.ts';
import { cancelledResult } from '../tools/cancel.ts';
import { preserveVfsErrors } from '../worker/errors-over-comlink.ts';
import { unwrapBackend } from '../backend/wrapped-backends.ts';
import { canSend, sendableEntries } from '../worker/unsendable.ts';
import {
  PROTOCOL_VERSION,
  type BackendRef,
  type BackendRequest,
  type PreviewRequest,
  type SessionRequest,
  type ToolRequest,
  type WorkerApi,
} from '../worker/protocol.ts';
import { checkGuardOptions } from '../guard/options.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';
import { STATE_BACKEND_OPTIONS } from '../backend/state-backend-options.ts';
import { serveApprove, type ApprovePort } from '../worker/approve-port.ts';
import { watchLiveness, WorkerGoneError, type Liveness } from './liveness.ts';
import { RemoteWatches } from './remote-watch.ts';

export interface ConnectOptions {
  /** How long the worker has to answer its first ping before calls fail. Default 15,000 ms. */
  startTimeoutMs?: number | undefined;
  /**
   * Transfer (move) the bytes you pass to writeFile, uploadFiles and restore instead of copying
   * them. Faster for large data, but the Uint8Array you passed is detached (empty) afterwards.
   * Only arrays that span their whole ArrayBuffer are moved; others are copied. Default false.
   */
  transferInputs?: boolean | undefined;
  /** Backend options for a worker started without a backend (the prebuilt worker). `now` cannot cross: it is a function. */
  backend?: WorkerBackendOptions | undefined;
}

/** The backend options that can be sent to a worker: all but `now`, a function. */
export type WorkerBackendOptions = Omit<StateBackendOptions, 'now'>;

const CONNECT_OPTIONS = optionNames<ConnectOptions>({ startTimeoutMs: true, transferInputs: true, backend: true });
const WORKER_BACKEND_OPTIONS = STATE_BACKEND_OPTIONS.filter((name) => name !== 'now');

/** Refuses connect()'s options by name, as createStateBackend does, before any worker is started. */
function checkConnectOptions(options: ConnectOptions): void {
  checkOptionNames(options, CONNECT_OPTIONS, 'agentvfs/client: connect');
  if (options.backend !== undefined) checkWorkerBackendOptions(options.backend);
}

/**
 * Refuses backend options a message cannot carry, or misspelt, before any worker is started, with
 * what to do instead (the limits' values are the worker's to check).
 */
export function checkWorkerBackendOptions(options: object, where = 'agentvfs/client: connect: backend', alsoKnown: readonly string[] = []): void {
  if (typeof (options as { now?: unknown }).now === 'function') {
    throw new TypeError(
      'agentvfs/client: the `now` option is a function and cannot be sent to a worker. Set the clock where the backend is made: expose(createStateBackend({ now }), …) in your own worker.',
    );
  }
  checkOptionNames(options, [...WORKER_BACKEND_OPTIONS, ...alsoKnown], where);
}

/**
 * Pings until one ping is answered. A module worker that awaits something (opening IndexedDB,
 * say) before calling expose() is not listening yet, and a browser drops a message that finds
 * no listener: one ping sent at connect() would never be answered. Resent after 25 ms, then
 * twice as long each time up to a second; the ones lost are never answered, and those that
 * arrive late are answered and ignored.
 */
function pingUntilAnswered(api: Remote<WorkerApi>, live: Liveness): { answer: Promise<{ protocol: number; id: string }>; stop(): void } {
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let delay = 25;
  let answered!: (value: { protocol: number; id: string }) => void;
  const answer = new Promise<{ protocol: number; id: string }>((resolve) => (answered = resolve));
  const ping = () => {
    if (stopped || live.reason) return;
    api.ping().then(answered, () => {}); // a ping fails only once the worker is gone, which `gone` reports
    retry = setTimeout(ping, delay);
    delay = Math.min(delay * 2, 1000);
  };
  ping();
  return {
    answer,
    stop() {
      stopped = true;
      clearTimeout(retry);
    },
  };
}

let sessionCounter = 0;
let forkCounter = 0;
type Transferable = ArrayBuffer | MessagePort;
// Tool sessions and forks dropped without close(): what they hold in the worker is released once they are collected.
const sessions = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry<() => void>((close) => close()) : null;

// Gives RemoteBackend the Backend methods' exact types; the methods themselves are made from the
// call table (BACKEND_METHODS) in the class's static block, so a new backend method is forwarded
// without a line here.
const BackendMethods = class {} as unknown as new () => Backend;

/**
 * Ends a backend's open forks once it is gone: its worker died, or (a fork) it was closed, which
 * `closed` then says. Made outside the class: its port must not hold the backend.
 */
function endForksWhenGone(gone: Promise<never>, forks: Set<ForkLink>, closed: { yes: boolean }): void {
  gone.catch(() => {
    for (const link of [...forks]) link.end(closed.yes);
  });
}

/**
 * A fork as the backend it was made from holds it: `end` ends it because that backend is gone
 * (`parentClosed`: a fork closed; else the worker died). `home` is the set it is in: a fork that
 * was dropped hands its own forks to the backend it was made from.
 */
interface ForkLink {
  end(parentClosed: boolean): void;
  home: Set<ForkLink>;
}

/**
 * A fork's ends, made outside the class so that they hold its liveness, port and proxy but never
 * the fork itself (a closure made in the constructor would keep `this`). Its channel leads into its
 * parent's worker, which dies without a word on this channel: the parent ends it then. Dropped
 * without close(), it is released in the worker once collected.
 */
function forkEnds(parentForks: Set<ForkLink>, ownForks: Set<ForkLink>, live: Liveness, target: object, api: Remote<WorkerApi>) {
  const link: ForkLink = {
    home: parentForks,
    end(parentClosed) {
      link.home.delete(link);
      if (!parentClosed) {
        live.markGone('the worker it was forked in is gone');
        (target as { close?: () => void }).close?.();
        return;
      }
      // The worker still runs: it releases this fork and closes the channel (as for close()).
      if (!live.reason) api.release().catch(() => {});
      live.markGone(
        'the fork it was made from was closed',
        'agentvfs: the fork this one was made from was closed (close() was called on it), which ends this fork too; this call and all later ones on it fail. The worker and its backend still work: fork() again for more work.',
      );
    },
  };
  parentForks.add(link);
  return {
    leave: () => link.home.delete(link),
    dropped: () => {
      link.home.delete(link);
      // Its forks live on (they need nothing of it in the worker): the backend it came from takes them.
      for (const child of ownForks) {
        child.home = link.home;
        link.home.add(child);
      }
      ownForks.clear();
      if (!live.reason) api.release().catch(() => {});
      live.markGone('it was dropped');
    },
  };
}

export class RemoteBackend extends BackendMethods implements ToolHost {
  readonly #api: Remote<WorkerApi>;
  readonly #live: Liveness;
  readonly #target: object;
  readonly #transferInputs: boolean;
  // The Comlink proxies for the two calls every request uses, made once (each property read makes a new one).
  readonly #callRemote: (request: BackendRequest) => Promise<unknown>;
  readonly #toolRemote: (request: ToolRequest) => Promise<ToolResult>;
  #started = false;
  // approve() ports of this backend's guarded sessions, closed with it.
  readonly #approvePorts = new Set<ApprovePort>();
  readonly #watches: RemoteWatches;
  /** The worker's name for this backend (known once it answered), for merge() and diff() arguments. */
  #id = '';
  /** Set on a fork: closing it releases the fork in the worker. */
  #isFork = false;
  /** What ends this backend's open forks when it goes (one handler on its own `gone`, not one per fork). */
  readonly #forks = new Set<ForkLink>();
  /** Set when this fork is closed, before it is marked gone: its forks then end as forks of a closed fork. */
  readonly #closed = { yes: false };
  /** On a fork: takes it off its parent's #forks. */
  #leaveParent = () => {};
  /** Resolves once the worker answered; rejects if it failed to start. */
  readonly ready: Promise<void>;

  constructor(target: object, options: ConnectOptions = {}, fork?: { id: string; parentForks: Set<ForkLink> }) {
    super();
    checkConnectOptions(options);
    preserveVfsErrors();
    this.#target = target;
    // The liveness watcher is also the endpoint: it fails pending and later requests once the worker is gone.
    this.#live = watchLiveness(target);
    this.#api = wrap<WorkerApi>(this.#live.endpoint as unknown as Endpoint); // the same shape, typed without DOM's Event
    this.#callRemote = this.#api.call;
    this.#toolRemote = this.#api.tool;
    this.#transferInputs = options.transferInputs === true;
    this.#watches = new RemoteWatches(target, this.#live.gone);
    endForksWhenGone(this.#live.gone, this.#forks, this.#closed);
    if (fork !== undefined) {
      const { leave, dropped } = forkEnds(fork.parentForks, this.#forks, this.#live, target, this.#api);
      this.#leaveParent = leave;
      sessions?.register(this, dropped, this);
    }
    this.#isFork = fork !== undefined;
    this.#id = fork?.id ?? '';
    const timeout = options.startTimeoutMs ?? 15_000;
    const timer = setTimeout(() => this.#live.markGone(`it did not answer within ${timeout} ms of connect()`), timeout);
    const pings = pingUntilAnswered(this.#api, this.#live);
    this.ready = Promise.race([pings.answer, this.#live.gone])
      .then(async ({ protocol, id }) => {
        this.#id = id;
        if (protocol !== PROTOCOL_VERSION) {
          this.#live.markGone(`it speaks protocol ${protocol}, this client ${PROTOCOL_VERSION}: use the same agentvfs version on both sides`);
          throw this.#live.reason;
        }
        if (options.backend) await this.#api.init(options.backend);
        this.#started = true;
      })
      .finally(() => {
        clearTimeout(timer);
        pings.stop();
      });
    this.ready.catch(() => {});
  }

  /**
   * One round trip: `request` is the method name and its arguments, sent as one flat array.
   * Once the worker has answered, it goes out at once (no turn through `ready`), and the
   * caller gets Comlink's own promise: failing it when the worker dies is the endpoint's job.
   */
  #call<T>(request: BackendRequest, transferables?: Transferable[]): Promise<T> {
    if (this.#live.reason) return Promise.reject(this.#live.reason);
    if (transferables !== undefined && transferables.length > 0) transfer(request, transferables);
    // Called as a plain function, never `this.#callRemote(…)`: a bundler that lowers private fields
    // (Vite 7's default target, Safari 16) turns that into `callRemote.call(this, …)`, which the
    // Comlink proxy sends to the worker as a method named "call", with this backend as an argument.
    const callRemote = this.#callRemote;
    const sent = () => (callRemote(request) as Promise<T>).catch((error: unknown) => Promise.reject(notSendable(error, request[0])));
    if (this.#started) return this.#kept(sent());
    return this.#kept(this.ready.then(sent));
  }

  /**
   * `answer`, holding this backend until it comes: nothing else holds a fork whose caller kept
   * only the promise (`(await remote.fork()).grep(…)`), and a fork collected is released.
   */
  #kept<T>(answer: Promise<T>): Promise<T> {
    return this.#isFork ? answer.finally(() => this.#id) : answer;
  }

  #movable(bytes: unknown): ArrayBuffer[] | undefined {
    if (!this.#transferInputs || !(bytes instanceof Uint8Array)) return undefined;
    const buffer = bytes.buffer;
    return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? [buffer] : undefined;
  }

  /** Terminates the worker (when the target is one); later calls fail. */
  close(): void {
    if (this.#isFork) {
      // The worker forgets the fork and closes the channel once it has read this.
      // (Sent at once, answered or not: the worker served the fork before fork() resolved.)
      if (!this.#live.reason) this.#api.release().catch(() => {});
      this.#leaveParent();
      this.#closed.yes = true;
      sessions?.unregister(this);
      this.#closeApprovePorts();
      this.#live.markGone(
        'close() was called',
        'agentvfs: this fork was closed (close() was called); this call and all later ones on it fail. The worker and the backend it was forked from still work: fork() again for more work.',
      );
      return;
    }
    // Said first: a Web Worker's terminate() would otherwise report itself (liveness.ts).
    this.#live.markGone('close() was called');
    const terminate = (this.#target as { terminate?: () => unknown }).terminate;
    if (typeof terminate === 'function') terminate.call(this.#target);
    else (this.#target as { close?: () => void }).close?.();
    this.#closeApprovePorts();
  }

  #closeApprovePorts(): void {
    for (const port of this.#approvePorts) port.close();
    this.#approvePorts.clear();
  }

  /** The listener runs here; the worker sends each commit's events before the call's answer (see RemoteWatches). */
  override watch(listener: WatchListener, options?: WatchOptions): () => void {
    const api = this.#api;
    const whenStarted = <T>(send: () => Promise<T>): Promise<T> => {
      if (this.#live.reason) return Promise.reject(this.#live.reason);
      return this.#started ? send() : this.ready.then(send);
    };
    return this.#watches.add(
      listener,
      options,
      (id, opts) => whenStarted(() => api.watch(id, opts)),
      (id) => whenStarted(() => api.unwatch(id)),
    );
  }

  /**
   * A fork that lives in the same worker, served over its own MessageChannel; this side gets a
   * RemoteBackend for it. close() on it releases the fork in the worker; it also stops working
   * when this backend's worker goes.
   */
  override async fork(): Promise<RemoteBackend> {
    const { port1, port2 } = new MessageChannel();
    const id = `f${(forkCounter++).toString(36)}-${Math.random().toString(36).slice(2)}`;
    try {
      await this.#callApi(() => this.#api.fork(id, transfer(port2, [port2 as unknown as Transferable])));
    } catch (error) {
      port1.close();
      throw error;
    }
    return new RemoteBackend(port1, {}, { id, parentForks: this.#forks });
  }

  #callApi<T>(send: () => Promise<T>): Promise<T> {
    if (this.#live.reason) return Promise.reject(this.#live.reason);
    return this.#kept(this.#started ? send() : this.ready.then(send));
  }

  /** How this backend is named in its worker, when passed to merge() or diff(). */
  #ref(): BackendRef {
    return { agentvfsBackend: this.#id };
  }

  /**
   * Tool sessions live in the worker: each call is one round trip and runs there (see ToolHost).
   * A guarded one is opened there first, with its permissions and a port to ask approve() through,
   * so the question runs here; createTools's audit (onEvent) runs here too, after each call.
   */
  createToolSession(options: ToolsOptions, around?: ToolsAround): Tools<string> {
    const id = `${Date.now().toString(36)}-${(sessionCounter++).toString(36)}-${Math.random().toString(36).slice(2)}`;
    const api = this.#api;
    const tool = this.#toolRemote;
    const dialect = checkDialect(options.dialect);
    // A shared session lives in the worker under its id; the default (own session, six tools) sends nothing extra.
    const sharedId = checkSession(options.session)?.id;
    // The signals of this session's calls in flight, by call number: approve() is asked here, for a call made here.
    const signals = new Map<number, AbortSignalLike>();
    // Checked here (EINVAL at once); the permissions are compiled in the worker, where the session opens with its dialect.
    const guarded = checkGuardOptions(options) ? this.#openGuardedSession(id, options, dialect, sharedId, (n) => signals.get(n)) : undefined;
    const opened = guarded?.opened;
    // Arguments a worker cannot be sent (a function, a symbol) are a bad argument, as in process: an Error: result.
    const unsent = (request: ToolRequest, error: unknown): ToolResult => {
      if ((error as { name?: unknown } | null)?.name !== 'DataCloneError') throw error;
      const message = `arguments for ${typeof request[1] === 'string' ? request[1] : 'a tool'} must be JSON values (strings, numbers, booleans, null, arrays and objects of them); this call's cannot be sent to the worker.`;
      return { text: `Error: EINVAL: ${message}`, isError: true, code: 'EINVAL', changed: [] };
    };
    const send = (request: ToolRequest): Promise<ToolResult> => tool(request).catch((error: unknown) => unsent(request, error));
    // Sent once the worker (and a guarded session there) is ready.
    const whenReady = <T>(go: () => Promise<T>): Promise<T> =>
      this.#kept(opened ? opened.then(go) : this.#started ? go() : this.#live.reason ? Promise.reject(this.#live.reason) : this.ready.then(go));
    const run = (name: string, args?: unknown, tag?: CallTag): Promise<ToolResult> => {
      const numbered = numberedCall(tag); // (createTools numbers every call before it gets here)
      // A signal stays here (it cannot be sent): a question the call's write asks finds it by the call's number.
      const signal = numbered?.signal;
      const call: CallContext | undefined = numbered && { n: numbered.n, unanswered: numbered.unanswered };
      const request: ToolRequest =
        numbered === undefined && sharedId === undefined && dialect === 'agentvfs' ? [id, name, args] : [id, name, args, dialect, sharedId, call];
      // Checked as it is sent: a cancelCall posted after it reaches the worker after it.
      const go = () => (signal?.aborted ? Promise.resolve(cancelledResult()) : send(request));
      const sent = whenReady(go);
      if (signal === undefined || numbered === undefined) return sent;
      const { n } = numbered;
      if (guarded?.port) signals.set(n, signal);
      // The worker's run of the call sees the abort too (a retry there does not start).
      const cancel = () => void Promise.resolve(api.cancelCall(id, n)).catch(() => {});
      signal.addEventListener('abort', cancel, { once: true });
      return sent.finally(() => {
        signals.delete(n);
        signal.removeEventListener('abort', cancel);
      });
    };
    const preview = (name: string, args?: unknown, options: PreviewOptions = {}): Promise<ToolPreview> => {
      // An earlier call whose arguments cannot be sent is no call (in process, its arguments are refused and it is skipped).
      const after = options.after?.filter((call) => canSend(call.args));
      const request: PreviewRequest = after === undefined ? [id, name, args, dialect, sharedId] : [id, name, args, dialect, sharedId, after];
      return whenReady(() => api.preview(request).catch((error: unknown) => failedPreview(unsent([id, name, args], error))));
    };
    const remote = toolSet(dialectDefinitions(dialect, options.descriptions), run, preview);
    const tools = around ? around(remote) : remote;
    const port = guarded?.port;
    sessions?.register(tools, () => {
      if (port) {
        port.close();
        this.#approvePorts.delete(port);
      }
      void api.closeSession(id).catch(() => {});
    });
    return tools;
  }

  #openGuardedSession(
    id: string,
    options: ToolsOptions,
    dialect: DialectName,
    sharedId: string | undefined,
    signalOf: (call: number) => AbortSignalLike | undefined,
  ): { opened: Promise<void>; port: ApprovePort | undefined } {
    const port = options.approve ? serveApprove(options.approve, signalOf) : undefined;
    if (port) this.#approvePorts.add(port);
    const request: SessionRequest = [id, options.permissions, port?.remote, dialect, sharedId];
    if (port) transfer(request, [port.remote as ArrayBuffer]); // a MessagePort, typed as Comlink's Transferable
    const opened = this.ready.then(() => this.#api.openSession(request));
    opened.catch(() => {});
    return { opened, port };
  }

  /**
   * The bytes a call may move to the worker (transferInputs): writeFile's data, restore's
   * snapshot, uploadFiles' contents. The worker always keeps the bytes it receives (its own
   * copy, or moved), so uploadFiles' and writeFile's `copy` option changes nothing here.
   */
  #inputBuffers(method: BackendMethod, args: readonly unknown[]): ArrayBuffer[] | undefined {
    if (!this.#transferInputs) return undefined;
    if (method === 'writeFile') return this.#movable(args[1]);
    if (method === 'restore') return this.#movable(args[0]);
    if (method === 'uploadFiles' && Array.isArray(args[0])) {
      return [...new Set(args[0].flatMap((pair: unknown) => this.#movable((pair as unknown[] | null)?.[1]) ?? []))];
    }
    return undefined;
  }

  static {
    for (const method of BACKEND_METHODS) {
      if (Object.hasOwn(RemoteBackend.prototype, method)) continue; // forwarded its own way, above
      Object.defineProperty(RemoteBackend.prototype, method, {
        configurable: true,
        writable: true,
        value: {
          // A named method (stack traces, inspect), sending its arguments without trailing undefineds.
          [method](this: RemoteBackend, ...args: unknown[]): Promise<unknown> {
            while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
            // A backend argument (merge's fork, diff's other side) travels as its name in the worker.
            for (let i = 0; i < args.length; i++) {
              const other = unwrapBackend(args[i]); // (a persistence wrapper around one stands for it)
              if (!(other instanceof RemoteBackend)) continue;
              if (other.#live.reason) {
                return Promise.reject(new VfsError('EINVAL', `The backend passed to ${method}() was closed, or its worker is gone; nothing was done.`));
              }
              args[i] = other.#ref();
            }
            if (method === 'uploadFiles' && Array.isArray(args[0])) args[0] = sendableEntries(args[0]);
            return this.#call([method, ...args], this.#inputBuffers(method, args));
          },
        }[method],
      });
    }
  }
}
// Node's inspect and devtools print the constructor's name, which minification shortens.
Object.defineProperty(RemoteBackend, 'name', { value: 'RemoteBackend' });

export { WorkerGoneError };

/** Arguments structured clone cannot send (a function, a symbol) are a bad argument, as in process: EINVAL, not a DataCloneError. */
function notSendable(error: unknown, method: string): unknown {
  if ((error as { name?: unknown } | null)?.name !== 'DataCloneError') return error;
  // Bytes already moved away (by an earlier call with transferInputs: true, or a postMessage of yours) are empty here.
  const detached = /detached/i.test(String((error as Error).message));
  return new VfsError(
    'EINVAL',
    detached
      ? `the bytes given to ${method} are detached (their ArrayBuffer was transferred: with transferInputs: true, an array you passed before is empty afterwards); pass bytes you still hold.`
      : `the arguments of ${method} cannot be sent to the worker (a function or a symbol cannot): send strings, numbers, booleans, null, bytes, and arrays and plain objects of them.`,
  );
}
