/** The guard of one tool set: its compiled permissions, its approve callback, its "always". */
import { checkGuardOptions } from './options.ts';
import { compilePermissions, type PathRules } from './permissions.ts';
import type { Approve, GuardOptions } from './types.ts';

/** What a tool set's guard keeps across calls: its rules, its callback, whether the person said "always". */
export interface GuardSession {
  readonly rules: PathRules;
  /** The tool set's dialect (default 'agentvfs'): which of its calls write (calls.ts). */
  readonly dialect?: string;
  /** The caller's approve(), or in a worker, one that asks it on the caller's side (an ApproveForCall). */
  readonly approve: Approve | undefined;
  always: boolean;
}

/** undefined when the options ask for no guard (then the tools run over the backend itself). */
export function createGuardSession(options: GuardOptions & { dialect?: string }): GuardSession | undefined {
  if (!checkGuardOptions(options)) return undefined;
  return { rules: compilePermissions(options.permissions), dialect: options.dialect, approve: options.approve, always: false };
}
