/**
 * createSession(): read tracking that several tool sets share. A tool set made without `session`
 * has its own; tool sets made with the same session object (of any dialect) see each other's
 * reads and writes, so a file read with one set's tool may be edited with another's. Over a
 * worker the tracking lives in the worker, keyed by the session's id.
 */
import { ReadVersions } from './read-versions.ts';

/** An opaque handle: pass it as `createTools(backend, { session })`. Plain data (it crosses postMessage as its id). */
export interface ToolSession {
  readonly id: string;
}

const tracked = new WeakMap<ToolSession, ReadVersions>();
let counter = 0;

/** A new session for `createTools(backend, { dialect, session })`; use it with one backend. */
export function createSession(): ToolSession {
  return sessionWithId(`s-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2)}`);
}

/** A session for a given id: a worker makes one per id its clients send. */
export function sessionWithId(id: string): ToolSession {
  const session = Object.freeze({ id });
  tracked.set(session, new ReadVersions());
  return session;
}

/** The read tracking of `session`, or a new one of its own for a tool set made without a session. */
export function sessionReads(session: ToolSession | undefined): ReadVersions {
  if (session === undefined) return new ReadVersions();
  const reads = tracked.get(session);
  if (reads === undefined) {
    throw new TypeError(`agentvfs: options.session must be an object made by createSession(), got ${describeValue(session)}.`);
  }
  return reads;
}

/** The `session` option checked (undefined, or a session createSession made in this realm); a TypeError otherwise. */
export function checkSession(value: unknown): ToolSession | undefined {
  if (value === undefined) return undefined;
  sessionReads(value as ToolSession);
  return value as ToolSession;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
  return 'an object that createSession() did not make (a copy or a plain object)';
}
