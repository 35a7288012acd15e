/** The shapes the example (examples/cloudflare) exposes, as the tests see them over HTTP and RPC. */
export type ApiError = { code: string; message: string; [detail: string]: unknown };

export type CallOutcome = { ok: true; result: string; is_error: boolean; generation: number } | { ok: false; status: number; error: ApiError };

export interface SessionInfo {
  exists: boolean;
  generation: number | null;
  instance: string;
  corrupt: { reason: string } | null;
  quarantined: string[];
}

/** The Durable Object's RPC methods (a stub returns promises). */
export interface SessionStub {
  create(files?: Record<string, string>): Promise<CallOutcome>;
  call(name: string, args: unknown): Promise<CallOutcome>;
  definitions(): Promise<Array<{ name: string }>>;
  info(): Promise<SessionInfo | CallOutcome>;
  storedSnapshot(): Promise<{ bytes: Uint8Array | null; leftOut: string[] } | CallOutcome>;
  recover(): Promise<CallOutcome>;
  destroy(): Promise<CallOutcome>;
}

/** The part of Durable Object storage the tests use to inspect and tamper with saved data. */
export interface Storage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
  list<T = unknown>(options?: { prefix?: string; reverse?: boolean; limit?: number }): Promise<Map<string, T>>;
  transaction<T>(work: (txn: unknown) => Promise<T>): Promise<T>;
}
