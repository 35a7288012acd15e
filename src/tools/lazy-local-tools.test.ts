// Tools loaded on their first call (lazy-local-tools.ts) keep one session from the first call on.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { lazyLocalTools } from './lazy-local-tools.ts';

describe('lazyLocalTools', () => {
  it('calls made together before the tools load share one session: both reads count for later writes', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'a\n', '/b.txt': 'b\n' } });
    const tools = lazyLocalTools(backend, {});
    await Promise.all([tools.call('read_file', { path: '/a.txt' }), tools.call('read_file', { path: '/b.txt' })]);
    expect(await tools.call('write_file', { path: '/a.txt', content: 'A\n' })).toBe('Updated /a.txt (1 line, 2 bytes).');
    expect(await tools.call('write_file', { path: '/b.txt', content: 'B\n' })).toBe('Updated /b.txt (1 line, 2 bytes).');
  });

  it('a session that cannot be made rejects every call with the reason', async () => {
    const backend = createStateBackend();
    const tools = lazyLocalTools(backend, { permissions: { read: ['/a/!(b)/*/*/*'] } });
    const first = await Promise.allSettled([tools.call('ls', { path: '/' }), tools.call('ls', { path: '/' })]);
    expect(first.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : r.status))).toEqual(['EINVAL', 'EINVAL']);
    await expect(tools.call('ls', { path: '/' })).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringMatching(/^Invalid glob pattern/) });
  });
});
