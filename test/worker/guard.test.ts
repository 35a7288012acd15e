// The guard through a real worker_threads worker: approve() runs here, and a worker that dies while a question is open fails the call instead of leaving it waiting.
import { afterEach, describe, expect, it } from 'vitest';
import { createTools, type ApprovalRequest, type ToolEvent } from '../../src/index.ts';
import { BACKEND_METHODS } from '../../src/calls.ts';
import { closeAll, inWorkerThread } from './factories.ts';

afterEach(closeAll);

describe('guarded tool sessions through a worker', () => {
  it('the question is asked on this side while the tool runs in the worker; the worker dying mid-question rejects the call', async () => {
    const remote = inWorkerThread({ files: { '/a.txt': 'one\n' } });
    const requests: ApprovalRequest[] = [];
    const events: ToolEvent[] = [];
    let asked!: () => void;
    const open = new Promise<void>((resolve) => (asked = resolve));
    const tools = createTools(remote, {
      approve: (request) => {
        requests.push(request);
        asked();
        return new Promise(() => {}); // a person who never answers
      },
      onEvent: (e) => events.push(e),
    });
    await tools.run('read_file', { path: '/a.txt' });
    const pending = tools.run('write_file', { path: '/a.txt', content: 'two\n' });
    await open;
    expect(requests[0]).toMatchObject({
      tool: 'write_file',
      path: '/a.txt',
      diff: 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two',
    });
    remote.close();
    await expect(pending).rejects.toMatchObject({ name: 'WorkerGoneError' });
    expect(events.map((e) => [e.seq, e.tool, e.ok])).toEqual([
      [1, 'read_file', true],
      [2, 'write_file', false],
    ]);
  });

  it('a guarded session that is opened after the worker is gone rejects its calls', async () => {
    const remote = inWorkerThread();
    await remote.ready;
    remote.close();
    const tools = createTools(remote, { approve: () => ({ allow: true }) });
    await expect(tools.run('ls', {})).rejects.toMatchObject({ name: 'WorkerGoneError' });
  });
});

describe('tools running here over a worker backend (not a tool host: a wrapper, as the persist follower makes)', () => {
  it('with read permissions, ls, glob and grep answer, counting only the readable files ignore rules left out', async () => {
    const remote = inWorkerThread({
      files: { '/.gitignore': 'build\n', '/src/a.ts': 'one\n', '/build/x.ts': 'one\n', '/build/secret/y.ts': 'one\n', '/secret/build/z.ts': 'one\n' },
    });
    // The backend's own methods, forwarded (no createToolSession): createTools runs the tools on this side.
    const wrapper = Object.fromEntries(
      BACKEND_METHODS.map((m) => [m, (...a: unknown[]) => (remote as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!(...a)]),
    ) as unknown as typeof remote;
    const tools = createTools(wrapper, { permissions: { read: ['/src/**', '/build/*.ts', '/.gitignore'] } });
    expect(await tools.call('glob', { pattern: '**/*.ts' })).toMatch(/^\/src\/a\.ts\n\.\.\. \[1 more matching file is ignored/);
    expect(await tools.call('grep', { pattern: 'one' })).toMatch(/^\/src\/a\.ts\n.*\b1 file\b/);
    expect(await tools.call('ls', { path: '/' })).toMatch(/\[1 entry ignored/);
  });
});
