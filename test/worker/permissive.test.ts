// The conformance suite through a worker_threads worker, every tool set guarded by a permissive approve() that runs on this side.
import { afterAll, afterEach, describe, expect } from 'vitest';
import { permissive, permissiveStats } from '../conformance/permissive.ts';
import { conformanceSuite } from '../conformance/suite.ts';
import { closeAll, inWorkerThread } from './factories.ts';

afterEach(closeAll);

describe('through a worker_threads worker, tools guarded by a permissive approve()', () => {
  conformanceSuite(permissive(inWorkerThread));
});

afterAll(() => {
  expect(permissiveStats.questions).toBeGreaterThan(20);
  expect(permissiveStats.events).toBeGreaterThan(permissiveStats.questions);
});
