import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { importDirectory } from './import-dir.ts';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'agentvfs-import-'));
  made.push(root);
  mkdirSync(join(root, 'src/lib'), { recursive: true });
  mkdirSync(join(root, 'empty'));
  writeFileSync(join(root, 'README.md'), '# hi\n');
  writeFileSync(join(root, 'src/lib/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0x00, 0x10]));
  return root;
}

describe('importDirectory', () => {
  it('copies every file to the same path under /, binary bytes as they are, and keeps empty directories', async () => {
    const root = tree();
    const backend = createStateBackend();
    const lines: string[] = [];
    expect(await importDirectory(backend, root, (l) => lines.push(l))).toEqual({ files: 3, skipped: 0, leftOut: 0 });
    expect(lines).toEqual([]);
    expect(await backend.glob('**/*')).toEqual(expect.arrayContaining(['/README.md', '/src/lib/a.ts', '/logo.png']));
    expect(await backend.readText('/src/lib/a.ts')).toBe('export const a = 1;\n');
    expect([...(await backend.readFile('/logo.png'))]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 0xff, 0x00, 0x10]);
    expect((await backend.stat('/empty')).isDir).toBe(true);
  });

  it('leaves out .git/ and node_modules/ directories at any depth (files of those names are copied), unless asked for all', async () => {
    const root = tree();
    for (const dir of ['.git/objects', 'node_modules/pkg', 'src/node_modules/x']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, '.git/HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(root, 'node_modules/pkg/index.js'), 'x');
    writeFileSync(join(root, 'src/node_modules/x/y.js'), 'y');
    writeFileSync(join(root, 'src/.git'), 'gitdir: ../.git/modules/src\n'); // a submodule's .git file
    const backend = createStateBackend();
    expect(await importDirectory(backend, root, () => {})).toEqual({ files: 4, skipped: 0, leftOut: 3 });
    expect(await backend.exists('/node_modules')).toBe(false);
    expect(await backend.exists('/src/node_modules')).toBe(false);
    expect(await backend.exists('/.git')).toBe(false);
    expect(await backend.readText('/src/.git')).toBe('gitdir: ../.git/modules/src\n');
    const everything = createStateBackend();
    expect(await importDirectory(everything, root, () => {}, undefined, { all: true })).toEqual({ files: 7, skipped: 0, leftOut: 0 });
    expect(await everything.readText('/node_modules/pkg/index.js')).toBe('x');
  });

  it('gives each file and directory its host modification time through the backend clock', async () => {
    const root = tree();
    utimesSync(join(root, 'README.md'), new Date(1_000_000), new Date(Date.UTC(2020, 0, 1)));
    utimesSync(join(root, 'src/lib/a.ts'), new Date(1_000_000), new Date(Date.UTC(2024, 0, 1)));
    utimesSync(join(root, 'empty'), new Date(1_000_000), new Date(Date.UTC(2022, 0, 1)));
    let time: number | null = null;
    const backend = createStateBackend({ now: () => time ?? Date.now() });
    await importDirectory(
      backend,
      root,
      () => {},
      (ms) => {
        time = ms;
      },
    );
    expect((await backend.stat('/README.md')).mtimeMs).toBe(Date.UTC(2020, 0, 1));
    expect((await backend.stat('/src/lib/a.ts')).mtimeMs).toBe(Date.UTC(2024, 0, 1));
    expect((await backend.stat('/empty')).mtimeMs).toBe(Date.UTC(2022, 0, 1));
    // glob's newest-first order is the host's.
    expect((await backend.glob('**/*.{md,ts}')).slice(0, 2)).toEqual(['/src/lib/a.ts', '/README.md']);
  });

  it('follows links to files, skips links to directories, broken links and what cannot be stored, one line each', async () => {
    const root = tree();
    symlinkSync(join(root, 'README.md'), join(root, 'link.md'));
    symlinkSync(join(root, 'src'), join(root, 'src-link'));
    symlinkSync(join(root, 'nowhere'), join(root, 'broken'));
    writeFileSync(join(root, 'big.bin'), new Uint8Array(2048));
    writeFileSync(join(root, 'back\\slash.txt'), 'x');
    const backend = createStateBackend({ limits: { maxFileBytes: 1024 } });
    const lines: string[] = [];
    expect(await importDirectory(backend, root, (l) => lines.push(l))).toEqual({ files: 4, skipped: 4, leftOut: 0 });
    expect(await backend.readText('/link.md')).toBe('# hi\n');
    expect(await backend.exists('/src-link')).toBe(false);
    expect(await backend.exists('/big.bin')).toBe(false);
    expect(lines).toEqual([
      expect.stringMatching(/^skipped .*back\\slash\.txt: its name contains a backslash/),
      expect.stringMatching(/^skipped .*big\.bin: .*ETOOBIG|^skipped .*big\.bin: .*(limit|large)/i),
      `skipped ${join(root, 'broken')}: a broken symbolic link (to ${join(root, 'nowhere')}, which does not exist)`,
      expect.stringMatching(/^skipped .*src-link: a symbolic link to a directory or special file \(not followed\)$/),
    ]);
  });

  it('names a link that loops as such', async () => {
    const root = tree();
    symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
    symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
    const lines: string[] = [];
    expect(await importDirectory(createStateBackend(), root, (l) => lines.push(l))).toEqual({ files: 3, skipped: 2, leftOut: 0 });
    expect(lines).toEqual([
      `skipped ${join(root, 'loop-a')}: a symbolic link that loops (to ${join(root, 'loop-b')})`,
      `skipped ${join(root, 'loop-b')}: a symbolic link that loops (to ${join(root, 'loop-a')})`,
    ]);
  });

  it('skips a file whose bytes cannot be read, saying why, and copies the rest', async () => {
    const root = tree();
    // A link to a file that stat calls regular but that no one (not even root) can read from its start.
    symlinkSync('/proc/self/mem', join(root, 'unreadable'));
    const lines: string[] = [];
    expect(await importDirectory(createStateBackend(), root, (l) => lines.push(l))).toEqual({ files: 3, skipped: 1, leftOut: 0 });
    expect(lines).toEqual([expect.stringMatching(/^skipped .*unreadable: EIO: i\/o error, read$/)]);
  });

  it('skips what is not a regular file (a named pipe), without blocking on it', async () => {
    const root = tree();
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const lines: string[] = [];
    expect(await importDirectory(createStateBackend(), root, (l) => lines.push(l))).toEqual({ files: 3, skipped: 1, leftOut: 0 });
    expect(lines).toEqual([expect.stringMatching(/pipe: not a regular file \(a socket, pipe or device\)$/)]);
  });

  it('stops when the workspace is full instead of serving part of the directory', async () => {
    const root = tree();
    await expect(importDirectory(createStateBackend({ limits: { maxFiles: 2 } }), root, () => {})).rejects.toThrow(/EQUOTA|files/);
  });

  it('refuses a path that is not a directory', async () => {
    const root = tree();
    await expect(importDirectory(createStateBackend(), join(root, 'README.md'), () => {})).rejects.toThrow(/is not a directory/);
  });
});
