// The conformance suite against the in-process backend, imported from source.
import { describe } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { conformanceSuite } from './suite.ts';

describe('in-process backend', () => {
  conformanceSuite((options) => createStateBackend(options));
});
