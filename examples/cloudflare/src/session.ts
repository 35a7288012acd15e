/**
 * One agent filesystem per Durable Object (one object per session id).
 *
 * - The filesystem lives in memory (an agentvfs StateBackend) with one tool set, so the
 *   session's read tracking (which file versions the agent has read) lives here too.
 * - It is kept in the object's storage by agentvfs/persist's Durable Object store, with
 *   `durability: 'immediate'`: a write_file or edit_file that succeeded is committed BEFORE its
 *   result is returned, and each commit is one storage transaction of only the files it
 *   changed (plus the session's generation counter, see generationCounted).
 * - On wake, the constructor opens the stored workspace. Records that fail their checksums are
 *   kept aside by the store (under `agentvfs:v:aside:…`, nothing deleted) and the session is
 *   marked corrupt: every call answers 409 SNAPSHOT_CORRUPT with the reason until an explicit
 *   `recover()` starts using the (empty) filesystem the store opened instead. The mark is a key
 *   (`corrupt`) put in the same transaction that keeps the records aside, and deleted by
 *   `recover()`, so it outlives the object's instance.
 *
 * Every public method here is also a Workers RPC method: another Worker with this binding
 * can call `env.SESSIONS.get(id).call('read_file', { path: '/a' })` directly.
 */
import { DurableObject } from 'cloudflare:workers';
import { createStateBackend, createTools, isVfsError, type ToolResult, type Tools } from 'agentvfs';
import { mcpHandler } from 'agentvfs/mcp';
import {
  createDurableObjectStore,
  type DurableObjectStorageLike,
  openPersistent,
  type PersistentBackend,
  readKeptAside,
  type WorkspaceStore,
} from 'agentvfs/persist';
import { SESSION_LIMITS, TOOL_NAMES, type ApiError, type Env } from './shared.ts';

export type CallOutcome = { ok: true; result: string; is_error: boolean; generation: number } | { ok: false; status: number; error: ApiError };

export interface SessionInfo {
  exists: boolean;
  /** How many commits the session's storage has had (1 = just created). */
  generation: number | null;
  /** Random per object instance: changes when the object was evicted or restarted. */
  instance: string;
  /** Set when the stored workspace could not be opened. */
  corrupt: { reason: string } | null;
  /** Keys under which corrupt records were kept aside. */
  quarantined: string[];
}

type Ready = { kind: 'ready'; backend: PersistentBackend; tools: Tools; store: WorkspaceStore };
/** `unloaded`: what storage holds must be read again before the next call (a reload after a failed save failed too). */
type State = { kind: 'absent' } | { kind: 'unloaded' } | Ready | { kind: 'corrupt'; reason: string; opened: Ready };

const GENERATION = 'generation';
/** Set (to `{ aside, reason? }`) when the store keeps the workspace aside, deleted by recover(). */
const CORRUPT = 'corrupt';
const NOT_SAVED = 'Error: not saved: ';

/** A PERSIST_FAILED error: what the caller should know, and what the store said. */
function persistFailed(message: string, cause: unknown): ApiError {
  const said =
    typeof cause === 'string' ? cause.slice(cause.startsWith(NOT_SAVED) ? NOT_SAVED.length : 0) : cause instanceof Error ? cause.message : String(cause);
  return { code: 'PERSIST_FAILED', message, reason: said.split('. The change is in the workspace')[0] };
}
const PREFIX = 'agentvfs:';
const ASIDE = `${PREFIX}v:aside:`;

