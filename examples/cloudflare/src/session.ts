/**
 * One agent filesystem per Durable Object (one object per session id).
 *
 * - The filesystem lives in memory (an agentvfs StateBackend) with one tool set, so the
 *   session's read tracking (which file versions the agent has read) lives here too.
 * - After every successful mutation (write_file, edit_file) the whole filesystem is
 *   snapshotted and saved to the object's storage (see snapshot-store.ts) BEFORE the result
 *   is returned: whatever a client saw acknowledged survives eviction or a restart.
 * - On wake, the constructor restores the last saved snapshot. If it cannot (ESNAPSHOT from
 *   `restore`, or missing/mismatched chunks) the session is marked broken: every call answers
 *   409 SNAPSHOT_CORRUPT with the reason, nothing is overwritten, and only an explicit
 *   `recover()` moves the bad data aside (quarantine/…) and starts an empty filesystem.
 *
 * Every public method here is also a Workers RPC method: another Worker with this binding
 * can call `env.SESSIONS.get(id).call('read_file', { path: '/a' })` directly.
 */
import { DurableObject } from 'cloudflare:workers';
import { createStateBackend, createTools, isVfsError, type StateBackend, type ToolResult, type Tools } from 'agentvfs';
import { mcpHandler } from 'agentvfs/mcp';
import { StoredSnapshotError, dropOrphans, loadSnapshot, quarantine, rawStoredBytes, readManifest, saveSnapshot, type Manifest } from './snapshot-store.ts';
import { SESSION_LIMITS, TOOL_NAMES, type ApiError, type Env } from './shared.ts';

export type CallOutcome = { ok: true; result: string; is_error: boolean; generation: number } | { ok: false; status: number; error: ApiError };

export interface SessionInfo {
  exists: boolean;
  /** Which save is current (1 = just created); increases by one per persisted mutation. */
  generation: number | null;
  snapshotBytes: number | null;
  chunks: number | null;
  /** Random per object instance: changes when the object was evicted or restarted. */
  instance: string;
  /** Set when the stored snapshot could not be restored. */
  corrupt: { reason: string } | null;
  quarantined: string[];
}

type State = { kind: 'absent' } | { kind: 'ready'; backend: StateBackend; tools: Tools; manifest: Manifest } | { kind: 'corrupt'; reason: string };

