/**
 * Whether a value can be the backend of a tool set, and how an error names what it is instead:
 * createTools and every adapter refuse anything else before a call runs.
 */
import type { Backend } from '../backend/types.ts';
import { BACKEND_METHODS } from '../calls.ts';
import { isToolHost } from '../tool-host.ts';
import type { Tools } from './types.ts';

// A backend that runs its own tool sessions (a RemoteBackend, a persisted one) needs nothing else;
// any other must have every Backend method, as createTools calls them.
export function isBackend(value: unknown): value is Backend {
  if (typeof value !== 'object' || value === null) return false;
  if (isToolHost(value)) return true;
  return missingMethods(value).length === 0;
}

function missingMethods(value: object): string[] {
  return BACKEND_METHODS.filter((name) => typeof (value as Record<string, unknown>)[name] !== 'function');
}

/** What `value` is, for an error that expected a backend or a tool set. */
export function describeTarget(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value !== 'object') return `the ${typeof value} ${String(value)}`;
  const partial = value as Partial<Tools>;
  if (Array.isArray(partial.definitions) && typeof partial.run !== 'function') return 'a tool set without run() (made by an older agentvfs?)';
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  const what = name && name !== 'Object' ? `a ${name}` : 'an object';
  const missing = missingMethods(value);
  return `${what} without the backend methods ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}`;
}
