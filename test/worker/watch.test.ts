// watch() through a real worker_threads worker: what happens when the worker goes away.
import { afterEach, describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../src/index.ts';
import { closeAll } from './factories.ts';

afterEach(closeAll);

describe('watch through a worker_threads worker', () => {
  it('stops cleanly when the worker dies: no more events, unsubscribe does not throw', async () => {
    const { Worker } = await import('node:worker_threads');
    const { connect } = await import('../../src/client/connect.ts');
    const { WORKER_SCRIPT } = await import('./factories.ts');
    const worker = new Worker(WORKER_SCRIPT, { workerData: { options: {} } });
    const remote = connect(worker);
    await remote.ready;
    const seen: WatchEvent[][] = [];
    const stop = remote.watch((events) => seen.push(events));
    await remote.writeFile('/a', '1');
    expect(seen).toHaveLength(1);
    await worker.terminate();
    await expect(remote.writeFile('/a', '2')).rejects.toThrow(/gone/);
    expect(() => stop()).not.toThrow();
    expect(seen).toHaveLength(1);
    // A watch started after the worker died is inert too.
    expect(() => remote.watch(() => {})()).not.toThrow();
  });

  it('over a port whose other end closes, the watch takes its message listener off the port', async () => {
    const { MessageChannel } = await import('node:worker_threads');
    const { connect } = await import('../../src/client/connect.ts');
    const { expose } = await import('../../src/worker/expose.ts');
    const { createStateBackend } = await import('../../src/index.ts');
    const { port1, port2 } = new MessageChannel();
    expose(createStateBackend(), port1);
    const remote = connect(port2);
    await remote.ready;
    const listeners = () => (port2 as unknown as { listenerCount(type: string): number }).listenerCount('message');
    const before = listeners();
    const stop = remote.watch(() => {});
    expect(listeners()).toBe(before + 1);
    const gone = remote.ls('/').then(() => port1.close());
    await gone;
    await expect(remote.ls('/')).rejects.toThrow(/gone|closed/);
    expect(listeners()).toBe(before);
    expect(() => stop()).not.toThrow();
    port2.close();
  });

  it('unsubscribe tells the worker (it stops posting events) and takes its listener off the worker', async () => {
    const { Worker } = await import('node:worker_threads');
    const { connect } = await import('../../src/client/connect.ts');
    const { WORKER_SCRIPT } = await import('./factories.ts');
    const worker = new Worker(WORKER_SCRIPT, { workerData: { options: {} } });
    const remote = connect(worker);
    const posted: unknown[] = [];
    worker.on('message', (data: { agentvfsWatch?: string }) => data?.agentvfsWatch && posted.push(data));
    await remote.ready;
    const listeners = worker.listenerCount('message');
    const stop = remote.watch(() => {});
    expect(worker.listenerCount('message')).toBe(listeners + 1);
    await remote.writeFile('/a', '1');
    expect(posted).toHaveLength(1);
    stop();
    expect(worker.listenerCount('message')).toBe(listeners); // no listener left behind on the worker
    await remote.writeFile('/a', '2');
    expect(posted).toHaveLength(1);
    remote.close();
  });
});

describe('watch options through a worker', () => {
  it('options the worker refuses (what watch() throws in process) are reported, not dropped without a word', async () => {
    const { MessageChannel } = await import('node:worker_threads');
    const { connect } = await import('../../src/client/connect.ts');
    const { expose } = await import('../../src/worker/expose.ts');
    const { createStateBackend } = await import('../../src/index.ts');
    const { port1, port2 } = new MessageChannel();
    const local = createStateBackend();
    expose(createStateBackend(), port1);
    const remote = connect(port2);
    await remote.ready;
    const bad = [{ glob: 3 }, { directories: 'yes' }, { path: '/a\0b' }] as never[];
    for (const options of bad) expect(() => local.watch(() => {}, options)).toThrow();
    const reported: unknown[] = [];
    const g = globalThis as { reportError?: (e: unknown) => void };
    const saved = g.reportError;
    g.reportError = (e) => reported.push(e);
    try {
      for (const options of bad) remote.watch(() => {}, options);
      await remote.ls('/');
    } finally {
      g.reportError = saved;
    }
    expect(reported.map((e) => (e as Error).message)).toEqual([
      expect.stringMatching(/glob/),
      expect.stringMatching(/directories/),
      expect.stringMatching(/a\\0b|NUL/),
    ]);
    // A watch started after the worker is gone is inert: nothing reported.
    port1.close();
    await expect(remote.ls('/')).rejects.toThrow(/gone|closed/);
    g.reportError = (e) => reported.push(e);
    try {
      remote.watch(() => {});
      await new Promise((r) => setTimeout(r, 10));
    } finally {
      g.reportError = saved;
    }
    expect(reported).toHaveLength(3);
    port2.close();
  });
});
