// Incremental persistence of a backend behind the worker facade: methods and tool calls that run
// in the worker are saved from this side, one small batch each, and reopen intact.
import { afterEach, describe, expect, it } from 'vitest';
import { createStateBackend, createTools } from '../../src/index.ts';
import { createMemoryStore, openPersistent } from '../../src/persist/index.ts';
import { expose } from '../../src/worker/expose.ts';
import { connect } from '../../src/client/connect.ts';
import { closeAll, inWorkerThread, overMessageChannel } from '../worker/factories.ts';

afterEach(closeAll);

describe.each([
  ['a MessageChannel', overMessageChannel],
  ['a worker_threads worker (built dist/)', inWorkerThread],
])('openPersistent over %s', (_name, make) => {
  it('saves each tool write as one batch of what it changed', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(make({ files: { '/a.txt': 'one\n', '/big.bin': new Uint8Array(1_000_000) } }), store, { durability: 'immediate' });
    const tools = createTools(backend);
    const n = store.batches.length;
    await tools.run('read_file', { path: '/a.txt' });
    expect(store.batches).toHaveLength(n);
    expect((await tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' })).isError).toBe(false);
    expect(store.batches).toHaveLength(n + 1);
    expect(store.batches[n]!.puts.map(([k]) => k)).toEqual(['f:/a.txt']);
    await tools.run('write_file', { path: '/new/b.txt', content: 'b' });
    expect(store.batches[n + 1]!.puts.map(([k]) => k).sort()).toEqual(['d:/new', 'f:/new/b.txt']);
    await backend.remove('/big.bin');
    expect(store.batches[n + 2]!.deletes).toEqual(['f:/big.bin']);
    await backend.close();
    const { backend: reopened } = await openPersistent(createStateBackend(), store);
    expect(await reopened.readText('/a.txt')).toBe('two\n');
    expect(await reopened.readText('/new/b.txt')).toBe('b');
    expect(await reopened.exists('/big.bin')).toBe(false);
  });

  it('a tool call whose save fails is not ok in onEvent either, guarded or not, with its decision', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(make({ files: { '/a.txt': 'one\n' } }), store, { durability: 'immediate' });
    store.write = async () => {
      throw new Error('disk full');
    };
    for (const guard of [{}, { approve: () => ({ allow: true as const }) }]) {
      const events: { tool: string; ok: boolean; changed: { path: string }[]; decision?: unknown }[] = [];
      const tools = createTools(backend, { ...guard, onEvent: (e) => events.push(e) });
      await tools.run('read_file', { path: '/a.txt' });
      // (Content the file does not hold yet: a write of what it holds asks nothing.)
      const result = await tools.run('write_file', { path: '/a.txt', content: `${Object.keys(guard).length}\n` });
      expect(result.text).toMatch(/^Error: not saved: .*disk full/);
      expect(events.map((e) => [e.tool, e.ok, e.changed.map((c) => c.path)])).toEqual([
        ['read_file', true, []],
        ['write_file', false, ['/a.txt']],
      ]);
      // A guarded session's event still says what was decided.
      expect(events[1]!.decision).toBe('approve' in guard ? 'allow' : undefined);
    }
  });
});

describe('openPersistent inside the worker (the worker exposes the persistent backend)', () => {
  it("a guarded tool call is saved there, and this side's onEvent gets its decision", async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ files: { '/a.txt': 'one\n' } }), store, { durability: 'immediate' });
    const { port1, port2 } = new MessageChannel();
    expose(backend, port1);
    const remote = connect(port2);
    try {
      const events: Array<{ tool: string; ok: boolean; decision?: string }> = [];
      const answers = [{ allow: true as const }, { allow: true as const, always: true }];
      const tools = createTools(remote, { approve: () => answers.shift()!, onEvent: (e) => events.push(e) });
      await tools.run('read_file', { path: '/a.txt' });
      const n = store.batches.length;
      for (const content of ['two\n', 'three\n', 'four\n']) expect((await tools.run('write_file', { path: '/a.txt', content })).isError).toBe(false);
      expect(events.map((e) => [e.tool, e.ok, e.decision])).toEqual([
        ['read_file', true, undefined],
        ['write_file', true, 'allow'],
        ['write_file', true, 'always'],
        ['write_file', true, 'always'],
      ]);
      expect(store.batches).toHaveLength(n + 3);
    } finally {
      remote.close();
      port1.close();
    }
  });
});
