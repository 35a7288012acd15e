// Tools over a persisted backend run in process, loaded on their first call (src/tools/lazy-local-tools.ts):
// what createTools promised when they were loaded at once must still hold.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from '../tools/create-tools.ts';
import { createMemoryAdapter, type PersistenceAdapter } from './adapter.ts';
import { createMemoryStore } from './memory-store.ts';
import { openPersistent, persist } from './persistent.ts';

function counted(adapter: PersistenceAdapter): { adapter: PersistenceAdapter; saves: () => number } {
  let saves = 0;
  const save = adapter.save.bind(adapter);
  adapter.save = (bytes, options) => ((saves += 1), save(bytes, options));
  return { adapter, saves: () => saves };
}

describe('tools over a persisted backend, loaded on their first call', () => {
  it('a persisted backend wrapped again saves once per layer for one write', async () => {
    const inner = counted(createMemoryAdapter());
    const outer = counted(createMemoryAdapter());
    const backend = persist(persist(createStateBackend({ files: { '/a': 'x' } }), inner.adapter, { durability: 'immediate' }), outer.adapter, {
      durability: 'immediate',
    });
    expect(await createTools(backend).call('write_file', { path: '/b', content: 'y' })).toBe('Created /b (1 line, 1 byte).');
    expect([inner.saves(), outer.saves()]).toEqual([1, 1]);
  });

  it('a workspace store over a persisted backend answers a write (it waited on itself)', async () => {
    const { backend } = await openPersistent(persist(createStateBackend({ files: { '/a': 'x' } }), createMemoryAdapter()), createMemoryStore());
    expect(await createTools(backend).call('write_file', { path: '/b', content: 'y' })).toBe('Created /b (1 line, 1 byte).');
  });

  it("a response's reads, run together as the tools load, both count for the next response's writes", async () => {
    const backend = persist(createStateBackend({ files: { '/a.txt': 'a\n', '/b.txt': 'b\n' } }), createMemoryAdapter());
    const tools = createTools(backend);
    await Promise.all([tools.call('read_file', { path: '/a.txt' }), tools.call('read_file', { path: '/b.txt' })]);
    expect(await tools.call('write_file', { path: '/a.txt', content: 'A\n' })).toBe('Updated /a.txt (1 line, 2 bytes).');
    expect(await tools.call('write_file', { path: '/b.txt', content: 'B\n' })).toBe('Updated /b.txt (1 line, 2 bytes).');
  });

  it('a bad option fails where the tool set is made; a glob the matcher cannot compile rejects the calls, as through a worker', async () => {
    const backend = persist(createStateBackend({ files: { '/a/x': 'x' } }), createMemoryAdapter());
    expect(() => createTools(backend, { approve: 'yes' as never })).toThrow(/approve must be a function/);
    expect(() => createTools(backend, { permissions: { read: ['src/**'] } })).toThrow(/permissions\.read must be an array of globs of absolute paths/);
    const tools = createTools(backend, { permissions: { read: ['/a/!(b)/*/*/*'] } });
    await expect(tools.call('read_file', { path: '/a/x' })).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringMatching(/^Invalid glob pattern/) });
    await expect(tools.call('read_file', { path: '/a/x' })).rejects.toMatchObject({ code: 'EINVAL' });
  });
});
