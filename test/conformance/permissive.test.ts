// The conformance suite with every tool set guarded by allow-everything permissions and approve().
import { afterAll, describe, expect } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { permissive, permissiveStats } from './permissive.ts';
import { conformanceSuite } from './suite.ts';

describe('in-process backend, tools guarded by a permissive approve()', () => {
  conformanceSuite(permissive((options) => createStateBackend(options)));
});

afterAll(() => {
  // The variant did ask: every tool write of the suite went through approve().
  expect(permissiveStats.questions).toBeGreaterThan(20);
  expect(permissiveStats.events).toBeGreaterThan(permissiveStats.questions);
});
