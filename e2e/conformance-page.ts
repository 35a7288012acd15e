/**
 * The page script of e2e/conformance.spec.ts, bundled there with the built package: the whole
 * conformance suite, each case against a backend in a Web Worker of its own, run by the small
 * stand-in for Vitest's test API that also runs the suite in workerd
 * (test/workerd/no-compat/mini-vitest.ts, with Vitest's own `expect`).
 *
 * The backend is createWorkerBackend's (the prebuilt worker); a case with a manualClock() gets a
 * module worker of its own (/clock-worker.js, as a user would write one with agentvfs/worker)
 * that reads the clock from the shared memory the page moves it in.
 */
import type { Backend, StateBackendOptions } from 'agentvfs';
import { connect, createWorkerBackend } from 'agentvfs/client';
import { conformanceSuite } from '../test/conformance/suite.ts';
import { collected, expect } from '../test/workerd/no-compat/mini-vitest.ts';

export interface CaseOutcome {
  name: string;
  ok: boolean;
  error?: string;
}

// Each case's backends, closed once it ends.
const open: { close(): void }[] = [];

function make(options: StateBackendOptions = {}): Backend {
  const { now, ...rest } = options;
  const clock = (now as { sharedClock?: Float64Array } | undefined)?.sharedClock;
  if (now !== undefined && clock === undefined) throw new Error('a custom clock must be a manualClock() to cross into a worker');
  let backend: Backend & { close(): void };
  if (clock === undefined) backend = createWorkerBackend(rest);
  else {
    const worker = new Worker('/clock-worker.js', { type: 'module' });
    worker.postMessage({ options: rest, clock });
    backend = connect(worker);
  }
  open.push(backend);
  return backend;
}

conformanceSuite(make);

/** Runs, in order, every case whose name starts with one of `prefixes` (`except`: with none of them). */
async function run(prefixes: readonly string[], except = false): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  for (const t of collected().filter((c) => prefixes.some((p) => c.name.startsWith(`${p} > `)) !== except)) {
    try {
      await t.fn();
      outcomes.push({ name: t.name, ok: true });
    } catch (error) {
      const e = error as Error;
      outcomes.push({ name: t.name, ok: false, error: `${e?.name}: ${e?.message}` });
    } finally {
      for (const backend of open.splice(0)) backend.close();
    }
  }
  return outcomes;
}

/** The harness must report a failing assertion as a failure. */
function selftest(): string | null {
  try {
    expect(1).toBe(2);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

(globalThis as { conformance?: unknown }).conformance = { run, selftest };
