// The real `agentvfs` bin from the packed tarball, installed into an empty project with the
// MCP SDK beside it, spawned by the SDK's StdioClientTransport with `npx agentvfs mcp …` as a user's
// MCP client config would: the directory it serves, the save file after a change and after exit,
// and a restart from that file. Needs `npm run build` first.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { createFileStore, readWorkspaceFile } from '../../src/persist/node/index.ts';
import { openPersistent } from '../../src/persist/index.ts';

const root = join(import.meta.dirname, '../..');
let work = '';
let consumer = '';
let bare = '';

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function project(name: string, tarball: string, ...more: string[]): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  // The SDK may need the registry: npm ci caches its tarballs but not the metadata a fresh resolution reads.
  npm(['install', '--no-audit', '--no-fund', more.length ? '--prefer-offline' : '--offline', tarball, ...more], dir);
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'agentvfs-mcp-bin-'));
  const [packed] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root)) as Array<{ filename: string }>;
  const tarball = join(work, packed!.filename);
  consumer = project('consumer', tarball, '@modelcontextprotocol/sdk@1.32.2');
  bare = project('bare', tarball);
}, 180_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Starts `npx agentvfs mcp ...args` in the consumer project and connects the SDK's client to it. */
async function start(...args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: 'npx', args: ['--offline', 'agentvfs', 'mcp', ...args], cwd: consumer, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text;

/** What a save file (a workspace log) or a snapshot file holds, restored into a fresh backend. */
async function restored(file: string) {
  const backend = createStateBackend();
  await backend.restore(readWorkspaceFile(file)!);
  return backend;
}

describe('npx agentvfs mcp (the packed bin over stdio)', () => {
  it('serves a directory, saves each change before answering (only what it changed), and starts again from the save', async () => {
    const dir = join(work, 'project');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/app.ts'), 'export const greeting = "hello";\n');
    writeFileSync(join(dir, 'logo.bin'), new Uint8Array([0, 1, 2, 255]));
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(1_000_000)); // a save that rewrote everything would add a megabyte
    const saves = join(work, 'saves');
    mkdirSync(saves);
    const save = join(saves, 'ws.snap');

    const first = await start('--dir', dir, '--save', save);
    expect(
      text(await first.client.callTool({ name: 'glob', arguments: { pattern: '**/*' } }))
        .split('\n')
        .sort(),
    ).toEqual(['/big.txt', '/logo.bin', '/src/app.ts']);
    expect(text(await first.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } }))).toBe('     1\texport const greeting = "hello";');
    const sizeBefore = readFileSync(save).length;
    const edit = await first.client.callTool({ name: 'edit_file', arguments: { path: '/src/app.ts', old_string: 'hello', new_string: 'hi' } });
    expect(edit.isError).toBe(false);
    // Saved before the result came back, and only what changed (the file and a few bytes of metadata).
    expect(await (await restored(save)).readText('/src/app.ts')).toBe('export const greeting = "hi";\n');
    expect(readFileSync(save).length - sizeBefore).toBeLessThan(1_000);
    const written = await first.client.callTool({ name: 'write_file', arguments: { path: '/notes/todo.md', content: 'ship\n' } });
    expect(text(written)).toBe('Created /notes/todo.md (1 line, 5 bytes).');
    expect(await (await restored(save)).readText('/notes/todo.md')).toBe('ship\n');
    await first.client.close(); // closes the bin's stdin: it exits
    expect(first.stderr()).toBe(`agentvfs mcp: imported 3 files from ${dir}; saving to ${save} (a new file)\n`);

    const saved = await restored(save);
    expect(await saved.readText('/notes/todo.md')).toBe('ship\n');
    expect([...(await saved.readFile('/logo.bin'))]).toEqual([0, 1, 2, 255]);
    expect(readdirSync(saves)).toEqual(['ws.snap']); // no temporary file left beside it
    expect(readFileSync(join(dir, 'src/app.ts'), 'utf8')).toBe('export const greeting = "hello";\n'); // the directory is never written

    // --snapshot starts from the file; --save resumes it, with --dir too (as an MCP client restarts
    // the server with the same command): what the agent did is kept, the directory not imported again.
    for (const [args, line] of [
      [['--snapshot', save], `restored ${save}`],
      [['--save', save], `restored ${save}`],
      [['--dir', dir, '--save', save], `restored ${save} (--dir ${dir} fills only a new save file: delete ${save} to start from it again)`],
    ] as const) {
      const again = await start(...args);
      expect(text(await again.client.callTool({ name: 'read_file', arguments: { path: '/notes/todo.md' } }))).toBe('     1\tship');
      expect(text(await again.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } }))).toBe('     1\texport const greeting = "hi";');
      await again.client.close();
      expect(again.stderr()).toBe(`agentvfs mcp: ${line}\n`);
    }
    // An empty file counts as new: the directory fills it.
    writeFileSync(save, '');
    const fresh = await start('--dir', dir, '--save', save);
    expect(text(await fresh.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } }))).toBe('     1\texport const greeting = "hello";');
    await fresh.client.close();
    expect(fresh.stderr()).toBe(`agentvfs mcp: imported 3 files from ${dir}; saving to ${save} (a new file)\n`);
    // A save file holding a damaged record is kept aside, as openPersistent does, and the directory fills the workspace.
    const store = createFileStore(save);
    await store.readAll();
    await store.write({ puts: [['f:/bad', new Uint8Array([1, 2])]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const recovered = await start('--dir', dir, '--save', save);
    expect(text(await recovered.client.callTool({ name: 'read_file', arguments: { path: '/src/app.ts' } }))).toBe('     1\texport const greeting = "hello";');
    await recovered.client.close();
    expect(recovered.stderr()).toMatch(
      new RegExp(`kept aside.*\\n.*imported 3 files from ${dir}; saving to ${save} \\(what it held is kept aside\\)\\n$`, 's'),
    );
  }, 60_000);

  it('opens a snapshot file an earlier version saved with --save, and keeps it as a log from then on', async () => {
    const save = join(work, 'earlier.snap');
    writeFileSync(save, await createStateBackend({ files: { '/old.txt': 'from before\n' } }).snapshot());
    const first = await start('--save', save);
    expect(text(await first.client.callTool({ name: 'read_file', arguments: { path: '/old.txt' } }))).toBe('     1\tfrom before');
    await first.client.callTool({ name: 'write_file', arguments: { path: '/new.txt', content: 'after\n' } });
    await first.client.close();
    expect(readFileSync(save).subarray(0, 8).toString('latin1')).toBe('AVFSLOG2');
    const saved = await restored(save);
    expect([await saved.readText('/old.txt'), await saved.readText('/new.txt')]).toEqual(['from before\n', 'after\n']);
  }, 60_000);

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'exits cleanly on %s with every change saved and its lock removed',
    async (signal) => {
      const save = join(work, `${signal}.snap`);
      // The installed bin itself (npx would stand between the signal and it).
      const transport = new StdioClientTransport({ command: join(consumer, 'node_modules/.bin/agentvfs'), args: ['mcp', '--save', save], stderr: 'pipe' });
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(transport);
      await client.callTool({ name: 'write_file', arguments: { path: '/a.txt', content: 'a\n' } });
      expect(existsSync(`${save}.lock`)).toBe(true);
      const exited = new Promise<void>((resolve) => (client.onclose = resolve));
      process.kill(transport.pid!, signal);
      await exited;
      expect(existsSync(`${save}.lock`)).toBe(false);
      expect(await (await restored(save)).readText('/a.txt')).toBe('a\n');
    },
    30_000,
  );

  it('refuses a bad command line with the usage and status 2, and a bad snapshot with status 1, leaving the file as it was', async () => {
    const run = (cwd: string, ...args: string[]) =>
      promisify(execFile)('npx', ['--offline', 'agentvfs', ...args], { cwd }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
    const version = await promisify(execFile)('npx', ['--offline', 'agentvfs', '--version'], { cwd: consumer });
    expect(version.stdout).toBe(`${JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version}\n`);

    const usage = await run(consumer, 'mcp', '--dri', 'x');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('agentvfs: unknown option "--dri" (did you mean --dir?).');
    expect(usage.stderr).toContain('Usage: agentvfs mcp [--dir PATH [--all] | --snapshot FILE] [--save FILE]');

    const junk = join(work, 'junk.snap');
    writeFileSync(junk, 'not a snapshot');
    const bad = await run(consumer, 'mcp', '--save', junk);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/cannot open .*junk\.snap: .*is not an agentvfs workspace log/);
    expect(readFileSync(junk, 'utf8')).toBe('not a snapshot');
    // A damaged snapshot (as an earlier version saved): refused, not migrated.
    const damaged = join(work, 'damaged.snap');
    const snapshot = await createStateBackend({ files: { '/a': 'a' } }).snapshot();
    snapshot[snapshot.length - 1]! ^= 0xff;
    writeFileSync(damaged, snapshot);
    const refused = await run(consumer, 'mcp', '--save', damaged);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/damaged\.snap is not a snapshot this agentvfs can restore: .*checksum mismatch/);
    expect(new Uint8Array(readFileSync(damaged))).toEqual(snapshot);

    // A --dir that does not exist is told, even when the save file it would fill already holds the workspace.
    const held = join(work, 'held.log');
    const opened = await openPersistent(createStateBackend(), createFileStore(held));
    await opened.backend.writeFile('/kept.txt', 'kept\n');
    await opened.backend.close();
    const typo = await run(consumer, 'mcp', '--dir', join(work, 'no-such-project'), '--save', held);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/^agentvfs: cannot import .*no-such-project/m);
    // ... and before a new save file is made, so the corrected command fills it.
    const fresh = join(work, 'fresh.log');
    expect((await run(consumer, 'mcp', '--dir', join(work, 'no-such-project'), '--save', fresh)).code).toBe(1);
    expect((await run(consumer, 'mcp', '--snapshot', fresh, '--save', fresh)).stderr).toMatch(/fresh\.log: no such file/);
    expect(existsSync(fresh)).toBe(false);

    const unwritable = await run(consumer, 'mcp', '--save', join(work, 'no-such-dir', 'ws.snap'));
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toMatch(/^agentvfs: cannot open .*no-such-dir\/ws\.snap: .*its directory .*no-such-dir does not exist/m);

    // Without the SDK installed, the bin says what to install.
    const missing = await run(bare, 'mcp');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('npm install @modelcontextprotocol/sdk');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1); // one line that says what to do, no stack
  }, 60_000);
});
