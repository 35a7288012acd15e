/** Backend factories that put the backend behind the worker facade, for the conformance suite. */
import { Worker } from 'node:worker_threads';
import { createStateBackend, type StateBackendOptions } from '../../src/index.ts';
import { connect } from '../../src/client/connect.ts';
import type { RemoteBackend } from '../../src/client/remote-backend.ts';
import { expose } from '../../src/worker/expose.ts';

export const WORKER_SCRIPT = new URL('./backend.worker.mjs', import.meta.url);
const open: Array<{ close(): void }> = [];

/** Closes every worker and port opened by the factories (call in afterEach). */
export async function closeAll(): Promise<void> {
  for (const item of open.splice(0)) item.close();
}

/** A real worker_threads worker running the built package. */
export function inWorkerThread(options: StateBackendOptions = {}): RemoteBackend {
  const { now, ...rest } = options;
  const clock = (now as { sharedClock?: Float64Array } | undefined)?.sharedClock;
  if (now && !clock) throw new Error('a custom clock must be a manualClock() to cross into a worker');
  const worker = new Worker(WORKER_SCRIPT, { workerData: { options: rest, clock } });
  const remote = connect(worker);
  open.push(remote);
  return remote;
}

/** Both ends of a MessageChannel in this thread: the backend keeps every option, functions included. */
export function overMessageChannel(options: StateBackendOptions = {}): RemoteBackend {
  const { port1, port2 } = new MessageChannel();
  expose(createStateBackend(options), port1);
  const remote = connect(port2);
  open.push({
    close: () => {
      remote.close();
      port1.close();
    },
  });
  return remote;
}
