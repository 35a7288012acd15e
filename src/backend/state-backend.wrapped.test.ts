// merge() and diff(backend) read the other backend's private state: a wrapper around one (a
// Proxy, as guards and instrumentation make) must get a clear EINVAL, not a raw TypeError.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from './state-backend.ts';

const wrap = <T extends object>(target: T): T => new Proxy(target, { get: (t, key) => Reflect.get(t, key, t) });

describe('a backend wrapped in a Proxy, handed to merge and diff', () => {
  it('merge names what it takes, says to pass the fork itself, and changes nothing', async () => {
    const parent = createStateBackend({ files: { '/a.txt': 'a\n' } });
    const fork = await parent.fork();
    await fork.writeFile('/a.txt', 'b\n');
    const error = await parent.merge(wrap(fork)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'EINVAL' });
    expect((error as Error).message).toContain('pass the fork itself, not a wrapper or proxy around it');
    expect(await parent.readText('/a.txt')).toBe('a\n');
    // The fork itself still merges afterwards.
    expect((await parent.merge(fork)).merged).toEqual(['/a.txt']);
  });

  it('diff(backend) says to pass the backend itself', async () => {
    const parent = createStateBackend({ files: { '/a.txt': 'a\n' } });
    const fork = await parent.fork();
    await expect(parent.diff(wrap(fork))).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringContaining('not a wrapper or proxy') });
    expect((await parent.diff(fork)).added).toEqual([]);
  });
});
