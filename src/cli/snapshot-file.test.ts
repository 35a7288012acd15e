import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSnapshotFile, snapshotFile, writeFileAtomic } from './snapshot-file.ts';

const scratch = () => mkdtempSync(join(tmpdir(), 'agentvfs-snapfile-'));

describe('writeFileAtomic', () => {
  it('replaces the file and leaves no temporary file beside it', async () => {
    const dir = scratch();
    const file = join(dir, 'ws.snap');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['ws.snap']);
  });

  it('saves in the order asked, whatever the overlap: the last one is what stays', async () => {
    const dir = scratch();
    const file = join(dir, 'ws.snap');
    const store = snapshotFile(file);
    await Promise.all([1, 2, 3, 4].map((n) => store.save(new Uint8Array(64 * 1024).fill(n))));
    // Each save is complete on its own; concurrent ones never mix their bytes.
    const bytes = readFileSync(file);
    expect(bytes.length).toBe(64 * 1024);
    expect(new Set(bytes).size).toBe(1);
    expect(readdirSync(dir)).toEqual(['ws.snap']);
  });

  it('fails without touching what was there or leaving a temporary file when the rename cannot happen', async () => {
    const dir = scratch();
    // The target is a directory with a file in it: the bytes are written, then the rename is refused.
    const target = join(dir, 'ws.snap');
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'kept');
    await expect(writeFileAtomic(target, new Uint8Array(16))).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['ws.snap']);
    expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('kept');
    await expect(writeFileAtomic(join(dir, 'missing-dir', 'x.snap'), new Uint8Array(1))).rejects.toThrow(/ENOENT/);
    expect(readdirSync(dir)).toEqual(['ws.snap']);
  });
});

describe('readSnapshotFile', () => {
  it('reads the bytes, or null when there is no file', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.snap'), new Uint8Array([9, 8]));
    expect(await readSnapshotFile(join(dir, 'a.snap'))).toEqual(new Uint8Array([9, 8]));
    expect(await readSnapshotFile(join(dir, 'none.snap'))).toBeNull();
    await expect(readSnapshotFile(dir)).rejects.toThrow(/EISDIR/);
  });
});
