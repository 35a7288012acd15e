// Persistence: restore on start, autosave after mutations (debounced or immediate),
// corrupt snapshots kept aside and reported, with memory and IndexedDB (fake-indexeddb) adapters.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStateBackend, createTools } from '../../src/index.ts';
import {
  createDurableObjectStore,
  createIndexedDBAdapter,
  createIndexedDBStore,
  createMemoryAdapter,
  createMemoryStore,
  openPersistent,
  persist,
} from '../../src/persist/index.ts';
import { closeAll, overMessageChannel } from '../worker/factories.ts';

afterEach(closeAll);

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('persist()', () => {
  it('saves once after a burst of mutations (debounced), and flush() saves at once', async () => {
    const adapter = createMemoryAdapter();
    let saves = 0;
    const save = adapter.save.bind(adapter);
    adapter.save = async (bytes) => (saves++, save(bytes));
    const backend = persist(createStateBackend(), adapter, { debounceMs: 30 });
    await backend.writeFile('/a', '1');
    await backend.writeFile('/b', '2');
    await backend.mkdir('/d');
    expect(saves).toBe(0);
    // Polled, not a fixed sleep: a loaded CI machine may run the 30 ms timer late.
    await vi.waitFor(() => expect(saves).toBe(1), { timeout: 5_000, interval: 10 });
    await sleep(60);
    expect(saves).toBe(1); // one save for the burst, not one per mutation
    const restored = createStateBackend();
    await restored.restore(adapter.current!);
    expect(await restored.readText('/b')).toBe('2');
    await backend.remove('/a');
    await backend.flush();
    expect(saves).toBe(2);
    await backend.flush(); // nothing changed: no save
    expect(saves).toBe(2);
  });

  it('reads do not save', async () => {
    const adapter = createMemoryAdapter();
    const backend = persist(createStateBackend({ files: { '/a': 'a' } }), adapter, { debounceMs: 5 });
    await backend.readText('/a');
    await backend.ls('/');
    await backend.grep('a');
    await sleep(30);
    expect(adapter.current).toBeNull();
  });

  it('durability "immediate": every mutating call resolves only after the save', async () => {
    const adapter = createMemoryAdapter();
    const backend = persist(createStateBackend(), adapter, { durability: 'immediate' });
    await backend.writeFile('/x.txt', 'saved before resolve');
    const copy = createStateBackend();
    await copy.restore(adapter.current!);
    expect(await copy.readText('/x.txt')).toBe('saved before resolve');
  });

  it('a failed save rejects an immediate mutation with a clear error, and is retried later', async () => {
    const adapter = createMemoryAdapter();
    const save = adapter.save.bind(adapter);
    let fail = true;
    adapter.save = async (bytes) => {
      if (fail) throw new Error('disk full');
      return save(bytes);
    };
    const backend = persist(createStateBackend(), adapter, { durability: 'immediate' });
    await expect(backend.writeFile('/a', '1')).rejects.toThrow(/applied in memory but could not be saved: disk full/);
    expect(backend.lastError?.message).toBe('disk full');
    fail = false;
    await backend.flush();
    expect(adapter.current).not.toBeNull();
    expect(backend.lastError).toBeNull();
  });

  it('tool writes and edits are saved; failed tool calls and reads are not', async () => {
    const adapter = createMemoryAdapter();
    const backend = persist(createStateBackend({ files: { '/a.txt': 'one\n' } }), adapter, { durability: 'immediate' });
    const tools = createTools(backend);
    await tools.call('read_file', { path: '/a.txt' });
    expect(adapter.current).toBeNull();
    await tools.call('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' });
    const copy = createStateBackend();
    await copy.restore(adapter.current!);
    expect(await copy.readText('/a.txt')).toBe('two\n');
  });

  it('works over a worker: tool calls run in the worker and are saved from here', async () => {
    const adapter = createMemoryAdapter();
    const backend = persist(overMessageChannel({ files: { '/a.txt': 'one\n' } }), adapter, { durability: 'immediate' });
    const tools = createTools(backend);
    await tools.call('read_file', { path: '/a.txt' });
    expect(await tools.call('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' })).toMatch(/^Edited/);
    expect(await tools.call('write_file', { path: '/a.txt', content: 'nope' })).toMatch(/^Updated/);
    const copy = createStateBackend();
    await copy.restore(adapter.current!);
    expect(await copy.readText('/a.txt')).toBe('nope');
  });

  it('over a worker, a tool call saves when it wrote files (ToolResult.changed), never when it failed or only read', async () => {
    const adapter = createMemoryAdapter();
    let saves = 0;
    const save = adapter.save.bind(adapter);
    adapter.save = async (bytes, options) => (saves++, save(bytes, options));
    const backend = persist(overMessageChannel({ files: { '/a.txt': 'one\n' } }), adapter, { durability: 'immediate' });
    const tools = createTools(backend);
    expect((await tools.run('read_file', { path: '/a.txt' })).isError).toBe(false);
    expect(await tools.run('edit_file', { path: '/a.txt', old_string: 'absent', new_string: 'x' })).toMatchObject({
      isError: true,
      code: 'ENOMATCH',
      changed: [],
    });
    expect(await tools.run('write_file', { path: '/a.txt' })).toMatchObject({ isError: true, code: 'EINVAL', changed: [] });
    expect(saves).toBe(0);
    const written = await tools.run('write_file', { path: '/b.txt', content: 'two\n' });
    expect(written.changed).toEqual([{ path: '/b.txt', version: (await backend.stat('/b.txt')).version }]);
    expect(saves).toBe(1); // saved before run() resolved (immediate)
    const copy = createStateBackend();
    await copy.restore(adapter.current!);
    expect(await copy.readText('/b.txt')).toBe('two\n');
  });
});