export class AgentFsSession extends DurableObject<Env> {
  #state: State = { kind: 'absent' };
  #queue: Promise<unknown> = Promise.resolve();
  readonly #instance = crypto.randomUUID();
  #mcp: ((request: Request) => Promise<Response>) | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(() => this.#load());
  }

  /** Restores the saved snapshot (if any) into a fresh backend and tool set. */
  async #load(): Promise<void> {
    const storage = this.ctx.storage;
    let loaded: Awaited<ReturnType<typeof loadSnapshot>>;
    try {
      loaded = await loadSnapshot(storage);
    } catch (error) {
      if (error instanceof StoredSnapshotError) {
        this.#state = { kind: 'corrupt', reason: error.message };
        return;
      }
      throw error;
    }
    if (!loaded) {
      this.#state = { kind: 'absent' };
      return;
    }
    const backend = createStateBackend({ limits: SESSION_LIMITS });
    try {
      await backend.restore(loaded.bytes);
    } catch (error) {
      if (isVfsError(error) && error.code === 'ESNAPSHOT') {
        this.#state = { kind: 'corrupt', reason: error.message };
        return;
      }
      throw error;
    }
    await dropOrphans(storage, loaded.manifest.generation);
    this.#state = { kind: 'ready', backend, tools: createTools(backend), manifest: loaded.manifest };
  }

  /** Runs calls one at a time, so a save never interleaves with another call. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #unavailable(): CallOutcome | undefined {
    const s = this.#state;
    if (s.kind === 'absent') {
      return { ok: false, status: 404, error: { code: 'UNKNOWN_SESSION', message: 'No such session. Create one with POST /sessions first.' } };
    }
    if (s.kind === 'corrupt') {
      return {
        ok: false,
        status: 409,
        error: {
          code: 'SNAPSHOT_CORRUPT',
          message: `The stored filesystem of this session could not be restored: ${s.reason}. Nothing was changed or deleted. Download it with GET …/snapshot, or POST …/recover to set it aside and start an empty filesystem.`,
          reason: s.reason,
        },
      };
    }
    return undefined;
  }

  /** Creates the session's filesystem (optionally with initial files) and saves it. */
  create(files: Record<string, string> = {}): Promise<CallOutcome> {
    return this.#serial(async () => {
      if (this.#state.kind !== 'absent') {
        return { ok: false, status: 409, error: { code: 'SESSION_EXISTS', message: 'This session already exists.' } };
      }
      let backend: StateBackend;
      try {
        backend = createStateBackend({ files, limits: SESSION_LIMITS });
        await backend.stat('/'); // surfaces a bad path or an over-limit file now
      } catch (error) {
        if (isVfsError(error)) return { ok: false, status: 400, error: { code: 'INVALID_FILES', message: error.message } };
        throw error;
      }
      const manifest = await saveSnapshot(this.ctx.storage, await backend.snapshot(), undefined);
      this.#state = { kind: 'ready', backend, tools: createTools(backend), manifest };
      return { ok: true, result: 'created', is_error: false, generation: manifest.generation };
    });
  }

  /** Runs one of the six tools; persists the filesystem first if the call changed it. */
  call(name: string, args: unknown): Promise<CallOutcome> {
    return this.#serial(async () => {
      const unavailable = this.#unavailable();
      if (unavailable) return unavailable;
      if (!TOOL_NAMES.includes(name)) {
        return {
          ok: false,
          status: 404,
          error: { code: 'UNKNOWN_TOOL', message: `Unknown tool "${name}". Tools: ${TOOL_NAMES.join(', ')}.`, tools: TOOL_NAMES },
        };
      }
      const ran = await this.#runAndSave(name, args);
      if ('persistFailed' in ran) return { ok: false, status: 503, error: { code: 'PERSIST_FAILED', message: ran.persistFailed } };
      return { ok: true, result: ran.text, is_error: ran.isError, generation: ran.generation };
    });
  }

  /** Runs a tool in the ready state; a call that wrote files is saved before it resolves. */
  async #runAndSave(name: string, args: unknown): Promise<(ToolResult & { generation: number }) | { persistFailed: string }> {
    const state = this.#state as Extract<State, { kind: 'ready' }>;
    const result = await state.tools.run(name, args);
    // Only a call that wrote files is saved (a failed mutation changes nothing: agentvfs guarantees it).
    if (result.changed.length > 0) {
      try {
        state.manifest = await saveSnapshot(this.ctx.storage, await state.backend.snapshot(), state.manifest);
      } catch (error) {
        // Not saved, so not acknowledged: go back to what storage holds.
        await this.#load();
        return { persistFailed: `The change was not saved and has been undone: ${String(error)}. Retry the call.` };
      }
    }
    return { ...result, generation: state.manifest.generation };
  }

  /**
   * MCP (Streamable HTTP) for this session: the Worker routes each request of one MCP session
   * here (see mcp.ts). Stateless inside the object: the session is the object itself, so it
   * outlives the object's instance, and every tool call goes through the same queue and saves as
   * call() does.
   */
  override fetch(request: Request): Promise<Response> {
    const unavailable = this.#unavailable();
    if (unavailable && !unavailable.ok) return Promise.resolve(mcpError(unavailable.status, unavailable.error.message));
    this.#mcp ??= mcpHandler(this.#mcpTools(), { name: 'agentvfs-sessions' });
    return this.#mcp(request);
  }

  /** The session's tools as a tool set for mcpHandler: each call queued, saved, and refused once the session is gone. */
  #mcpTools(): Tools {
    const run = (name: string, args?: unknown): Promise<ToolResult> =>
      this.#serial(async () => {
        const unavailable = this.#unavailable();
        if (unavailable && !unavailable.ok) return { text: `Error: ${unavailable.error.message}`, isError: true, changed: [] };
        const ran = await this.#runAndSave(name, args);
        if ('persistFailed' in ran) return { text: `Error: ${ran.persistFailed}`, isError: true, changed: [] };
        const { generation: _, ...result } = ran;
        return result;
      });
    return { definitions: this.definitions(), run, call: async (name, args) => (await run(name, args)).text };
  }

  /** The tool definitions (name, description, JSON Schema parameters) to give the model. */
  definitions(): Tools['definitions'] {
    return createTools(createStateBackend()).definitions;
  }

  info(): Promise<SessionInfo> {
    return this.#serial(async () => {
      const manifest = this.#state.kind === 'ready' ? this.#state.manifest : await readManifest(this.ctx.storage);
      const quarantined = [...(await this.ctx.storage.list({ prefix: 'quarantine/' })).keys()]
        .filter((k) => k.endsWith('/meta'))
        .map((k) => k.slice(0, -'meta'.length));
      return {
        exists: this.#state.kind !== 'absent',
        generation: manifest?.generation ?? null,
        snapshotBytes: manifest?.bytes ?? null,
        chunks: manifest?.chunks ?? null,
        instance: this.#instance,
        corrupt: this.#state.kind === 'corrupt' ? { reason: this.#state.reason } : null,
        quarantined,
      };
    });
  }

  /** The stored snapshot bytes as they are (also when they are corrupt), or null when there are none. */
  storedSnapshot(): Promise<Uint8Array | null> {
    return this.#serial(async () => {
      if (this.#state.kind === 'absent') return null;
      return rawStoredBytes(this.ctx.storage);
    });
  }

  /** Only for a corrupt session: moves the bad snapshot to quarantine/… and starts an empty filesystem. */
  recover(): Promise<CallOutcome> {
    return this.#serial(async () => {
      if (this.#state.kind !== 'corrupt') {
        const unavailable = this.#unavailable();
        if (unavailable) return unavailable;
        return { ok: false, status: 409, error: { code: 'NOT_CORRUPT', message: 'The session restored fine; there is nothing to recover.' } };
      }
      const prefix = await quarantine(this.ctx.storage, `${Date.now()}-${crypto.randomUUID().slice(0, 8)}`);
      const backend = createStateBackend({ limits: SESSION_LIMITS });
      const manifest = await saveSnapshot(this.ctx.storage, await backend.snapshot(), undefined);
      this.#state = { kind: 'ready', backend, tools: createTools(backend), manifest };
      return {
        ok: true,
        result: `The corrupt snapshot was moved to ${prefix} and an empty filesystem started.`,
        is_error: false,
        generation: manifest.generation,
      };
    });
  }

  /** Deletes the session and everything it stored. */
  destroy(): Promise<CallOutcome> {
    return this.#serial(async () => {
      const unavailable = this.#unavailable();
      if (unavailable && this.#state.kind === 'absent') return unavailable;
      await this.ctx.storage.deleteAll();
      this.#state = { kind: 'absent' };
      return { ok: true, result: 'deleted', is_error: false, generation: 0 };
    });
  }
}

/** A JSON-RPC error for an MCP client: 404 is the SDK's own "Session not found", which makes a client start a new session. */
export function mcpError(status: number, message: string): Response {
  const error = status === 404 ? { code: -32001, message: 'Session not found' } : { code: -32000, message };
  return Response.json({ jsonrpc: '2.0', error, id: null }, { status, headers: { 'cache-control': 'no-store' } });
}
