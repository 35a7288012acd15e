/**
 * Just enough of the `vitest` test API (describe, it, it.each, expect) to run the
 * conformance suite inside a plain workerd isolate, where Vitest itself cannot run
 * without nodejs_compat. `expect` is Vitest's own (`@vitest/expect` on chai), so every
 * assertion behaves exactly as under Vitest. The bundler maps `vitest` to this file.
 */
import * as chai from 'chai';
import { ASYMMETRIC_MATCHERS_OBJECT, JestAsymmetricMatchers, JestChaiExpect, JestExtend, getState, setState, type ExpectStatic } from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

export const expect = ((value: unknown, message?: string) => {
  const state = getState(expect as never) as { assertionCalls: number };
  setState({ assertionCalls: state.assertionCalls + 1 }, expect as never);
  return chai.expect(value, message);
}) as unknown as ExpectStatic;
Object.assign(expect, chai.expect);
Object.assign(expect, (globalThis as Record<string | symbol, unknown>)[ASYMMETRIC_MATCHERS_OBJECT]);
setState({ assertionCalls: 0, isExpectingAssertions: false, expectedAssertionsNumber: null } as never, expect as never);
expect.unreachable = (message?: string): never => {
  chai.assert.fail(`expected${message ? ` "${message}" ` : ' '}not to be reached`);
  throw new Error('unreachable');
};

export interface Collected {
  name: string;
  fn: () => unknown;
}

const tests: Collected[] = [];
const stack: string[] = [];

function format(title: string, args: unknown[]): string {
  let i = 0;
  const out = title.replace(/%[sdijo%]/g, (m) => {
    if (m === '%%') return '%';
    const v = args[i++];
    return m === '%j' || m === '%o' ? JSON.stringify(v) : String(v);
  });
  return out;
}

function register(name: string, fn: () => unknown): void {
  const full = [...stack, name].join(' > ');
  let unique = full;
  for (let n = 2; tests.some((t) => t.name === unique); n++) unique = `${full} (${n})`;
  tests.push({ name: unique, fn });
}

export function describe(name: string, body: () => void): void {
  stack.push(name);
  try {
    body();
  } finally {
    stack.pop();
  }
}

type TestFn = ((name: string, fn: () => unknown) => void) & {
  each<T>(cases: readonly T[]): (name: string, fn: (...args: never[]) => unknown) => void;
};

export const it: TestFn = Object.assign((name: string, fn: () => unknown) => register(name, fn), {
  each<T>(cases: readonly T[]) {
    return (name: string, fn: (...args: never[]) => unknown) => {
      for (const c of cases) {
        const args = Array.isArray(c) ? c : [c];
        register(format(name, args), () => (fn as (...a: unknown[]) => unknown)(...args));
      }
    };
  },
});
export const test = it;

/** Every test registered so far, in order. */
export function collected(): readonly Collected[] {
  return tests;
}