export class AgentFsSession extends DurableObject<Env> {
  #state: State = { kind: 'absent' };
  #queue: Promise<unknown> = Promise.resolve();
  #generation = 0;
  readonly #instance = crypto.randomUUID();
  #mcp: ((request: Request) => Promise<Response>) | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(() => this.#load());
  }

  /**
   * The object's storage as the store sees it, where every transaction also counts one more
   * generation (the counter commits with the files or not at all), and a transaction that keeps
   * the workspace aside also marks the session corrupt.
   */
  #counted(): DurableObjectStorageLike {
    const storage = this.ctx.storage as unknown as DurableObjectStorageLike;
    return {
      get: (key) => storage.get(key),
      list: (options) => storage.list(options),
      transaction: (work) =>
        storage.transaction(async (txn) => {
          let aside: string | undefined;
          const result = await work({
            get: (key) => txn.get(key),
            delete: (key) => txn.delete(key),
            put: (key, value) => {
              if (key.startsWith(ASIDE)) aside = key.slice(`${PREFIX}v:`.length);
              return txn.put(key, value);
            },
          });
          if (aside !== undefined) await txn.put(CORRUPT, { aside });
          const next = ((await txn.get(GENERATION)) as number | undefined) ?? 0;
          await txn.put(GENERATION, next + 1);
          this.#generation = next + 1;
          return result;
        }),
    };
  }

  /**
   * Opens the stored workspace (if any) into a fresh backend and tool set. It is corrupt when
   * the store kept it aside now, or did so before and recover() has not been asked since (the
   * object was evicted first: the store then opened the empty workspace left beside it).
   */
  async #load(): Promise<void> {
    this.#state = { kind: 'unloaded' }; // until storage has been read
    const generation = await this.ctx.storage.get<number>(GENERATION);
    if (generation === undefined) {
      this.#state = { kind: 'absent' };
      return;
    }
    this.#generation = generation;
    const ready = await this.#open();
    const mark = await this.ctx.storage.get<{ aside: string; reason?: string }>(CORRUPT);
    if (ready.restored.status === 'corrupt') {
      // The reason beside the mark, so a later wake need not read what was kept aside to give it.
      await this.ctx.storage.put(CORRUPT, { ...mark, reason: ready.restored.reason }).catch(() => undefined);
      this.#state = { kind: 'corrupt', reason: ready.restored.reason, opened: ready };
    } else if (mark !== undefined) {
      const reason = mark.reason ?? (await readKeptAside(ready.store)).find((k) => k.key === mark.aside)?.reason ?? 'it was kept aside';
      this.#state = { kind: 'corrupt', reason, opened: ready };
    } else this.#state = ready;
  }

  async #open(files?: Record<string, string>): Promise<Ready & { restored: Awaited<ReturnType<typeof openPersistent>>['restored'] }> {
    const store = createDurableObjectStore(this.#counted(), { prefix: PREFIX });
    const { backend, restored } = await openPersistent(createStateBackend({ files, limits: SESSION_LIMITS }), store, { durability: 'immediate' });
    return { kind: 'ready', backend, tools: createTools(backend), store, restored };
  }

  /** Runs calls one at a time, so each acknowledged call has its own commit. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Reads storage again if a failed reload left nothing loaded; then why calls cannot run, if they cannot. */
  async #ready(): Promise<CallOutcome | undefined> {
    if (this.#state.kind === 'unloaded') {
      try {
        await this.#load();
      } catch (error) {
        this.#state = { kind: 'unloaded' };
        return { ok: false, status: 503, error: persistFailed('The stored filesystem could not be read. Retry the call.', error) };
      }
    }
    return this.#unavailable();
  }

  #unavailable(): CallOutcome | undefined {
    const s = this.#state;
    if (s.kind === 'absent') {
      return { ok: false, status: 404, error: { code: 'UNKNOWN_SESSION', message: 'No such session. Create one with POST /sessions first.' } };
    }
    if (s.kind === 'unloaded') {
      return { ok: false, status: 503, error: { code: 'PERSIST_FAILED', message: 'The stored filesystem could not be read. Retry the call.' } };
    }
    if (s.kind === 'corrupt') {
      return {
        ok: false,
        status: 409,
        error: {
          code: 'SNAPSHOT_CORRUPT',
          message: `The stored filesystem of this session could not be opened: ${s.reason}. It was kept aside, nothing was deleted. Download what still reads of it with GET …/snapshot, or POST …/recover to start an empty filesystem.`,
          reason: s.reason,
        },
      };
    }
    return undefined;
  }

  /** Creates the session's filesystem (optionally with initial files) and saves it. */
  create(files: Record<string, string> = {}): Promise<CallOutcome> {
    return this.#serial(async () => {
      const unavailable = await this.#ready();
      if (unavailable?.ok === false && unavailable.status === 503) return unavailable;
      if (this.#state.kind !== 'absent') {
        return { ok: false, status: 409, error: { code: 'SESSION_EXISTS', message: 'This session already exists.' } };
      }
      try {
        createStateBackend({ files, limits: SESSION_LIMITS }); // surfaces a bad path or an over-limit file now
      } catch (error) {
        if (isVfsError(error)) return { ok: false, status: 400, error: { code: 'INVALID_FILES', message: error.message } };
        throw error;
      }
      try {
        this.#state = await this.#open(files);
      } catch (error) {
        // The first save failed: nothing was stored, the session stays absent.
        this.#state = { kind: 'absent' };
        return { ok: false, status: 503, error: persistFailed('The session could not be saved, so it was not created. Retry the call.', error) };
      }
      return { ok: true, result: 'created', is_error: false, generation: this.#generation };
    });
  }

  /** Runs one of the six tools; a call that changed files is committed before it resolves. */
  call(name: string, args: unknown): Promise<CallOutcome> {
    return this.#serial(async () => {
      const unavailable = await this.#ready();
      if (unavailable) return unavailable;
      if (!TOOL_NAMES.includes(name)) {
        return {
          ok: false,
          status: 404,
          error: { code: 'UNKNOWN_TOOL', message: `Unknown tool "${name}". Tools: ${TOOL_NAMES.join(', ')}.`, tools: TOOL_NAMES },
        };
      }
      const ran = await this.#run(name, args);
      if ('persistFailed' in ran) return { ok: false, status: 503, error: ran.persistFailed };
      return { ok: true, result: ran.text, is_error: ran.isError, generation: this.#generation };
    });
  }

  /** Runs a tool in the ready state; one whose change could not be committed is undone (the object reloads what storage holds). */
  async #run(name: string, args: unknown): Promise<ToolResult | { persistFailed: ApiError }> {
    const state = this.#state as Ready;
    const result = await state.tools.run(name, args);
    // A save that failed answers "Error: not saved: …" with no error code (docs/persistence.md);
    // any other failure, whatever its text quotes, is the model's to read.
    if (result.isError && result.code === undefined && result.text.startsWith(NOT_SAVED)) {
      // What storage holds replaces the unsaved change; if it cannot be read now, the next call reads it.
      await this.#load().catch(() => {
        this.#state = { kind: 'unloaded' };
      });
      return {
        persistFailed: persistFailed(
          'The change could not be saved, so it was undone: the files are as they were before this call. Retry the call.',
          result.text,
        ),
      };
    }
    return result;
  }

  /**
   * MCP (Streamable HTTP) for this session: the Worker routes each request of one MCP session
   * here (see mcp.ts). Stateless inside the object: the session is the object itself, so it
   * outlives the object's instance, and every tool call goes through the same queue and saves as
   * call() does.
   */
  override async fetch(request: Request): Promise<Response> {
    const unavailable = await this.#serial(() => this.#ready());
    if (unavailable && !unavailable.ok) return mcpError(unavailable.status, unavailable.error.message);
    this.#mcp ??= mcpHandler(this.#mcpTools(), { name: 'agentvfs-sessions' });
    return this.#mcp(request);
  }

  /** The session's tools as a tool set for mcpHandler: each call queued, saved, and refused once the session is gone. */
  #mcpTools(): Tools {
    const run = (name: string, args?: unknown): Promise<ToolResult> =>
      this.#serial(async () => {
        const unavailable = await this.#ready();
        if (unavailable && !unavailable.ok) return { text: `Error: ${unavailable.error.message}`, isError: true, changed: [] };
        const ran = await this.#run(name, args);
        if ('persistFailed' in ran) return { text: `Error: ${ran.persistFailed.message}`, isError: true, changed: [] };
        return ran;
      });
    return { definitions: this.definitions(), run, call: async (name, args) => (await run(name, args)).text };
  }

  /** The tool definitions (name, description, JSON Schema parameters) to give the model. */
  definitions(): Tools['definitions'] {
    return createTools(createStateBackend()).definitions;
  }

  info(): Promise<SessionInfo | CallOutcome> {
    return this.#serial(async () => {
      const unavailable = await this.#ready();
      if (unavailable?.ok === false && unavailable.status === 503) return unavailable;
      const exists = this.#state.kind !== 'absent';
      // The heads of what was kept aside (a record, or its list of parts), not every stored file.
      const quarantined = exists ? [...(await this.ctx.storage.list({ prefix: ASIDE })).keys()].map((k) => k.slice(`${PREFIX}v:`.length)) : [];
      return {
        exists,
        generation: exists ? this.#generation : null,
        instance: this.#instance,
        corrupt: this.#state.kind === 'corrupt' ? { reason: this.#state.reason } : null,
        quarantined,
      };
    });
  }

  /**
   * A snapshot of the session's files; for a corrupt session, of what still reads of the newest
   * workspace kept aside (`leftOut`: the records that do not, still in storage), null when nothing does.
   */
  storedSnapshot(): Promise<{ bytes: Uint8Array | null; leftOut: string[] } | CallOutcome> {
    return this.#serial(async () => {
      const unavailable = await this.#ready();
      const s = this.#state;
      if (s.kind === 'ready') return { bytes: await s.backend.snapshot(), leftOut: [] };
      if (s.kind !== 'corrupt') return unavailable!;
      const kept = (await readKeptAside(s.opened.store)).at(-1);
      return { bytes: kept?.salvaged ?? null, leftOut: kept?.damaged ?? [] };
    });
  }

  /** Only for a corrupt session: starts using the empty filesystem opened beside what was kept aside. */
  recover(): Promise<CallOutcome> {
    return this.#serial(async () => {
      const unavailable = await this.#ready();
      const s = this.#state;
      if (s.kind !== 'corrupt') {
        if (unavailable) return unavailable;
        return { ok: false, status: 409, error: { code: 'NOT_CORRUPT', message: 'The session opened fine; there is nothing to recover.' } };
      }
      try {
        await this.ctx.storage.delete(CORRUPT);
      } catch (error) {
        return { ok: false, status: 503, error: persistFailed('The recovery could not be saved; the session stays as it was. Retry the call.', error) };
      }
      this.#state = s.opened;
      return {
        ok: true,
        result: 'The corrupt workspace stays kept aside (see GET /sessions/:id, quarantined); an empty filesystem started.',
        is_error: false,
        generation: this.#generation,
      };
    });
  }

  /** Deletes the session and everything it stored. */
  destroy(): Promise<CallOutcome> {
    return this.#serial(async () => {
      const unavailable = await this.#ready();
      if (unavailable && this.#state.kind === 'absent') return unavailable;
      await this.ctx.storage.deleteAll();
      this.#state = { kind: 'absent' };
      this.#generation = 0;
      return { ok: true, result: 'deleted', is_error: false, generation: 0 };
    });
  }
}

/** A JSON-RPC error for an MCP client: 404 is the SDK's own "Session not found", which makes a client start a new session. */
export function mcpError(status: number, message: string): Response {
  const error = status === 404 ? { code: -32001, message: 'Session not found' } : { code: -32000, message };
  return Response.json({ jsonrpc: '2.0', error, id: null }, { status, headers: { 'cache-control': 'no-store' } });
}
