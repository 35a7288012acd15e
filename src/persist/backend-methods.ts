import type { Backend } from '../backend/types.ts';
import { backendCall } from '../calls.ts';
import type { PersistentBackend } from './persist-options.ts';

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

/** What a mutation of a closed persistent workspace rejects with: it would never be saved. */
export function closedError(): Error {
  return new Error('agentvfs/persist: this workspace is closed (close() was called), so nothing was written. Open it again to write.');
}

/**
 * A persistence wrapper's two tables of `backend`'s methods (without `createToolSession`): in
 * `unsaved`, a mutating method runs through `record` (which notes what it changed) and is
 * counted; in `wrapped`, it then also waits for `mutated` (the save its durability asks for).
 * The tools use `unsaved` and save once per call (tool-saves.ts). After `close()`, every
 * mutation is refused before it runs (a write that resolved would be lost: nothing saves it).
 */
export function persistentMethods(
  backend: Backend,
  record: (name: string, args: unknown[], run: () => Promise<unknown>) => Promise<unknown>,
  mutated: (result: unknown) => Promise<unknown>,
): { wrapped: PersistentBackend; unsaved: Backend; mutations: () => number; close: () => void; closed: () => boolean } {
  const wrapped = Object.create(null) as Record<string, unknown>;
  const unsaved = Object.create(null) as Record<string, unknown>;
  let mutations = 0;
  let closed = false;
  for (const name of methodNames(backend)) {
    const value = (backend as unknown as Record<string, unknown>)[name];
    if (typeof value !== 'function' || name === 'createToolSession' || name in wrapped) continue;
    const method = value as (...a: unknown[]) => Promise<unknown>;
    if (!backendCall(name)?.mutates) {
      unsaved[name] = wrapped[name] = (...args: unknown[]) => method.apply(backend, args);
      continue;
    }
    const call = async (...args: unknown[]) => {
      if (closed) throw closedError();
      const result = await record(name, args, () => method.apply(backend, args));
      mutations++;
      return result;
    };
    unsaved[name] = call;
    wrapped[name] = async (...args: unknown[]) => mutated(await call(...args));
  }
  return {
    wrapped: wrapped as unknown as PersistentBackend,
    unsaved: unsaved as unknown as Backend,
    mutations: () => mutations,
    close: () => {
      closed = true;
    },
    closed: () => closed,
  };
}
