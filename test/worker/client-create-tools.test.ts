// The whole conformance suite through a worker_threads worker, with every tool set made by
// agentvfs/client's createTools (no in-process tool code) instead of agentvfs's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTools as clientCreateTools } from '../../src/client/create-tools.ts';
import { createStateBackend } from '../../src/index.ts';
import { conformanceSuite } from '../conformance/suite.ts';
import { closeAll, inWorkerThread } from './factories.ts';

vi.mock('../../src/index.ts', async (original) => ({
  ...(await original<typeof import('../../src/index.ts')>()),
  createTools: (await import('../../src/client/create-tools.ts')).createTools,
}));

afterEach(closeAll);

describe("agentvfs/client's createTools, through a worker_threads worker", () => {
  conformanceSuite(inWorkerThread);

  it('refuses an in-process backend, saying which createTools runs it', () => {
    expect(() => clientCreateTools(createStateBackend())).toThrow(
      new TypeError(
        "createTools from 'agentvfs/client' runs the tools where a worker's backend lives (a RemoteBackend from connect() or createWorkerBackend(), or openPersistent over one); this backend is in process: import createTools from 'agentvfs' instead.",
      ),
    );
  });
});
