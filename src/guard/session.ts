/** The guard of one tool set: its compiled permissions, its approve callback, its "always". */
import type { GuardSession } from './guarded-backend.ts';
import { checkGuardOptions } from './options.ts';
import { compilePermissions } from './permissions.ts';
import type { GuardOptions } from './types.ts';

/** undefined when the options ask for no guard (then the tools run over the backend itself). */
export function createGuardSession(options: GuardOptions): GuardSession | undefined {
  if (!checkGuardOptions(options)) return undefined;
  return { rules: compilePermissions(options.permissions), approve: options.approve, always: false };
}
