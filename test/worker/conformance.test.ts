// The whole core conformance suite, through the worker facade: a real worker_threads
// worker (built package) and a MessageChannel.
import { afterEach, describe } from 'vitest';
import { conformanceSuite } from '../conformance/suite.ts';
import { closeAll, inWorkerThread, overMessageChannel } from './factories.ts';

afterEach(closeAll);

describe('through a worker_threads worker', () => {
  conformanceSuite(inWorkerThread);
});

describe('through a MessageChannel', () => {
  conformanceSuite(overMessageChannel);
});
