/**
 * The wrappers agentvfs puts around a backend (persistence) and the backend each wraps, so that
 * merge() and diff(), which read the other backend's own state, take a wrapper as they take
 * the backend itself (`fork.merge(persistentMain)` is how a fork takes in its parent's changes).
 * A WeakMap, not a property: nothing reaches a wrapped backend through its wrapper.
 */
const wrappedBy = new WeakMap<object, object>();

export function registerWrapper(wrapper: object, backend: object): void {
  wrappedBy.set(wrapper, backend);
}

/** The backend under any number of agentvfs wrappers; anything else as it is. */
export function unwrapBackend<T>(value: T): T {
  let current: unknown = value;
  while (typeof current === 'object' && current !== null && wrappedBy.has(current)) current = wrappedBy.get(current);
  return current as T;
}
