/**
 * The conformance suite takes a backend factory, so the same tests run against
 * the in-process backend, the worker facade and workerd.
 */
import { expect } from 'vitest';
import type { Backend, StateBackendOptions } from '../../src/index.ts';

export type BackendFactory = (options?: StateBackendOptions) => Backend | Promise<Backend>;

/** Awaits `promise`, expects a VfsError with `code`, and returns it for further checks. */
export async function expectVfsError(promise: Promise<unknown>, code: string): Promise<{ code: string; message: string; path?: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { name?: string; code?: string; message: string; path?: string };
    expect(e.name, `expected a VfsError, got ${String(error)}`).toBe('VfsError');
    expect(e.code, e.message).toBe(code);
    return e as { code: string; message: string; path?: string };
  }
  throw new Error(`expected ${code}, but the call succeeded`);
}

export const utf8 = (s: string) => new TextEncoder().encode(s);
export const text = (b: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

/** A clock that only moves when told, to make ordering and same-millisecond writes deterministic. */
export function manualClock(start = 1_700_000_000_000) {
  // Kept in shared memory so a backend in another thread (the worker facade tests) reads the same time.
  const cell = new Float64Array(new SharedArrayBuffer(8));
  cell[0] = start;
  const now = Object.assign(() => cell[0]!, { sharedClock: cell });
  return { now, set: (v: number) => (cell[0] = v), tick: (ms = 1) => (cell[0] = cell[0]! + ms) };
}