describe('openPersistent()', () => {
  it('restores the last snapshot on start (a "reload" keeps the files)', async () => {
    const adapter = createMemoryAdapter();
    const first = await openPersistent(createStateBackend(), adapter);
    expect(first.restored).toEqual({ status: 'empty' });
    await first.backend.writeFile('/notes.md', 'kept');
    await first.backend.close();
    const second = await openPersistent(createStateBackend(), adapter);
    expect(second.restored.status).toBe('restored');
    expect(await second.backend.readText('/notes.md')).toBe('kept');
  });

  it('a corrupt stored snapshot is reported and kept aside, never half applied', async () => {
    const adapter = createMemoryAdapter();
    const good = createStateBackend({ files: { '/a': 'a' } });
    const bytes = await good.snapshot();
    bytes[bytes.length - 1]! ^= 0xff;
    await adapter.save(bytes);
    const { backend, restored } = await openPersistent(createStateBackend({ files: { '/fresh': 'start' } }), adapter);
    expect(restored.status).toBe('corrupt');
    expect((restored as { reason: string }).reason).toMatch(/ESNAPSHOT|snapshot/i);
    expect(adapter.aside).toHaveLength(1);
    expect(adapter.aside[0]!.bytes).toEqual(bytes);
    expect(adapter.aside[0]!.reason).toMatch(/checksum|CRC|snapshot/i);
    expect((await backend.ls('/')).map((e) => e.path)).toEqual(['/fresh']);
  });
});

describe('IndexedDB adapter (fake-indexeddb)', () => {
  it('saves, loads, clears and keeps bad snapshots aside', async () => {
    const indexedDB = new IDBFactory();
    const adapter = createIndexedDBAdapter({ indexedDB, key: 'session-1' });
    expect(await adapter.load()).toBeNull();
    await adapter.save(new Uint8Array([1, 2, 3]));
    expect([...(await adapter.load())!]).toEqual([1, 2, 3]);
    const other = createIndexedDBAdapter({ indexedDB, key: 'session-2' });
    expect(await other.load()).toBeNull();
    await adapter.keepAside(new Uint8Array([9]), 'bad checksum');
    await adapter.clear();
    expect(await adapter.load()).toBeNull();
    const aside = await adapter.listAside();
    expect(aside).toHaveLength(1);
    expect([...aside[0]!.bytes]).toEqual([9]);
    expect(aside[0]!.reason).toBe('bad checksum');
    // Two kept aside in one millisecond are both kept, oldest first.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 1_000 });
    try {
      await adapter.keepAside(new Uint8Array([7]), 'first');
      await adapter.keepAside(new Uint8Array([8]), 'second');
    } finally {
      vi.useRealTimers();
    }
    expect((await adapter.listAside()).map((a) => a.reason)).toEqual(['bad checksum', 'first', 'second']);
  });

  it('a backend persisted to IndexedDB comes back in a new "page"', async () => {
    const indexedDB = new IDBFactory();
    const page1 = await openPersistent(createStateBackend(), createIndexedDBAdapter({ indexedDB }), { debounceMs: 10 });
    const tools = createTools(page1.backend);
    await tools.call('write_file', { path: '/src/app.ts', content: 'export {};\n' });
    // The debounced autosave lands by itself (polled: timers may run late on a loaded machine).
    await vi.waitFor(async () => expect(await createIndexedDBAdapter({ indexedDB }).load()).not.toBeNull(), { timeout: 5_000, interval: 20 });
    const page2 = await openPersistent(createStateBackend(), createIndexedDBAdapter({ indexedDB }));
    expect(page2.restored.status).toBe('restored');
    expect(text(await page2.backend.readFile('/src/app.ts'))).toBe('export {};\n');
  });
});

