// A persisted backend forks (the fork is in memory only) and merges (saved like any mutation).
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { createMemoryAdapter, createMemoryStore, openPersistent, persist } from '../../src/persist/index.ts';

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

describe('openPersistent() with forks', () => {
  it("a fork takes in its persisted parent's changes and diffs against it (the wrapper stands for the backend), then merges back, saved", async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend(), store, { durability: 'immediate' });
    await backend.writeFile('/f.txt', '1\n2\n3\n');
    const fork = await backend.fork();
    await fork.writeFile('/f.txt', '1\nfork\n3\n');
    await backend.writeFile('/f.txt', '1\nmain\n3\n');
    expect((await fork.diff(backend)).modified).toEqual(['/f.txt']);
    // Settled in the fork, as docs/workspaces.md shows: main's changes in, markers where both changed.
    const update = await fork.merge(backend, { conflicts: 'markers' });
    expect(update.conflicts.map((c) => c.kind)).toEqual(['content']);
    await fork.writeFile('/f.txt', '1\nsettled\n3\n');
    expect((await backend.merge(fork)).conflicts).toEqual([]);
    await backend.close();
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/f.txt')).toBe('1\nsettled\n3\n');
  });
});
