import type { Backend } from '../backend/types.ts';
import { backendCall } from '../calls.ts';
import type { PersistentBackend } from './persist-options.ts';
import { WorkspaceClosedError } from '../errors.ts';
import { registerWrapper } from '../backend/wrapped-backends.ts';

/** Every method a backend has, own or inherited (a class instance, a plain object, another wrapper). */
export function methodNames(backend: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = backend; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key !== 'constructor' && typeof (backend as Record<string, unknown>)[key] === 'function') names.add(key);
    }
  }
  return [...names];
}

/**
 * A persistence wrapper's two tables of `backend`'s methods (without `createToolSession`): in
 * `unsaved`, a mutating method runs through `record` (which notes what it changed) and is
 * counted; in `wrapped`, it then also waits for `mutated` (the save its durability asks for).
 * The tools use `unsaved` and save once per call (tool-saves.ts); a tool host's calls that may
 * mutate run through `track`. `close()` refuses every later mutation before it runs (a write that
 * resolved would be lost: nothing saves it) and resolves once those already running have
 * finished (a host's tool call waiting for a person's approval included), so the final save has
 * them; `writable` (on both tables, which the approval guard reads) is false from then on.
 */
export function persistentMethods(
  backend: Backend,
  record: (name: string, args: unknown[], run: () => Promise<unknown>) => Promise<unknown>,
  mutated: (result: unknown) => Promise<unknown>,
): {
  wrapped: PersistentBackend;
  unsaved: Backend;
  mutations: () => number;
  track: <T>(run: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
} {
  const wrapped = Object.create(null) as Record<string, unknown>;
  const unsaved = Object.create(null) as Record<string, unknown>;
  let mutations = 0;
  let closed = false;
  const running = new Set<Promise<unknown>>();
  /** Runs a mutation unless closed, and keeps it in `running` until it settles. */
  const track = <T>(run: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new WorkspaceClosedError());
    const running$ = (async () => run())(); // (a method that throws at once rejects, as an async one would)
    running.add(running$);
    const forget = () => running.delete(running$);
    running$.then(forget, forget);
    return running$;
  };
  for (const name of methodNames(backend)) {
    const value = (backend as unknown as Record<string, unknown>)[name];
    if (typeof value !== 'function' || name === 'createToolSession' || name in wrapped) continue;
    const method = value as (...a: unknown[]) => Promise<unknown>;
    if (!backendCall(name)?.mutates) {
      unsaved[name] = wrapped[name] = (...args: unknown[]) => method.apply(backend, args);
      continue;
    }
    const call = (...args: unknown[]): Promise<unknown> =>
      track(async () => {
        const result = await record(name, args, async () => method.apply(backend, args));
        mutations++;
        return result;
      });
    unsaved[name] = call;
    wrapped[name] = async (...args: unknown[]) => mutated(await call(...args));
  }
  for (const table of [wrapped, unsaved]) {
    Object.defineProperty(table, 'writable', { get: () => !closed, configurable: true });
    registerWrapper(table, backend); // merge() and diff() take the wrapper for the backend (a fork taking in this one)
  }
  return {
    wrapped: wrapped as unknown as PersistentBackend,
    unsaved: unsaved as unknown as Backend,
    mutations: () => mutations,
    track,
    close: async () => {
      closed = true;
      await Promise.allSettled([...running]);
    },
  };
}
