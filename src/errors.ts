/**
 * The one error type agentvfs throws. `code` is stable and machine-readable,
 * `path` names the virtual path involved (when one applies), and the message
 * says what a person (or a model) can do next.
 */

export const VFS_ERROR_CODES = [
  'ENOENT',
  'EEXIST',
  'EISDIR',
  'ENOTDIR',
  'EINVAL',
  'ENOTREAD',
  'ESTALE',
  'ENOMATCH',
  'EAMBIGUOUS',
  'ENOCHANGE',
  'EBINARY',
  'ETOOBIG',
  'EQUOTA',
  'EREGEX',
  'ESNAPSHOT',
  // A tool set's permissions refuse the path (SPEC §10).
  'EACCES',
  // The person asked before a write said no (SPEC §10).
  'EDENIED',
  // The caller cancelled the call (its AbortSignal) before it wrote anything.
  'ECANCELED',
] as const;

export type VfsErrorCode = (typeof VFS_ERROR_CODES)[number];

export interface VfsErrorJSON {
  name: 'VfsError';
  code: VfsErrorCode;
  message: string;
  path?: string;
  suggestions?: readonly string[];
}

export class VfsError extends Error {
  declare readonly name: 'VfsError';
  declare readonly code: VfsErrorCode;
  declare readonly path: string | undefined;
  /** For ENOENT: the existing paths its "Did you mean …?" names (maybe none), as data. */
  declare readonly suggestions?: readonly string[];

  constructor(code: VfsErrorCode, message: string, options: { path?: string; cause?: unknown; suggestions?: readonly string[] } = {}) {
    super(message);
    // The instance is an ordinary object, not the native error super() made: postMessage and
    // structuredClone keep only a native error's message and stack, so code and path were lost
    // whenever someone posted an error themselves. An ordinary object crosses as
    // { name, code, path, message }, which isVfsError recognises. It is still an Error to
    // instanceof and Error.prototype.toString, with the native error's stack.
    const native = this as Error;
    const self = Object.create(new.target.prototype) as { -readonly [K in keyof VfsError]: VfsError[K] };
    self.name = 'VfsError';
    self.code = code;
    self.message = message;
    self.path = options.path;
    if (options.suggestions !== undefined) self.suggestions = [...options.suggestions];
    // As on native errors, these two are not enumerable: they stay on this side of a postMessage.
    // The stack is the native error's, formatted only when read.
    Object.defineProperty(self, 'stack', {
      get: () => native.stack,
      set: (value: unknown) => Object.defineProperty(self, 'stack', { value, writable: true, configurable: true }),
      configurable: true,
    });
    if (options.cause !== undefined) Object.defineProperty(self, 'cause', { value: options.cause, writable: true, configurable: true });
    // biome-ignore lint/correctness/noConstructorReturn: an ordinary object, so structuredClone and postMessage keep code and path (see above)
    return self as VfsError;
  }

  toJSON(): VfsErrorJSON {
    const json: VfsErrorJSON = { name: 'VfsError', code: this.code, message: this.message };
    if (this.path !== undefined) json.path = this.path;
    if (this.suggestions !== undefined) json.suggestions = [...this.suggestions];
    return json;
  }

  /** Rebuilds a VfsError from its JSON form (e.g. after structured cloning). */
  static fromJSON(json: VfsErrorJSON): VfsError {
    return new VfsError(json.code, json.message, {
      ...(json.path === undefined ? {} : { path: json.path }),
      ...(Array.isArray(json.suggestions) ? { suggestions: json.suggestions.filter((s) => typeof s === 'string') } : {}),
    });
  }
}

// The native error's stack header reads its name from here ("VfsError: …"); set explicitly because
// minifiers mangle class names, and `name` is how other realms recognise us.
Object.defineProperty(VfsError.prototype, 'name', { value: 'VfsError', writable: true, configurable: true });
// Node's inspect prints the constructor's name, which minification shortens; V8's inspector
// (devtools, Playwright's page.evaluate) names a non-native error object by its toStringTag.
Object.defineProperty(VfsError, 'name', { value: 'VfsError' });
Object.defineProperty(VfsError.prototype, Symbol.toStringTag, { value: 'VfsError', configurable: true });

const CODES = new Set<string>(VFS_ERROR_CODES);

/**
 * True for a VfsError from any realm, or for its structured-clone / JSON form:
 * checks the shape (`name` and a known `code`), not `instanceof`.
 */
export function isVfsError(value: unknown): value is VfsError {
  if (value instanceof VfsError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { name?: unknown; code?: unknown; message?: unknown };
  return v.name === 'VfsError' && typeof v.code === 'string' && CODES.has(v.code) && typeof v.message === 'string';
}

/**
 * The one failure after which the call's change did happen: persistence (agentvfs/persist) made
 * it in memory, and saving it failed. The next save writes it too, so it must not be made again
 * (an insert repeated would insert twice); the tools say so. Recognised by `name`.
 */
export class NotSavedError extends Error {
  constructor(cause: unknown) {
    super(`agentvfs/persist: the change was applied in memory but could not be saved: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NotSavedError';
  }
}

/** True for a NotSavedError from any realm or worker (checks `name`, as a postMessage keeps it). */
export function isNotSavedError(value: unknown): value is NotSavedError {
  return hasName(value, 'NotSavedError');
}

/**
 * A write refused because another tab or worker holds the workspace and this context follows it
 * read-only (agentvfs/persist, `ifHeld: 'follow'`): nothing changed, and retrying does not help
 * until that one closes; the tools say so. Recognised by `name`.
 */
export class WorkspaceHeldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspaceHeldError';
  }
}

/**
 * A write refused because the persistent workspace was closed (agentvfs/persist, `close()`):
 * nothing changed, and no later write through it can succeed (it would never be saved).
 * Recognised by `name`.
 */
export class WorkspaceClosedError extends Error {
  constructor() {
    super('agentvfs/persist: this workspace is closed (close() was called); open it again to write.');
    this.name = 'WorkspaceClosedError';
  }
}

/** True for a WorkspaceClosedError from any realm or worker (checks `name`). */
export function isWorkspaceClosedError(value: unknown): value is WorkspaceClosedError {
  return hasName(value, 'WorkspaceClosedError');
}

/** True for a WorkspaceHeldError from any realm or worker (checks `name`). */
export function isWorkspaceHeldError(value: unknown): value is WorkspaceHeldError {
  return hasName(value, 'WorkspaceHeldError');
}

/**
 * True for the client's WorkerGoneError (agentvfs/client; checks `name`): the worker behind a
 * backend is gone, so a call's outcome is unknown. Tools run over such a backend's methods pass
 * it on (the call rejects, as a call of the worker's own tool session does) instead of answering.
 */
export function isWorkerGoneError(value: unknown): value is Error {
  return hasName(value, 'WorkerGoneError');
}

function hasName(value: unknown, name: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { name?: unknown; message?: unknown };
  return v.name === name && typeof v.message === 'string';
}
