/**
 * The wrappers agentvfs puts around a backend (persistence) and the backend each wraps, so that
 * merge() and diff(), which read the other backend's own state, take a wrapper as they take
 * the backend itself (`fork.merge(persistentMain)` is how a fork takes in its parent's changes).
 * A WeakMap, not a property: nothing reaches a wrapped backend through its wrapper.
 * Also which backends share versions (forks), for a session used with more than one.
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

// A backend and its forks take versions from one counter, so a version names one content across
// them and a session's reads hold in each; two unrelated backends both have a /x at version 2.
// A property, not a WeakMap entry: a Proxy around the backend (logging, a test's gate) reads it too.
const VERSION_FAMILY = Symbol.for('agentvfs.versionFamily');

/** Records that `backend` takes its versions from `family` (the counter it shares with its forks). */
export function joinVersionFamily(backend: object, family: object): void {
  Object.defineProperty(backend, VERSION_FAMILY, { value: family });
}

/** What a session's reads stay valid in: `backend`'s version family, or the backend itself (one agentvfs does not know). */
export function readScopeOf(backend: object): object {
  const inner = unwrapBackend(backend);
  return ((inner as { [VERSION_FAMILY]?: object })[VERSION_FAMILY] as object | undefined) ?? inner;
}
