/**
 * What a tool session keeps where its calls run (read tracking) and where they are made (call
 * numbers): per session object, or new for a tool set made without one. Apart from session.ts so
 * a page that only checks the option (the worker client) does not bundle the tracking.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import { markNumbered, ReadVersions, type CallContext } from './read-versions.ts';
import type { ToolSession } from './session.ts';

const reads = new WeakMap<ToolSession, ReadVersions>();
const numbers = new WeakMap<ToolSession, CallNumbers>();

/** The read tracking of `session` (checked by checkSession), or a new one of its own for a tool set made without a session. */
export function sessionReads(session: ToolSession | undefined): ReadVersions {
  return session === undefined ? new ReadVersions() : kept(reads, session, () => new ReadVersions());
}

/** The call numbers of `session`, or new ones for a tool set made without a session. */
export function sessionCallNumbers(session: ToolSession | undefined): CallNumbers {
  return session === undefined ? new CallNumbers() : kept(numbers, session, () => new CallNumbers());
}

/**
 * Numbers a session's calls where they are made (CallContext): each call, and which calls were
 * still unanswered when it was made. Tool sets of one session share the numbers.
 */
export class CallNumbers {
  #last = 0;
  readonly #unanswered = new Set<number>();
  // The calls numbered so far in each turn the caller named (CallTag).
  readonly #turns = new WeakMap<object, number[]>();

  async run<T>(call: (context: CallContext) => Promise<T>, turn?: object, signal?: AbortSignalLike): Promise<T> {
    const n = ++this.#last;
    const siblings = turn === undefined ? undefined : this.#turns.get(turn);
    const unanswered = [...this.#unanswered, ...(siblings ?? [])];
    const context = markNumbered(signal === undefined ? { n, unanswered } : { n, unanswered, signal });
    if (turn !== undefined) {
      if (siblings === undefined) this.#turns.set(turn, [n]);
      else siblings.push(n);
    }
    this.#unanswered.add(n);
    try {
      return await call(context);
    } finally {
      this.#unanswered.delete(n);
    }
  }
}

function kept<T>(map: WeakMap<ToolSession, T>, session: ToolSession, make: () => T): T {
  let value = map.get(session);
  if (value === undefined) map.set(session, (value = make()));
  return value;
}
