// A persisted backend forks (the fork is in memory only) and merges (saved like any mutation).
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { createMemoryAdapter, persist } from '../../src/persist/index.ts';

describe('persist() with forks', () => {
  it('a merge into a persisted backend is saved; the fork itself never is', async () => {
    const adapter = createMemoryAdapter();
    const backend = persist(createStateBackend({ files: { '/a.txt': 'one\n' } }), adapter, { durability: 'immediate' });
    const fork = await backend.fork();
    await fork.writeFile('/b.txt', 'from the fork\n');
    expect(adapter.current).toBeNull(); // a write in the fork saves nothing
    const result = await backend.merge(fork);
    expect(result.merged).toEqual(['/b.txt']);
    const copy = createStateBackend();
    await copy.restore(adapter.current!);
    expect(await copy.readText('/b.txt')).toBe('from the fork\n');
  });
});
