import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../persist/memory-store.ts';
import { createFileStore } from '../persist/node/file-store.ts';
import type { WorkspaceStore } from '../persist/store.ts';
import { openWorkspace } from './serve-mcp.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'agentvfs-serve-'));
  made.push(root);
  writeFileSync(join(root, 'a.txt'), 'A\n');
  return root;
}

/** A store whose write number `killedAt` (0-based) never lands and throws: the process was killed there. */
function killedAtWrite(killedAt: number) {
  const store = createMemoryStore();
  let writes = 0;
  const killed: WorkspaceStore = {
    readAll: () => store.readAll(),
    write: async (batch, options) => {
      if (writes++ === killedAt) throw new Error('killed');
      return store.write(batch, options);
    },
  };
  return { store, killed };
}

describe('openWorkspace with --save', () => {
  it.each([0, 1, 2])('a server stopped at its save number %i while filling a new save file from --dir starts from --dir again', async (killedAt) => {
    const dir = project();
    const options = { command: 'mcp', dir, save: join(dir, '..', 'never-made.log') } as const;
    const { store, killed } = killedAtWrite(killedAt);
    await openWorkspace(options, () => killed).catch(() => {});
    // The next start sees what was committed before the kill.
    const reopened = createMemoryStore();
    if (store.entries.size > 0) await reopened.write({ puts: [...store.entries], deletes: [] }, { durability: 'strict' });
    const { target, started } = await openWorkspace(options, () => reopened);
    expect(await target.readText('/a.txt')).toBe('A\n');
    expect(started).toMatch(/^(imported 1 file from .*; saving to .* \(a new file\)|restored .*)$/);
  });
});

describe('closing the workspace', () => {
  it('removes the save file lock even when the save on exit fails (the reason is still thrown)', async () => {
    const dir = project();
    const save = join(dir, 'ws.log');
    let writes = 0;
    const failing = (path: string): WorkspaceStore => {
      const store = createFileStore(path);
      return {
        readAll: () => store.readAll(),
        // The first save (opening) lands; every later one fails, as on a full disk.
        write: (batch, options) => (writes++ === 0 ? store.write(batch, options) : Promise.reject(new Error('ENOSPC: no space left on device'))),
        close: async () => store.close?.(),
      };
    };
    const { target, close } = await openWorkspace({ command: 'mcp', save }, failing);
    expect(existsSync(`${save}.lock`)).toBe(true);
    await expect(target.writeFile('/b.txt', 'B\n')).rejects.toThrow(/not be saved/);
    await expect(close()).rejects.toThrow(/ENOSPC/);
    expect(existsSync(`${save}.lock`)).toBe(false);
  });
});

describe('the line a start writes', () => {
  it('says a restored save file holds no files when it holds none, as for an empty file', async () => {
    const dir = project();
    const store = createMemoryStore();
    // A first server without --dir that wrote nothing: the file holds an empty workspace.
    expect((await openWorkspace({ command: 'mcp', save: 'ws.log' }, () => store)).started).toBe('ws.log does not exist yet: starting empty');
    expect((await openWorkspace({ command: 'mcp', save: 'ws.log' }, () => store)).started).toBe('restored ws.log (it holds no files)');
    expect((await openWorkspace({ command: 'mcp', dir, save: 'ws.log' }, () => store)).started).toBe(
      `restored ws.log (it holds no files; --dir ${dir} fills only a new save file: delete ws.log to start from it again)`,
    );
  });
});