describe('recovering from a dead worker', () => {
  it('a fresh worker restores the last persisted snapshot; with "immediate" nothing acknowledged is lost', async () => {
    const adapter = createMemoryAdapter();
    const { inWorkerThread } = await import('../worker/factories.ts');
    const worker = inWorkerThread();
    const first = await openPersistent(worker, adapter, { durability: 'immediate' });
    const tools = createTools(first.backend);
    expect(await tools.call('write_file', { path: '/work/result.txt', content: 'acknowledged\n' })).toMatch(/^Created/);
    // The worker dies (crash, tab kill, terminate): no goodbye, no flush.
    worker.close();
    await expect(first.backend.readText('/work/result.txt')).rejects.toThrow(/worker is gone/);
    const second = await openPersistent(inWorkerThread(), adapter);
    expect(second.restored.status).toBe('restored');
    expect(await second.backend.readText('/work/result.txt')).toBe('acknowledged\n');
  });
});

describe('wrapping', () => {
  it('a persisted backend can be wrapped again (two stores) and both save', async () => {
    const one = createMemoryAdapter();
    const two = createMemoryAdapter();
    const backend = persist(persist(createStateBackend(), one, { durability: 'immediate' }), two, { durability: 'immediate' });
    await backend.writeFile('/a', 'x');
    expect(one.current).not.toBeNull();
    expect(two.current).not.toBeNull();
  });
});

describe('debounced saves under a steady stream of mutations (fake clock)', () => {
  afterEach(() => void vi.useRealTimers());

  const savedPaths = async (adapter: ReturnType<typeof createMemoryAdapter>) => {
    if (!adapter.current) return new Set<string>();
    const copy = createStateBackend();
    await copy.restore(adapter.current);
    return new Set((await copy.ls('/')).map((e) => e.path));
  };

  it('a save starts within maxWaitMs of the first unsaved mutation even while writes keep coming', async () => {
    vi.useFakeTimers();
    const adapter = createMemoryAdapter();
    let saves = 0;
    const save = adapter.save.bind(adapter);
    adapter.save = async (bytes, options) => (saves++, save(bytes, options));
    const backend = persist(createStateBackend(), adapter, { debounceMs: 300, maxWaitMs: 1_000 });
    const acknowledged: Array<{ path: string; at: number }> = [];
    // One write every 100 ms for 10 s: the 300 ms debounce alone would never fire.
    for (let i = 0; i < 100; i++) {
      const path = `/w${String(i).padStart(3, '0')}`;
      await backend.writeFile(path, String(i));
      acknowledged.push({ path, at: Date.now() });
      await vi.advanceTimersByTimeAsync(100);
      const saved = await savedPaths(adapter);
      const now = Date.now();
      // Nothing acknowledged more than maxWaitMs ago is missing from the store.
      const missing = acknowledged.filter((w) => now - w.at > 1_000 && !saved.has(w.path));
      expect(missing, `at ${now} ms`).toEqual([]);
    }
    // About one save per second, not one per write.
    expect(saves).toBeGreaterThanOrEqual(9);
    expect(saves).toBeLessThanOrEqual(11);
    await backend.flush();
    expect((await savedPaths(adapter)).size).toBe(100);
  });

  it('a burst followed by quiet still saves after debounceMs, not maxWaitMs', async () => {
    vi.useFakeTimers();
    const adapter = createMemoryAdapter();
    const backend = persist(createStateBackend(), adapter, { debounceMs: 300, maxWaitMs: 5_000 });
    await backend.writeFile('/a', '1');
    await vi.advanceTimersByTimeAsync(299);
    expect(adapter.current).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(await savedPaths(adapter)).toEqual(new Set(['/a']));
  });

  it('refuses nonsense options with a TypeError that names the option', () => {
    const backend = createStateBackend();
    const adapter = createMemoryAdapter();
    expect(() => persist(backend, adapter, { maxWaitMs: -1 })).toThrow(/maxWaitMs must be a finite number/);
    expect(() => persist(backend, adapter, { debounceMs: Number.NaN })).toThrow(/debounceMs must be a finite number/);
    expect(() => persist(backend, adapter, { durability: 'eventually' as never })).toThrow(/durability must be 'debounced' or 'immediate'/);
  });
});

