/**
 * What every framework adapter accepts as its `target` (SPEC §7): a backend (in process, or a
 * RemoteBackend from agentvfs/client) or a tool set from createTools, to share its session.
 */
import type { Backend } from '../backend/types.ts';
import { createTools } from '../tools/create-tools.ts';
import type { Tools } from '../tools/types.ts';

/** A backend, or a tool set from createTools. */
export type ToolTarget = Backend | Tools;

// Enough of the Backend contract to tell a backend from anything else; createTools uses these.
const BACKEND_METHODS = ['read', 'readText', 'writeFile', 'edit', 'ls', 'glob', 'grep', 'stat', 'exists', 'resolvePath'] as const;

/** The tool set for `target`: the tool set itself, or a new session over a backend. */
export function toTools(target: unknown, subpath: string): Tools {
  if (isTools(target)) return target;
  if (isBackend(target)) return createTools(target);
  throw new TypeError(
    `agentvfs/${subpath}: the target must be a backend (createStateBackend(), or a RemoteBackend from agentvfs/client) or a tool set from createTools(); got ${describe(target)}.`,
  );
}

/** True when `target` has the backend methods the tools use. */
function isBackend(target: unknown): target is Backend {
  return typeof target === 'object' && target !== null && BACKEND_METHODS.every((m) => typeof (target as Record<string, unknown>)[m] === 'function');
}

function isTools(target: unknown): target is Tools {
  if (typeof target !== 'object' || target === null) return false;
  const t = target as Partial<Tools>;
  return Array.isArray(t.definitions) && typeof t.run === 'function' && typeof t.call === 'function';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return typeof value === 'function' ? 'a function' : `${typeof value} ${String(value).slice(0, 40)}`;
  const name = (value as object).constructor?.name;
  const keys = Object.keys(value).slice(0, 5);
  return `${name && name !== 'Object' ? `a ${name}` : 'an object'}${keys.length ? ` with keys ${keys.join(', ')}` : ''}`;
}
