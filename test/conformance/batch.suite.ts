import { describe, expect, it } from 'vitest';
import type { Backend, BatchChange } from '../../src/index.ts';
import { expectVfsError, manualClock, text, utf8, type BackendFactory } from './harness.ts';

/** Runs a batch that must fail with `code`, and checks that the whole state is byte-for-byte what it was. */
async function expectRefused(backend: Backend, changes: BatchChange[], code: string): Promise<string> {
  const before = await backend.snapshot();
  const error = await expectVfsError(backend.applyBatch(changes), code);
  expect(await backend.snapshot()).toEqual(before);
  return error.message;
}

export function batchSuite(make: BackendFactory) {
  describe('applyBatch: several files as one change', () => {
    it('writes, creates (with parents) and removes in one call; results in the order given', async () => {
      const b = await make({ files: { '/a.txt': 'a\n', '/gone.txt': 'x' } });
      const results = await b.applyBatch([
        { path: 'a.txt', content: 'A\n' },
        { path: '/new/dir/b.bin', content: utf8('b') },
        { path: '/gone.txt', content: null },
      ]);
      expect(results).toEqual([
        { path: '/a.txt', version: (await b.stat('/a.txt')).version, created: false },
        { path: '/new/dir/b.bin', version: (await b.stat('/new/dir/b.bin')).version, created: true },
        { path: '/gone.txt', version: null, created: false },
      ]);
      expect(await b.readText('/a.txt')).toBe('A\n');
      expect(text(await b.readFile('/new/dir/b.bin'))).toBe('b');
      expect(await b.exists('/gone.txt')).toBe(false);
    });

    it('a file removed in the batch may become a directory of a file written in it', async () => {
      const b = await make({ files: { '/a': 'file' } });
      await b.applyBatch([
        { path: '/a/b.txt', content: 'under\n' },
        { path: '/a', content: null },
      ]);
      expect((await b.stat('/a')).isDir).toBe(true);
      expect(await b.readText('/a/b.txt')).toBe('under\n');
    });

    it('checks versions: one stale file refuses the whole batch', async () => {
      const b = await make({ files: { '/a.txt': 'a', '/b.txt': 'b' } });
      const a = (await b.stat('/a.txt')).version;
      const message = await expectRefused(
        b,
        [
          { path: '/a.txt', content: 'A', expectedVersion: a },
          { path: '/b.txt', content: 'B', expectedVersion: a },
          { path: '/c.txt', content: 'C' },
        ],
        'ESTALE',
      );
      expect(message).toMatch(/^\/b\.txt changed since it was read/);
      await expectRefused(b, [{ path: '/a.txt', content: 'A', expectedVersion: -1 }], 'ESTALE');
    });

    it('refuses, changing nothing: a missing file to remove, a directory, a file under a file, a path twice', async () => {
      const b = await make({ files: { '/f': 'x', '/d/x.txt': 'x' } });
      const ok = { path: '/ok.txt', content: 'fine' };
      expect(await expectRefused(b, [ok, { path: '/missing.txt', content: null }], 'ENOENT')).toMatch(/missing\.txt/);
      expect(await expectRefused(b, [ok, { path: '/d', content: 'x' }], 'EISDIR')).toBe(
        '/d is a directory; a batch writes and removes files only. Nothing was written. Give a file path.',
      );
      expect(await expectRefused(b, [ok, { path: '/d', content: null }], 'EISDIR')).toMatch(/^\/d is a directory/);
      expect(await expectRefused(b, [ok, { path: '/f/g.txt', content: 'x' }], 'ENOTDIR')).toBe(
        '/f is a file, so /f/g.txt cannot exist under it. No file was changed. Use a path outside /f.',
      );
      expect(await expectRefused(b, [ok, { path: '/n', content: 'x' }, { path: '/n/m', content: 'y' }], 'ENOTDIR')).toBe(
        '/n is written as a file in the same batch, so /n/m cannot exist under it. No file was changed. Use a path outside /n.',
      );
      expect(await expectRefused(b, [ok, { path: 'ok.txt', content: 'again' }], 'EINVAL')).toMatch(/^\/ok\.txt appears twice/);
      await expectRefused(b, [ok, { path: '/x', content: 5 as unknown as string }], 'EINVAL');
    });

    it('checks the limits on the batch as a whole, before writing anything', async () => {
      const clock = manualClock();
      const b = await make({ limits: { maxTotalBytes: 10, maxFiles: 3, maxFileBytes: 8 }, files: { '/a': '123456', '/b': '12' }, now: clock.now });
      await expectRefused(
        b,
        [
          { path: '/b', content: '' },
          { path: '/big', content: '123456789' },
        ],
        'ETOOBIG',
      );
      await expectRefused(
        b,
        [
          { path: '/c', content: '12' },
          { path: '/d', content: '12' },
        ],
        'EQUOTA',
      ); // 12 bytes
      await expectRefused(
        b,
        [
          { path: '/c', content: '' },
          { path: '/d', content: '' },
        ],
        'EQUOTA',
      ); // 4 files
      // Growing /b while shrinking /a ends within the limit, though /b alone first would not.
      await b.applyBatch([
        { path: '/b', content: '12345678' },
        { path: '/a', content: '1' },
      ]);
      expect([(await b.stat('/a')).size, (await b.stat('/b')).size]).toEqual([1, 8]);
      // Removing makes room for what the same batch creates.
      await b.applyBatch([
        { path: '/b', content: null },
        { path: '/c', content: '1234' },
        { path: '/d', content: '1234' },
      ]);
      expect(await b.exists('/b')).toBe(false);
    });
  });
}