describe('what durability each save asks the store for', () => {
  it("immediate mutations and flush() ask for 'strict'; background saves for the store's default", async () => {
    const asked: string[] = [];
    const adapter = createMemoryAdapter();
    const save = adapter.save.bind(adapter);
    adapter.save = async (bytes, options) => (asked.push(options?.durability ?? 'none'), save(bytes, options));
    const immediate = persist(createStateBackend(), adapter, { durability: 'immediate' });
    await immediate.writeFile('/a', '1');
    const debounced = persist(createStateBackend(), adapter, { debounceMs: 1 });
    await debounced.writeFile('/b', '1');
    await vi.waitFor(() => expect(asked).toHaveLength(2), { timeout: 5_000, interval: 5 });
    await debounced.writeFile('/c', '1');
    await debounced.flush();
    expect(asked).toEqual(['strict', 'default', 'strict']);
  });

  it('the IndexedDB adapter opens its save transaction with the durability asked for', async () => {
    const { IDBDatabase } = await import('fake-indexeddb');
    const spy = vi.spyOn(IDBDatabase.prototype, 'transaction');
    try {
      const adapter = createIndexedDBAdapter({ indexedDB: new IDBFactory() });
      await adapter.save(new Uint8Array([1]), { durability: 'strict' });
      await adapter.save(new Uint8Array([2]));
      const writes = spy.mock.calls.filter((call) => call[1] === 'readwrite').map((call) => (call[2] as { durability?: string } | undefined)?.durability);
      expect(writes).toEqual(['strict', 'default']);
      expect([...(await adapter.load())!]).toEqual([2]);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('option names', () => {
  it('refuses a misspelt option, of openPersistent or of a store, naming the one meant (a default taken silently would save elsewhere, or later)', async () => {
    const backend = createStateBackend();
    await expect(openPersistent(backend, createMemoryStore(), { durabilty: 'immediate' } as never)).rejects.toThrow(
      'agentvfs/persist: openPersistent has no option "durabilty" (did you mean "durability"?); its options are durability, debounceMs, maxWaitMs, ifHeld, onError.',
    );
    expect(() => persist(backend, createMemoryAdapter(), { maxWait: 5 } as never)).toThrow(/no option "maxWait" \(did you mean "maxWaitMs"\?\)/);
    const indexedDB = new IDBFactory();
    expect(() => createIndexedDBStore({ indexedDB, IDBKeyRange, name: 'mine' } as never)).toThrow(
      /^agentvfs\/persist: createIndexedDBStore has no option "name"; its options are database, key, indexedDB, IDBKeyRange\.$/,
    );
    expect(() => createIndexedDBAdapter({ indexedDB, databse: 'mine' } as never)).toThrow(/createIndexedDBAdapter has no option "databse"/);
    expect(() => createDurableObjectStore({} as never, { chunk: 1024 } as never)).toThrow(
      /createDurableObjectStore has no option "chunk" \(did you mean "chunkBytes"\?\)/,
    );
    expect(() => createIndexedDBStore(null as never)).toThrow(/createIndexedDBStore takes an options object/);
  });
});
