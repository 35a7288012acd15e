/**
 * createSession(): read tracking that several tool sets share. A tool set made without `session`
 * has its own; tool sets made with the same session object (of any dialect) see each other's
 * reads and writes, so a file read with one set's tool may be edited with another's. Over a
 * worker the tracking lives in the worker, keyed by the session's id.
 */

/** An opaque handle: pass it as `createTools(backend, { session })`. Plain data (it crosses postMessage as its id). */
export interface ToolSession {
  readonly id: string;
}

// Sessions made by createSession or sessionWithId; what each tracks is in session-state.ts.
const made = new WeakSet<ToolSession>();
let counter = 0;

/** A new session for `createTools(backend, { dialect, session })`: for one backend and its forks (another is a TypeError). */
export function createSession(): ToolSession {
  return sessionWithId(`s-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2)}`);
}

/** A session for a given id: a worker makes one per id its clients send. */
export function sessionWithId(id: string): ToolSession {
  const session = Object.freeze({ id });
  made.add(session);
  return session;
}

/** The `session` option checked (undefined, or a session createSession made in this realm); a TypeError otherwise. */
export function checkSession(value: unknown): ToolSession | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || !made.has(value as ToolSession)) {
    throw new TypeError(`agentvfs: options.session must be an object made by createSession(), got ${describeValue(value)}.`);
  }
  return value as ToolSession;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
  return 'an object that createSession() did not make (a copy or a plain object)';
}
