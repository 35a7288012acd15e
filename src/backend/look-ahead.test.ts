import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../index.ts';
import { openPersistent } from '../persist/persistent.ts';
import { createMemoryStore } from '../persist/memory-store.ts';
import { scratchForkOf } from './look-ahead.ts';
import { BACKEND_METHODS } from '../calls.ts';

describe('scratchForkOf (a look ahead: Tools.preview)', () => {
  it('writes of the fork never reach the backend, nor the backend’s reach the fork once it wrote; watchers and checkpoints see nothing', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'a', '/b.txt': 'b' } });
    const events: unknown[] = [];
    backend.watch((e) => events.push(...e));
    const checkpoint = await backend.checkpoint('start');
    const fork = scratchForkOf(backend)!;
    await fork.writeFile('/a.txt', 'fork');
    await fork.remove('/b.txt');
    await fork.mkdir('/made');
    expect(await backend.readText('/a.txt')).toBe('a');
    expect(await backend.exists('/b.txt')).toBe(true);
    expect(await backend.exists('/made')).toBe(false);
    await backend.writeFile('/b.txt', 'later');
    expect(await fork.exists('/b.txt')).toBe(false);
    expect(events.map((e) => (e as { path: string }).path)).toEqual(['/b.txt']);
    expect((await backend.diff(checkpoint)).modified).toEqual(['/b.txt']);
    // A fork the user made keeps its merge base: the scratch fork did not disturb it.
    const userFork = await backend.fork();
    scratchForkOf(backend);
    await userFork.writeFile('/c.txt', 'c');
    await backend.writeFile('/a.txt', 'main');
    const merged = await backend.merge(userFork);
    expect(merged.conflicts).toEqual([]);
    expect(await backend.readText('/c.txt')).toBe('c');
    expect(await backend.readText('/a.txt')).toBe('main');
  });

  it('through a persistence wrapper, its backend’s; none for a backend that is not agentvfs’s own', async () => {
    const { backend } = await openPersistent(createStateBackend({ files: { '/a.txt': 'a' } }), createMemoryStore());
    const fork = scratchForkOf(backend)!;
    await fork.writeFile('/a.txt', 'fork');
    expect(await backend.readText('/a.txt')).toBe('a');
    // A backend of one's own (here: every method forwarded) has none.
    const inner = createStateBackend();
    const custom = Object.fromEntries(BACKEND_METHODS.map((m) => [m, (...args: unknown[]) => (inner[m] as (...a: unknown[]) => unknown)(...args)]));
    expect(scratchForkOf(custom as never)).toBeUndefined();
  });
});
