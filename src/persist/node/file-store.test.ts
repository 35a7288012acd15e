import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileStore, readWorkspaceFile } from './file-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentvfs-file-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createFileStore', () => {
  it('refuses a file in a directory that does not exist by naming that directory (not the lock file it drafts)', async () => {
    const missing = join(dir, 'not-made');
    const store = createFileStore(join(missing, 'ws.log'));
    const error = (await store.readAll().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `agentvfs/persist: ${join(missing, 'ws.log')} cannot be made: its directory ${missing} does not exist. Create it first, or pass another path.`,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a path that is a directory by saying so (it was a bare EISDIR naming no path), taking no lock', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const error = (await createFileStore(folder)
      .readAll()
      .catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `agentvfs/persist: ${folder} is a directory; createFileStore needs the path of a file (such as ${join(folder, 'workspace.avfs')}).`,
    );
    expect(readdirSync(dir)).toEqual(['a-folder']);
    expect(() => readWorkspaceFile(folder)).toThrow(`agentvfs/persist: ${folder} is a directory; readWorkspaceFile needs the path of a file`);
    rmSync(folder, { recursive: true });
  });
});
