// What the worker facade adds over the in-process backend: error transport,
// one round trip per tool call, transfers, and never hanging on a dead worker.
import { Worker } from 'node:worker_threads';
import { expose as comlinkExpose } from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStateBackend, createTools, isVfsError, VfsError } from '../../src/index.ts';
import { connect } from '../../src/client/connect.ts';
import { WorkerGoneError } from '../../src/client/remote-backend.ts';
import { expose } from '../../src/worker/expose.ts';
import { closeAll, inWorkerThread } from './factories.ts';

afterEach(closeAll);

/** A MessageChannel facade that counts the messages the client sends. */
function countedChannel(files: Record<string, string> = {}) {
  const { port1, port2 } = new MessageChannel();
  expose(createStateBackend({ files }), port1);
  let sent = 0;
  const post = port2.postMessage.bind(port2);
  port2.postMessage = (message: unknown, transfer?: unknown) => {
    sent++;
    post(message, transfer as Transferable[]);
  };
  const remote = connect(port2);
  return { remote, sent: () => sent, close: () => (remote.close(), port1.close()) };
}

describe('worker facade', () => {
  it('VfsError crosses with code and path; isVfsError is true on the caller side', async () => {
    const remote = inWorkerThread({ files: { '/src/app.ts': 'x' } });
    const error = await remote.readFile('/app.ts').catch((e: unknown) => e);
    expect(isVfsError(error)).toBe(true);
    expect(error).toBeInstanceOf(VfsError);
    expect(error).toMatchObject({ name: 'VfsError', code: 'ENOENT', path: '/app.ts' });
    expect((error as Error).message).toContain('/src/app.ts');
  });

  it('a VfsError posted by hand (postMessage, structuredClone, a worker_threads worker) keeps code, path and suggestions', async () => {
    const error = (await createStateBackend({ files: { '/src/app.ts': 'x' } })
      .stat('/app.ts')
      .then(
        () => null,
        (e: unknown) => e,
      )) as VfsError;
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/^VfsError: /);
    expect(error.stack).toMatch(/^VfsError: /);
    const fields = { name: 'VfsError', code: 'ENOENT', path: '/app.ts', message: error.message, suggestions: ['/src/app.ts'] };
    expect(structuredClone(error)).toEqual(fields);
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<unknown>((resolve) => (port2.onmessage = (event) => resolve(event.data)));
    port1.postMessage(error);
    const posted = await received;
    port1.close();
    port2.close();
    expect(posted).toEqual(fields);
    expect(isVfsError(posted)).toBe(true);
    expect(VfsError.fromJSON(posted as VfsError)).toMatchObject(fields);
    // A worker that throws one and posts it, with no help from agentvfs/client.
    const dist = new URL('../../dist/index.js', import.meta.url).href;
    const worker = new Worker(
      `import('${dist}').then(async ({ createStateBackend }) => {
        const { parentPort } = await import('node:worker_threads');
        try { await createStateBackend().stat('/nope'); } catch (e) { parentPort.postMessage(e); }
      });`,
      { eval: true },
    );
    const fromWorker = await new Promise<unknown>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(isVfsError(fromWorker)).toBe(true);
    expect(fromWorker).toMatchObject({ code: 'ENOENT', path: '/nope' });
  });

  it('refuses a `now` clock for a worker at once, with what to do instead (a function cannot be sent)', () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const options = { backend: { now: () => 5 } } as unknown as Parameters<typeof connect>[1];
      expect(() => connect(port2, options)).toThrow(/`now` option is a function and cannot be sent to a worker.*expose\(createStateBackend\(\{ now \}\)/);
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('refuses a misspelt option at once, before a worker hears of it', async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      expect(() => connect(port2, { startTimeout: 5 } as never)).toThrow(
        'agentvfs/client: connect has no option "startTimeout" (did you mean "startTimeoutMs"?); its options are startTimeoutMs, transferInputs, backend.',
      );
      expect(() => connect(port2, { backend: { limit: {} } } as never)).toThrow(
        'agentvfs/client: connect: backend has no option "limit" (did you mean "limits"?); its options are files, cwd, limits, textCacheBytes.',
      );
      // createWorkerBackend takes the backend's options and connect's beside them; checked before it looks for Web Workers.
      // (From the build: its worker's code is embedded there.)
      const { createWorkerBackend } = (await import(new URL('../../dist/client.js', import.meta.url).href)) as typeof import('../../src/client/index.ts');
      expect(() => createWorkerBackend({ transferInput: true } as never)).toThrow(
        'agentvfs/client: createWorkerBackend has no option "transferInput" (did you mean "transferInputs"?); its options are files, cwd, limits, textCacheBytes, startTimeoutMs, transferInputs.',
      );
      expect(() => createWorkerBackend({ files: {}, startTimeoutMs: 5 })).toThrow(/needs Web Workers/);
      expect(() => expose(createStateBackend(), port1, { indexWhileIdle: false } as never)).toThrow(
        /expose has no option "indexWhileIdle"; its options are indexWhenIdle\./,
      );
    } finally {
      port1.close();
      port2.close();
    }
  });

  it("a bad limit for the worker's backend fails ready and every call with the backend's own TypeError", async () => {
    const { port1, port2 } = new MessageChannel();
    expose(undefined, port1);
    const remote = connect(port2, { backend: { limits: { maxFile: 1 } } as never });
    try {
      await expect(remote.ready).rejects.toThrow(/limits has no option "maxFile" \(did you mean "maxFiles"\?\)/);
      await expect(remote.readFile('/a')).rejects.toThrow(/limits has no option "maxFile"/);
    } finally {
      port1.close();
      port2.close();
    }
  });

  it('each tool call is one round trip, and the session lives in the worker', async () => {
    const channel = countedChannel({ '/a.txt': 'hello\n' });
    await channel.remote.ready;
    const tools = createTools(channel.remote);
    const before = channel.sent();
    expect(await tools.call('read_file', { path: '/a.txt' })).toBe('     1\thello');
    expect(channel.sent() - before).toBe(1);
    expect(await tools.call('edit_file', { path: '/a.txt', old_string: 'hello', new_string: 'bye' })).toMatch(/^Edited/);
    expect(channel.sent() - before).toBe(2);
    // A second tool set is a second session: it has read nothing.
    expect(await createTools(channel.remote).call('write_file', { path: '/a.txt', content: 'x' })).toMatch(/^Error: ENOTREAD/);
    channel.close();
  });

  it('tools.run is one round trip too, and its structured result crosses whole (code, changed)', async () => {
    const channel = countedChannel({ '/a.txt': 'hello\n' });
    await channel.remote.ready;
    const tools = createTools(channel.remote);
    const before = channel.sent();
    expect(await tools.run('read_file', { path: '/a.txt' })).toEqual({ text: '     1\thello', isError: false, changed: [] });
    expect(channel.sent() - before).toBe(1);
    const edited = await tools.run('edit_file', { path: '/a.txt', old_string: 'hello', new_string: 'bye' });
    expect(channel.sent() - before).toBe(2);
    expect(edited.changed).toEqual([{ path: '/a.txt', version: (await channel.remote.stat('/a.txt')).version }]);
    expect(await tools.run('read_file', { path: '/nope.txt' })).toMatchObject({ isError: true, code: 'ENOENT', changed: [] });
    channel.close();
  });

  it('tool definitions are the same as in process', async () => {
    const remote = inWorkerThread();
    expect(createTools(remote).definitions).toEqual(createTools(createStateBackend()).definitions);
  });

  it('inputs are copied by default: the caller keeps its bytes', async () => {
    const remote = inWorkerThread();
    const bytes = new Uint8Array([1, 2, 3]);
    await remote.writeFile('/b', bytes);
    await remote.uploadFiles([['/c', bytes]]);
    expect(bytes.byteLength).toBe(3);
    expect([...(await remote.readFile('/b'))]).toEqual([1, 2, 3]);
  });

  it('the worker keeps the bytes it receives (copy: false: they are its own copy), and files stay independent', async () => {
    const backend = createStateBackend();
    const seen: unknown[] = [];
    const spy = new Proxy(backend, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'writeFile' && key !== 'uploadFiles') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => (seen.push([key, args[key === 'writeFile' ? 2 : 1]]), (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
    const { port1, port2 } = new MessageChannel();
    expose(spy, port1);
    const remote = connect(port2);
    try {
      const same = new Uint8Array([1, 2, 3]);
      await remote.uploadFiles([
        ['/a', same],
        ['/b', same],
      ]);
      await remote.writeFile('/c', same, { expectedVersion: -1 });
      await remote.writeFile('/d', 'text');
      expect(seen).toEqual([
        ['uploadFiles', { copy: false }],
        ['writeFile', { expectedVersion: -1, copy: false }],
        ['writeFile', undefined],
      ]);
      await remote.writeFile('/a', new Uint8Array([9]));
      expect([...(await remote.readFile('/b'))]).toEqual([1, 2, 3]);
      expect([...(await remote.readFile('/c'))]).toEqual([1, 2, 3]);
      expect([...(await remote.readFile('/a'))]).toEqual([9]);
    } finally {
      remote.close();
      port1.close();
    }
  });

  it("restore's copy option reaches the backend as given; with transferInputs a copy: false restore adopts the moved snapshot", async () => {
    const backend = createStateBackend();
    const seen: unknown[] = [];
    const spy = new Proxy(backend, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key !== 'restore') return typeof value === 'function' ? value.bind(target) : value;
        return (...args: unknown[]) => (seen.push(args[1]), (value as (...a: unknown[]) => unknown).apply(target, args));
      },
    });
    const { port1, port2 } = new MessageChannel();
    expose(spy, port1);
    const remote = connect(port2, { transferInputs: true });
    try {
      const snap = await createStateBackend({ files: { '/a': 'alpha', '/b': 'beta' } }).snapshot();
      await remote.restore(snap.slice());
      const moved = snap.slice();
      await remote.restore(moved, { copy: false });
      expect(moved.byteLength).toBe(0);
      expect(seen).toEqual([undefined, { copy: false }]);
      expect(await remote.readText('/a')).toBe('alpha');
      await remote.writeFile('/a', 'changed');
      expect(await remote.readText('/b')).toBe('beta');
      await expect(remote.restore(snap.subarray(0, 50).slice(), { copy: false })).rejects.toMatchObject({ code: 'ESNAPSHOT' });
      expect(await remote.readText('/a')).toBe('changed');
    } finally {
      remote.close();
      port1.close();
    }
  });

  it('indexes for search by itself once idle after changes (unless told not to)', async () => {
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`/f${i}.ts`, `const x${i} = ${i};\n`.repeat(2000)]));
    type Remote = ReturnType<typeof connect>;
    const pending = async (indexWhenIdle: boolean, change: (remote: Remote, indexed: () => Promise<void>) => Promise<unknown>) => {
      const backend = createStateBackend();
      // Counts the slices that completed the index, to wait for the worker's own indexing
      // instead of sleeping a fixed time (a loaded machine runs timers late).
      let completed = 0;
      const prepare = backend.prepareSearch.bind(backend);
      backend.prepareSearch = async (options) => {
        const result = await prepare(options);
        if (result.done && result.indexedFiles > 0) completed++;
        return result;
      };
      const indexed = async () => {
        const before = completed;
        if (indexWhenIdle) await vi.waitFor(() => expect(completed).toBeGreaterThan(before), { timeout: 5_000, interval: 20 });
        else await new Promise((resolve) => setTimeout(resolve, 300));
      };
      const { port1, port2 } = new MessageChannel();
      expose(backend, port1, { indexWhenIdle });
      const remote = connect(port2);
      try {
        await change(remote, indexed);
        // maxBytes 0 indexes one file if any is left: none means the worker did it all.
        return (await remote.prepareSearch({ maxBytes: 0 })).indexedFiles;
      } finally {
        remote.close();
        port1.close();
      }
    };
    const upload = (remote: Remote) => remote.uploadFiles(Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t)]));
    const uploadThenWait = async (remote: Remote, indexed: () => Promise<void>) => {
      const waiting = indexed();
      await upload(remote);
      await waiting;
    };
    expect(await pending(true, uploadThenWait)).toBe(0);
    expect(await pending(false, uploadThenWait)).toBe(1);
    // A tool's write after the index was complete makes the worker index again.
    const toolWrite = async (remote: Remote, indexed: () => Promise<void>) => {
      await uploadThenWait(remote, indexed);
      const waiting = indexed();
      await createTools(remote).call('write_file', { path: '/new.ts', content: 'fresh\n' });
      await waiting;
    };
    expect(await pending(true, toolWrite)).toBe(0);
  });

  it('with transferInputs, whole-buffer inputs are moved (detached), views into larger buffers copied', async () => {
    const worker = new Worker(new URL('./backend.worker.mjs', import.meta.url), { workerData: {} });
    const remote = connect(worker, { transferInputs: true });
    try {
      const whole = new Uint8Array(1024 * 1024).fill(7);
      await remote.writeFile('/big', whole);
      expect(whole.byteLength).toBe(0);
      const shared = new Uint8Array(16).fill(1);
      const view = shared.subarray(4, 8);
      await remote.writeFile('/view', view);
      expect(view.byteLength).toBe(4);
      expect(shared.byteLength).toBe(16);
      const snapshot = await remote.snapshot();
      await remote.restore(snapshot);
      expect(snapshot.byteLength).toBe(0);
      expect((await remote.stat('/big')).size).toBe(1024 * 1024);
    } finally {
      await worker.terminate();
    }
  });

  it('results arrive as standalone Uint8Arrays (transferred from the worker)', async () => {
    const remote = inWorkerThread({ files: { '/a': 'abc', '/b': 'de' } });
    const bytes = await remote.readFile('/a');
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
    const [a, b] = await remote.downloadFiles(['/a', '/b']);
    expect(new TextDecoder().decode(a!.content!)).toBe('abc');
    expect(new TextDecoder().decode(b!.content!)).toBe('de');
    const snapshot = await remote.snapshot();
    expect(snapshot.byteLength).toBe(snapshot.buffer.byteLength);
  });

  it('a worker that throws at load rejects every call with a clear error instead of hanging', async () => {
    const worker = new Worker(new URL('./fail-at-load.worker.mjs', import.meta.url));
    const remote = connect(worker);
    const error = await remote.ls('/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerGoneError);
    expect((error as Error).message).toMatch(/boom at load|exited/);
    await expect(remote.stat('/')).rejects.toThrow(/worker is gone/);
    await expect(createTools(remote).call('ls', {})).rejects.toThrow(/worker is gone/);
  });

  it('terminating the worker rejects pending and later calls', async () => {
    const worker = new Worker(new URL('./slow.worker.mjs', import.meta.url));
    const remote = connect(worker);
    await remote.ready;
    const pending = remote.grep('a');
    const pendingTool = createTools(remote).call('grep', { pattern: 'a' });
    await new Promise((r) => setTimeout(r, 50));
    await worker.terminate();
    await expect(pending).rejects.toThrow(WorkerGoneError);
    await expect(pendingTool).rejects.toThrow(WorkerGoneError);
    await expect(remote.readText('/a')).rejects.toThrow(/exited/);
  });

  it('close() ends the worker; later calls fail at once', async () => {
    const remote = inWorkerThread({ files: { '/a': 'a' } });
    expect(await remote.readText('/a')).toBe('a');
    const tools = createTools(remote);
    expect(await tools.call('read_file', { path: '/a' })).toBe('     1\ta');
    remote.close();
    await expect(remote.readText('/a')).rejects.toThrow(WorkerGoneError);
    await expect(tools.call('read_file', { path: '/a' })).rejects.toThrow(WorkerGoneError);
  });

  it('a worker speaking another protocol version: ready rejects and every call fails with a clear error', async () => {
    const { port1, port2 } = new MessageChannel();
    comlinkExpose({ ping: async () => ({ protocol: 1 }), call: async () => 'old worker answered', tool: async () => 'old worker answered' }, port1);
    const remote = connect(port2);
    await expect(remote.ready).rejects.toThrow(/speaks protocol 1, this client \d+/);
    await expect(remote.exists('/')).rejects.toThrow(WorkerGoneError);
    await expect(createTools(remote).call('ls', {})).rejects.toThrow(/speaks protocol 1/);
    port1.close();
    port2.close();
  });

  it('an argument that cannot be cloned (a function, a symbol) rejects that call only, EINVAL as in process; later calls still answer', async () => {
    const channel = countedChannel({ '/a': 'a' });
    await channel.remote.ready;
    for (const call of [
      () => channel.remote.writeFile('/b', (() => 1) as never),
      () => channel.remote.writeFile(Symbol('x') as never, 'a'),
      () => channel.remote.grep('a', { path: (() => '/') as never }),
    ]) {
      const error = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(isVfsError(error) && error.code).toBe('EINVAL');
      expect((error as Error).message).toContain('cannot be sent to the worker');
    }
    expect(await channel.remote.readText('/a')).toBe('a');
    expect(await channel.remote.exists('/b')).toBe(false);
    channel.close();
  });

  it('calls made before the worker answered wait for it, then go out in order', async () => {
    const channel = countedChannel({ '/a': 'a' });
    const tools = createTools(channel.remote);
    const results = await Promise.all([channel.remote.exists('/a'), tools.call('read_file', { path: '/a' }), channel.remote.readText('/a')]);
    expect(results).toEqual([true, '     1\ta', 'a']);
    channel.close();
  });

  it('a worker that never answers fails after startTimeoutMs', async () => {
    const { port2 } = new MessageChannel(); // nobody listens on port1
    const remote = connect(port2, { startTimeoutMs: 100 });
    await expect(remote.ls()).rejects.toThrow(/did not answer within 100 ms/);
    port2.close();
  });
});
