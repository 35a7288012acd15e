import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
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

describe('a restart with --dir and a save file that holds a workspace', () => {
  /** The lines a start writes to stderr, and what it opened. */
  async function start(options: Parameters<typeof openWorkspace>[0]) {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const workspace = await openWorkspace(options);
      return { ...workspace, lines: lines.join('') };
    } finally {
      spy.mockRestore();
    }
  }

  it('does not import the directory again, but still refuses one that is not a directory', async () => {
    const dir = project();
    symlinkSync(join(dir, 'nowhere'), join(dir, 'broken-link')); // importing it says so on stderr
    const save = join(mkdtempSync(join(tmpdir(), 'agentvfs-save-')), 'ws.log');
    made.push(save);
    const first = await start({ command: 'mcp', dir, save });
    expect(first.lines).toContain('skipped');
    await first.target.writeFile('/work.txt', "the agent's work\n");
    await first.close();
    const again = await start({ command: 'mcp', dir, save });
    expect(again.lines).not.toContain('skipped'); // not read again
    expect(again.started).toBe(`restored ${save} (--dir ${dir} fills only a new save file: delete ${save} to start from it again)`);
    expect(await again.target.readText('/work.txt')).toBe("the agent's work\n");
    await again.close();
    const before = readFileSync(save);
    await expect(start({ command: 'mcp', dir: join(dir, 'a.txt'), save })).rejects.toThrow(
      `cannot import ${join(dir, 'a.txt')}: ${join(dir, 'a.txt')} is not a directory.`,
    );
    await expect(start({ command: 'mcp', dir: join(dir, 'missing'), save })).rejects.toThrow(/^cannot import .*missing: ENOENT/);
    expect(readFileSync(save).equals(before)).toBe(true);
    expect(existsSync(`${save}.lock`)).toBe(false);
  });

  it('imports it after all into a save file whose workspace could not be read (kept aside)', async () => {
    const dir = project();
    const save = join(mkdtempSync(join(tmpdir(), 'agentvfs-save-')), 'ws.log');
    made.push(save);
    const first = await start({ command: 'mcp', save });
    await first.target.writeFile('/old.txt', 'old\n');
    await first.close();
    // One record of the log damaged inside its checksummed frame: the store keeps it aside on open.
    const store = createFileStore(save);
    const records = await store.readAll();
    await store.write({ puts: [...records].map(([k]) => [k, new Uint8Array([1, 2, 3])] as [string, Uint8Array]), deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const again = await start({ command: 'mcp', dir, save });
    expect(again.started).toBe(`imported 1 file from ${dir}; saving to ${save} (what it held is kept aside)`);
    await again.close();
    const third = await start({ command: 'mcp', save });
    expect(await third.target.readText('/a.txt')).toBe('A\n');
    expect(await third.target.exists('/old.txt')).toBe(false);
    await third.close();
  });
});
