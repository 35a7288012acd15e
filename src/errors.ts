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
] as const;

export type VfsErrorCode = (typeof VFS_ERROR_CODES)[number];

export interface VfsErrorJSON {
  name: 'VfsError';
  code: VfsErrorCode;
  message: string;
  path?: string;
}

export class VfsError extends Error {
  // Set explicitly: minifiers mangle class names, and `name` is how other realms recognise us.
  override readonly name = 'VfsError' as const;
  readonly code: VfsErrorCode;
  readonly path: string | undefined;

  constructor(code: VfsErrorCode, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path;
  }

  toJSON(): VfsErrorJSON {
    const json: VfsErrorJSON = { name: 'VfsError', code: this.code, message: this.message };
    if (this.path !== undefined) json.path = this.path;
    return json;
  }

  /** Rebuilds a VfsError from its JSON form (e.g. after structured cloning). */
  static fromJSON(json: VfsErrorJSON): VfsError {
    return new VfsError(json.code, json.message, json.path === undefined ? {} : { path: json.path });
  }
}

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
