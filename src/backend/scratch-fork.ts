/**
 * A fork for a look ahead that is never merged (Tools.preview): unlike fork(), it leaves the backend
 * it is made from as it was, so that backend's next write does not copy its file table first. The
 * fork still copies the table before its own first write, so it never changes the backend's.
 */
import type { Backend } from './types.ts';
import { unwrapBackend } from './wrapped-backends.ts';

export const SCRATCH_FORK = Symbol('agentvfs.scratchFork');

/** A scratch fork of `backend` (through agentvfs's wrappers), or undefined for a backend that has none (a worker's, a custom one). */
export function scratchForkOf(backend: Backend): Backend | undefined {
  const own = unwrapBackend(backend) as Backend & { [SCRATCH_FORK]?: () => Backend };
  return typeof own[SCRATCH_FORK] === 'function' ? own[SCRATCH_FORK]() : undefined;
}
