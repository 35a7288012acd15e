/**
 * Checks the guard's options where createTools is called (in a page too, before a worker sees
 * them), without compiling anything: a bad option throws EINVAL saying what to pass instead.
 */
import { VfsError } from '../errors.ts';
import type { GuardOptions } from './types.ts';

/** True when the options ask for a guard (permissions or approve); throws EINVAL for a bad one. */
export function checkGuardOptions(options: GuardOptions): boolean {
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function') {
    throw new VfsError('EINVAL', `onEvent must be a function (event) => void; got ${typeof options.onEvent}.`);
  }
  if (options.approve !== undefined && typeof options.approve !== 'function') {
    throw new VfsError('EINVAL', `approve must be a function (request) => decision; got ${typeof options.approve}.`);
  }
  const permissions = options.permissions;
  if (permissions !== undefined) {
    if (typeof permissions !== 'object' || permissions === null) {
      throw new VfsError('EINVAL', `permissions must be { read?: string[], write?: string[] }; got ${JSON.stringify(permissions)}.`);
    }
    checkGlobs(permissions.read, 'read');
    checkGlobs(permissions.write, 'write');
  }
  return permissions !== undefined || options.approve !== undefined;
}

export function checkGlobs(globs: unknown, kind: 'read' | 'write'): void {
  if (globs === undefined) return;
  if (!Array.isArray(globs) || globs.some((g) => typeof g !== 'string' || !g.startsWith('/'))) {
    throw new VfsError(
      'EINVAL',
      `permissions.${kind} must be an array of globs of absolute paths (each starting with "/"), e.g. ["/src/**"]; got ${JSON.stringify(globs)}.`,
    );
  }
}
