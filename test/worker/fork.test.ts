// Forks through a worker: they live in the worker, run tool sessions there, are released by
// close(), and stop (without hanging) when the worker they were forked in dies.
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/client/connect.ts';
import { createTools } from '../../src/index.ts';
import { createMemoryStore, openPersistent } from '../../src/persist/index.ts';
import { closeAll, inWorkerThread, WORKER_SCRIPT } from './factories.ts';

afterEach(closeAll);

describe('forks through a worker_threads worker', () => {
  it('a fork runs its tool sessions in the worker and merges back there', async () => {
    const parent = inWorkerThread({ files: { '/a.ts': 'export const a = 1;\n' } });
    const fork = await parent.fork();
    const tools = createTools(fork);
    await tools.run('read_file', { path: '/a.ts' });
    const edit = await tools.run('edit_file', { path: '/a.ts', old_string: 'a = 1', new_string: 'a = 2' });
    expect(edit.isError).toBe(false);
    expect(await parent.readText('/a.ts')).toBe('export const a = 1;\n');
    const result = await parent.merge(fork);
    expect(result.merged).toEqual(['/a.ts']);
    expect(await parent.readText('/a.ts')).toBe('export const a = 2;\n');
    fork.close();
  });

  it('a fork of a persisted worker backend takes in its parent through the persistence wrapper', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(inWorkerThread({ files: { '/f.txt': '1\n2\n' } }), store, { durability: 'immediate' });
    const fork = await backend.fork();
    await backend.writeFile('/g.txt', 'main\n');
    expect((await fork.diff(backend)).added).toEqual(['/g.txt']);
    expect((await fork.merge(backend)).merged).toEqual(['/g.txt']);
    expect(await fork.readText('/g.txt')).toBe('main\n');
    (fork as unknown as { close(): void }).close(); // a RemoteBackend: released in the worker
    await backend.close();
  });

  it('close() releases the fork in the worker: later calls fail, and it can no longer be merged', async () => {
    const parent = inWorkerThread({ files: { '/a': 'a' } });
    const fork = await parent.fork();
    await fork.writeFile('/b', 'b');
    fork.close();
    await expect(fork.readText('/b')).rejects.toThrow(/^agentvfs: this fork was closed \(close\(\) was called\).*fork\(\) again/);
    expect(await parent.readText('/a')).toBe('a'); // the worker still serves the parent
    const error = await parent.merge(fork).then(
      () => null,
      (e: { code?: string; message: string }) => e,
    );
    expect(error?.code).toBe('EINVAL');
    expect(error?.message).toMatch(/was closed/);
    expect(await parent.exists('/b')).toBe(false);
  });

  it('closing a fork ends its forks, saying so (the worker and its backend still work)', async () => {
    const parent = inWorkerThread({ files: { '/a': 'a' } });
    const fork = await parent.fork();
    const grandchild = await fork.fork();
    await grandchild.writeFile('/x', 'x');
    fork.close();
    await expect(grandchild.readText('/x')).rejects.toThrow(
      /^agentvfs: the fork this one was made from was closed \(close\(\) was called on it\), which ends this fork too;.*fork\(\) again/,
    );
    expect(await parent.readText('/a')).toBe('a');
    const again = await parent.fork();
    expect(await again.readText('/a')).toBe('a');
  });

  it('when the worker dies, its forks fail at once instead of hanging', async () => {
    const worker = new Worker(WORKER_SCRIPT, { workerData: { options: {} } });
    const parent = connect(worker);
    const fork = await parent.fork();
    const grandchild = await fork.fork();
    await grandchild.writeFile('/x', 'x');
    await worker.terminate();
    // Its port's close event or its parent's liveness, whichever comes first, says so.
    await expect(fork.readText('/x')).rejects.toThrow(/worker is gone/);
    await expect(grandchild.readText('/x')).rejects.toThrow(/worker is gone/);
    expect(() => fork.close()).not.toThrow();
  });
});
