/**
 * What a look ahead needs of a StateBackend that its public methods do not give: a fork that is
 * never merged (Tools.preview; unlike fork(), it leaves the backend it is made from as it was, so
 * that backend's next write does not copy its file table first; the fork still copies the table
 * before its own first write), and whether a write would fit the limits (asked before approval).
 */
import type { Backend } from './types.ts';
import { unwrapBackend } from './wrapped-backends.ts';

export const SCRATCH_FORK = Symbol('agentvfs.scratchFork');

/** A scratch fork of `backend` (through agentvfs's wrappers), or undefined for a backend that has none (a worker's, a custom one). */
export function scratchForkOf(backend: Backend): Backend | undefined {
  const own = unwrapBackend(backend) as Backend & { [SCRATCH_FORK]?: () => Backend };
  return typeof own[SCRATCH_FORK] === 'function' ? own[SCRATCH_FORK]() : undefined;
}

export const CHECK_FITS = Symbol('agentvfs.checkFits');

/**
 * A write of `[path, size]` (one file), or several as one batch (size null: a removal), checked
 * against the backend's limits (ETOOBIG, EQUOTA) as the write itself would check them: a batch as
 * a whole, so a file that another file's removal (or move) makes room for fits.
 */
export type FitCheck = (changes: ReadonlyArray<readonly [string, number | null]>, batch: boolean) => void;

/**
 * The backend's FitCheck, through agentvfs's wrappers; undefined for a backend that has none (a
 * worker's seen from this side, a custom one).
 */
export function fitCheckOf(backend: Backend): FitCheck | undefined {
  const own = unwrapBackend(backend) as Backend & { [CHECK_FITS]?: FitCheck };
  const check = own[CHECK_FITS];
  return typeof check === 'function' ? (changes, batch) => check.call(own, changes, batch) : undefined;
}
