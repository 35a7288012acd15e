/** The guard of one tool set: its compiled permissions, its approve callback, its "always". */
import { VfsError } from '../errors.ts';
import type { GuardSession } from './guarded-backend.ts';
import { compilePermissions } from './permissions.ts';
import type { GuardOptions } from './types.ts';

/** undefined when the options ask for no guard (then the tools run over the backend itself). */
export function createGuardSession(options: GuardOptions): GuardSession | undefined {
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function') {
    throw new VfsError('EINVAL', `onEvent must be a function (event) => void; got ${typeof options.onEvent}.`);
  }
  if (options.permissions === undefined && options.approve === undefined) return undefined;
  if (options.approve !== undefined && typeof options.approve !== 'function') {
    throw new VfsError('EINVAL', `approve must be a function (request) => decision; got ${typeof options.approve}.`);
  }
  if (options.permissions !== undefined && (typeof options.permissions !== 'object' || options.permissions === null)) {
    throw new VfsError('EINVAL', `permissions must be { read?: string[], write?: string[] }; got ${JSON.stringify(options.permissions)}.`);
  }
  return { rules: compilePermissions(options.permissions), approve: options.approve, always: false };
}
