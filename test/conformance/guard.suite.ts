import { describe, expect, it } from 'vitest';
import { createTools, type ApprovalDecision, type ApprovalRequest, type DialectName, type ToolEvent, type ToolResult } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

function expectFailure(result: ToolResult, code: string): void {
  expect(result.isError, result.text).toBe(true);
  expect(result.code).toBe(code);
  expect(result.text.startsWith(`Error: ${code}: `), result.text).toBe(true);
  expect(result.changed).toEqual([]);
}

/** An approve() that records each request and answers from a list (or with `allow` once the list is used up). */
function recorder(...answers: ApprovalDecision[]) {
  const requests: ApprovalRequest[] = [];
  const approve = (request: ApprovalRequest): ApprovalDecision => {
    requests.push(request);
    return answers.shift() ?? { allow: true };
  };
  return { requests, approve };
}

/** A promise and the functions that settle it, to hold a question open for as long as a test needs. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves once `done()` holds (checked after each turn of the event loop): a question asked through a worker arrives later. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 0));
}

export function guardSuite(make: BackendFactory) {
  describe('permissions (SPEC §10)', () => {
    const files = { '/src/a.ts': 'export const a = 1;\n', '/src/lib/b.ts': 'export const b = 2;\n', '/secret/key.txt': 'hunter2 a\n', '/README.md': 'a\n' };

    it('a read outside permissions.read is EACCES naming the rule, for every reading tool', async () => {
      const tools = createTools(await make({ files }), { permissions: { read: ['/src/**'] } });
      for (const [name, args] of [
        ['read_file', { path: '/secret/key.txt' }],
        ['ls', { path: '/secret' }],
        ['grep', { pattern: 'a', path: '/secret' }],
        ['glob', { pattern: '*', path: '/secret' }],
      ] as const) {
        const result = await tools.run(name, args);
        expectFailure(result, 'EACCES');
        expect(result.text, name).toContain('permissions.read: "/src/**"');
        expect(result.text).not.toContain('hunter2');
      }
      expect((await tools.run('read_file', { path: '/src/a.ts' })).text).toBe('     1\texport const a = 1;');
    });

    it('a missing file suggests only readable files with its name', async () => {
      const tools = createTools(await make({ files: { ...files, '/src/lib/key.txt': 'k' } }), { permissions: { read: ['/src/**'] } });
      const result = await tools.run('read_file', { path: '/src/key.txt' });
      expectFailure(result, 'ENOENT');
      expect(result.text).toContain('Did you mean /src/lib/key.txt?');
      expect(result.text).not.toContain('/secret');
      // Also when a note follows the suggestions (a look-alike name), in any dialect; a readable
      // suggestion shown in quotes (a name ending in a space) is kept.
      const b = await make({ files: { '/pub/caf\u00e9.md': 'p', '/secret/caf\u00e9.md': 's', '/secret/q/caf\u00e9.md': 's', '/pub/notes.md ': 'n' } });
      for (const dialect of ['agentvfs', 'mcp-filesystem', 'gemini', 'anthropic'] as const) {
        const t = createTools(b, { dialect, permissions: { read: ['/pub/**'] } });
        const [tool, args] =
          dialect === 'mcp-filesystem'
            ? ['read_text_file', { path: '/pub/cafe\u0301.md' }]
            : dialect === 'gemini'
              ? ['read_file', { file_path: '/pub/cafe\u0301.md' }]
              : dialect === 'anthropic'
                ? ['str_replace_based_edit_tool', { command: 'view', path: '/pub/cafe\u0301.md' }]
                : ['read_file', { path: '/pub/cafe\u0301.md' }];
        const out = await t.run(tool, args);
        expect(out.code, dialect).toBe('ENOENT');
        expect(out.text, dialect).toContain('Did you mean /pub/caf\u00e9.md?');
        expect(out.text, dialect).not.toContain('/secret');
      }
      const spaced = await createTools(b, { permissions: { read: ['/pub/**'] } }).run('read_file', { path: '/pub/x/notes.md' });
      expect(spaced.text).toContain('Did you mean "/pub/notes.md "?');
    });

    it('ls, glob and grep show only readable paths', async () => {
      const tools = createTools(await make({ files }), { permissions: { read: ['/src/**', '/README.md'] } });
      expect(JSON.parse(await tools.call('ls', { path: '/' })).map((e: { path: string }) => e.path)).toEqual(['/src', '/README.md']);
      expect((await tools.call('glob', { pattern: '**/*' })).split('\n').sort()).toEqual(['/README.md', '/src/a.ts', '/src/lib/b.ts']);
      expect((await tools.call('grep', { pattern: 'a' })).split('\n').sort()).toEqual(['/README.md', '/src/a.ts']);
      expect(await tools.call('grep', { pattern: 'hunter2' })).toMatch(/^No matches/);
    });

    it('ls shows a directory only when a read glob reaches inside it; listing one it cannot is EACCES', async () => {
      const tools = createTools(await make({ files: { '/src/a.ts': 'a', '/src/private/key.pem': 'k', '/src/lib/x.ts': 'x' } }), {
        permissions: { read: ['/src/*.ts', '/src/lib/**'] },
      });
      expect(JSON.parse(await tools.call('ls', { path: '/src' })).map((e: { path: string }) => e.path)).toEqual(['/src/lib', '/src/a.ts']);
      expectFailure(await tools.run('ls', { path: '/src/private' }), 'EACCES');
      expectFailure(await tools.run('glob', { pattern: '**', path: '/src/private' }), 'EACCES');
    });

    it('every dialect lists a directory readable paths lie in, as ls does: the text editor views / too', async () => {
      const backend = await make({ files: { '/src/a.ts': 'a\n', '/secret/key.txt': 'k\n' } });
      const permissions = { read: ['/src/**'], write: ['/src/**'] };
      const editor = createTools(backend, { dialect: 'anthropic', permissions });
      expect(await editor.call('str_replace_based_edit_tool', { command: 'view', path: '/' })).toBe(
        "Here's the files and directories up to 2 levels deep in /, excluding hidden items:\n/\n/src\n/src/a.ts\n\n",
      );
      // A directory no read glob reaches into, and a file outside them, stay refused.
      expectFailure(await editor.run('str_replace_based_edit_tool', { command: 'view', path: '/secret' }), 'EACCES');
      expectFailure(await editor.run('str_replace_based_edit_tool', { command: 'view', path: '/secret/key.txt' }), 'EACCES');
      const guarded = createTools(backend, { permissions });
      expectFailure(await guarded.run('read_file', { path: '/secret/key.txt' }), 'EACCES');
    });

    it('a path the session may write but not read can be created by every dialect, apply_patch too; an existing one is not overwritten blind', async () => {
      const backend = await make({ files: { '/w/a.txt': 'old\n', '/r/x': '' } });
      const permissions = { read: ['/r/**'], write: ['/w/**'] };
      const patch = createTools(backend, { dialect: 'openai', permissions });
      const added = await patch.run('apply_patch', { input: '*** Begin Patch\n*** Add File: w/sub/new.txt\n+m\n*** End Patch' });
      expect(added.isError, added.text).toBe(false);
      expect(await backend.readText('/w/sub/new.txt')).toBe('m\n');
      expectFailure(await patch.run('apply_patch', { input: '*** Begin Patch\n*** Add File: w/a.txt\n+m\n*** End Patch' }), 'EACCES');
      // Every tool that replaces a file: EACCES naming the read rule, not "read it first", which the rule forbids.
      const replacing: Array<[DialectName, string, Record<string, unknown>]> = [
        ['agentvfs', 'write_file', { path: '/w/a.txt', content: 'm' }],
        ['agentvfs', 'edit_file', { path: '/w/a.txt', old_string: 'old', new_string: 'm' }],
        ['gemini', 'write_file', { file_path: '/w/a.txt', content: 'm' }],
        ['mcp-filesystem', 'write_file', { path: '/w/a.txt', content: 'm' }],
      ];
      for (const [dialect, tool, args] of replacing) {
        const result = await createTools(backend, { dialect, permissions }).run(tool, args);
        expectFailure(result, 'EACCES');
        expect(result.text, `${dialect} ${tool}`).toMatch(
          /^Error: EACCES: \/w\/a\.txt is outside the paths this tool set may read \(permissions\.read: "\/r\/\*\*"\)\. \w+ (replaces|changes) only a file this (tool set|session) (may read|has read)/,
        );
        expect(result.text).not.toContain('Read it');
      }
      expect(await backend.readText('/w/a.txt')).toBe('old\n');
    });

    it('a refusal never tells whether an unreadable file exists, even where readable paths lie', async () => {
      const backend = await make({ files: { '/src/app/index.ts': 'x\n', '/src/secret.env': 'K=1\n' } });
      const permissions = { read: ['/src/*/index.ts'], write: ['/out/**'] };
      for (const dialect of ['anthropic', 'mcp-filesystem'] as const) {
        const tools = createTools(backend, { dialect, permissions });
        const look = (path: string) =>
          dialect === 'anthropic' ? tools.run('str_replace_based_edit_tool', { command: 'view', path }) : tools.run('get_file_info', { path });
        const there = await look('/src/secret.env');
        const absent = await look('/src/nothere.env');
        expectFailure(there, 'EACCES');
        expectFailure(absent, 'EACCES');
        expect(absent.text.replace('nothere', 'secret')).toBe(there.text);
        expect((await look('/src/app')).isError, dialect).toBe(false);
      }
    });

    it('a path at or under an unreadable file answers as a missing path does, in every tool that lists, searches or reads', async () => {
      const backend = await make({ files: { '/src/app/a.ts': 'a\n', '/src/.env': 'K=1\n', '/src/db.sqlite': 'SQL\u0000' } });
      const permissions = { read: ['/src/**/*.ts'], write: ['/src/app/**'] };
      const calls: Array<[dialect: 'agentvfs' | 'gemini' | 'mcp-filesystem', tool: string, args: (path: string) => Record<string, unknown>]> = [
        ['agentvfs', 'read_file', (p) => ({ path: `${p}/a.ts` })],
        ['agentvfs', 'ls', (p) => ({ path: p })],
        ['agentvfs', 'glob', (p) => ({ pattern: '**/*.ts', path: p })],
        ['agentvfs', 'grep', (p) => ({ pattern: 'K', path: p })],
        ['gemini', 'list_directory', (p) => ({ dir_path: p })],
        ['gemini', 'grep_search', (p) => ({ pattern: 'K', dir_path: p })],
        ['mcp-filesystem', 'directory_tree', (p) => ({ path: p })],
        ['mcp-filesystem', 'search_files', (p) => ({ path: p, pattern: '*.ts' })],
      ];
      for (const [dialect, tool, args] of calls) {
        const tools = createTools(backend, { dialect, permissions });
        for (const file of ['/src/.env', '/src/db.sqlite']) {
          const missing = file.replace('/src/', '/src/no');
          const there = await tools.run(tool, args(file));
          const absent = await tools.run(tool, args(missing));
          expect(there.text.replaceAll(file, missing), `${dialect} ${tool} ${file}`).toBe(absent.text);
          expect(there.code, `${dialect} ${tool} ${file}`).toBe(absent.code);
        }
      }
    });

    it('what a missing path would be suggested, less what may not be read, whether the path lies under an unreadable file or nowhere', async () => {
      const cases: Array<[Record<string, string>, string[], string]> = [
        [{ '/src/secret.env': 's', '/src/a/b/x.ts': 'x', '/src/c/d/x.ts': 'x', '/src/e/f/x.ts': 'x', '/lib/x.ts': 'x' }, ['/src/*/*.ts', '/lib/**'], 'x.ts'],
        [{ '/src/secret.env': 's', '/docs/guide/a.md': 'a' }, ['/**/*.ts', '/**/guide/**'], 'guide'],
      ];
      for (const [files, read, name] of cases) {
        const backend = await make({ files });
        for (const dialect of ['agentvfs', 'gemini'] as const) {
          const tools = createTools(backend, { dialect, permissions: { read } });
          const look = (dir: string) =>
            dialect === 'gemini' ? tools.run('read_file', { file_path: `${dir}/${name}` }) : tools.run('read_file', { path: `${dir}/${name}` });
          const there = await look('/src/secret.env');
          const absent = await look('/src/nothere.env');
          expect(there.text.replace('/src/secret.env', '/src/nothere.env'), `${dialect} ${name}`).toBe(absent.text);
        }
      }
    });

    it('what ignore rules left out is counted only where the tool set may read, so respect_git_ignore: false adds exactly that', async () => {
      const tools = createTools(
        await make({
          files: { '/src/a.ts': 'hit', '/src/node_modules/z.ts': 'hit', '/node_modules/x.js': 'hit', '/.git/HEAD': 'hit', '/secret/node_modules/y.js': 'hit' },
        }),
        { permissions: { read: ['/src/**'] } },
      );
      const glob = await tools.call('glob', { pattern: '**' });
      expect(glob).toMatch(/^\/src\/a\.ts\n\.\.\. \[1 more matching file is ignored/);
      expect((await tools.call('glob', { pattern: '**', respect_git_ignore: false })).split('\n').sort()).toEqual(['/src/a.ts', '/src/node_modules/z.ts']);
      expect(await tools.call('grep', { pattern: 'hit' })).toMatch(/^\/src\/a\.ts\n.*\b1 file\b/);
      expect(await tools.call('grep', { pattern: 'nothing' })).toMatch(/\b1 file in scope\b/);
      expect(await tools.call('ls', { path: '/' })).toMatch(/^\[\{"name":"src".*\]$/s); // /node_modules and /.git hold nothing it may read: no note
      expect(await tools.call('ls', { path: '/src' })).toMatch(/\[1 entry ignored/);
    });

    it('a write outside permissions.write is EACCES before anything is written or asked', async () => {
      const backend = await make({ files });
      const { requests, approve } = recorder();
      const tools = createTools(backend, { permissions: { write: ['/src/**'] }, approve });
      await tools.run('read_file', { path: '/README.md' });
      const write = await tools.run('write_file', { path: '/README.md', content: 'b\n' });
      expectFailure(write, 'EACCES');
      expect(write.text).toContain('permissions.write: "/src/**"');
      expectFailure(await tools.run('edit_file', { path: '/README.md', old_string: 'a', new_string: 'b' }), 'EACCES');
      expectFailure(await tools.run('write_file', { path: '/new.txt', content: 'x' }), 'EACCES');
      expect(requests).toEqual([]);
      expect(await backend.readText('/README.md')).toBe('a\n');
      expect(await backend.exists('/new.txt')).toBe(false);
      expect((await tools.run('write_file', { path: '/src/c.ts', content: 'c\n' })).isError).toBe(false);
    });

    it('a write to a readable file outside permissions.write is EACCES before it is read, not ENOTREAD (reading it would not let it through)', async () => {
      const backend = await make({ files: { '/src/a.ts': 'a\n', '/out/o.txt': 'o\n' } });
      const permissions = { read: ['/**'], write: ['/out/**'] };
      const calls: Array<[DialectName, string, Record<string, unknown>]> = [
        ['agentvfs', 'write_file', { path: '/src/a.ts', content: 'x' }],
        ['agentvfs', 'edit_file', { path: '/src/a.ts', old_string: 'a', new_string: 'b' }],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'str_replace', path: '/src/a.ts', old_str: 'a', new_str: 'b' }],
        ['gemini', 'replace', { file_path: '/src/a.ts', old_string: 'a', new_string: 'b' }],
        ['mcp-filesystem', 'edit_file', { path: '/src/a.ts', edits: [{ oldText: 'a', newText: 'b' }] }],
      ];
      for (const [dialect, tool, args] of calls) {
        const result = await createTools(backend, { dialect, permissions }).run(tool, args);
        expectFailure(result, 'EACCES');
        expect(result.text, `${dialect} ${tool}`).toBe(
          'Error: EACCES: /src/a.ts is outside the paths this tool set may write (permissions.write: "/out/**"). Nothing was written. Use a path that matches one of them.',
        );
      }
      expect(await backend.readText('/src/a.ts')).toBe('a\n');
      // Reading it stays allowed, and a write where it may write still needs the read.
      const tools = createTools(backend, { permissions });
      expect((await tools.run('read_file', { path: '/src/a.ts' })).isError).toBe(false);
      expectFailure(await tools.run('edit_file', { path: '/out/o.txt', old_string: 'o', new_string: 'p' }), 'ENOTREAD');
    });

    it('a write to a path outside both lists names the write rule in every dialect, so the model is not sent to a readable path it may not write', async () => {
      const backend = await make({ files: { '/src/a.ts': 'a\n', '/out/o.txt': 'o\n' } });
      const permissions = { read: ['/src/**'], write: ['/out/**'] };
      const calls: Array<[DialectName, string, Record<string, unknown>]> = [
        ['agentvfs', 'write_file', { path: '/tmp/x.txt', content: 'x' }],
        ['agentvfs', 'edit_file', { path: '/tmp/x.txt', old_string: 'a', new_string: 'b' }],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'create', path: '/tmp/x.txt', file_text: 'x' }],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'str_replace', path: '/tmp/x.txt', old_str: 'a', new_str: 'b' }],
        ['openai', 'apply_patch', { input: '*** Begin Patch\n*** Add File: tmp/x.txt\n+x\n*** End Patch' }],
        ['gemini', 'write_file', { file_path: '/tmp/x.txt', content: 'x' }],
        ['mcp-filesystem', 'write_file', { path: '/tmp/x.txt', content: 'x' }],
        ['mcp-filesystem', 'edit_file', { path: '/tmp/x.txt', edits: [{ oldText: 'a', newText: 'b' }] }],
      ];
      for (const [dialect, tool, args] of calls) {
        const result = await createTools(backend, { dialect, permissions }).run(tool, args);
        expectFailure(result, 'EACCES');
        expect(result.text, `${dialect} ${tool}`).toContain('may write (permissions.write: "/out/**")');
      }
      // A read is still refused by the read rule, a preview (dryRun) writes nothing and is a read.
      const view = await createTools(backend, { dialect: 'anthropic', permissions }).run('str_replace_based_edit_tool', {
        command: 'view',
        path: '/tmp/x.txt',
      });
      expect(view.text).toContain('may read (permissions.read: "/src/**")');
      const preview = await createTools(backend, { dialect: 'mcp-filesystem', permissions }).run('edit_file', {
        path: '/tmp/x.txt',
        edits: [{ oldText: 'a', newText: 'b' }],
        dryRun: true,
      });
      expect(preview.text).toContain('may read (permissions.read: "/src/**")');
      expect(await backend.exists('/tmp/x.txt')).toBe(false);
    });

    it('bad permissions are refused when the tool set is made', async () => {
      const backend = await make();
      expect(() => createTools(backend, { permissions: { read: ['src/**'] } })).toThrow(/absolute paths/);
      expect(() => createTools(backend, { approve: 'yes' as never })).toThrow(/approve must be a function/);
    });
  });

  describe('approve (SPEC §10)', () => {
    it('asks before a write with the exact unified diff; allow writes it', async () => {
      const backend = await make({ files: { '/a.txt': 'one\ntwo\nthree\n' } });
      const { requests, approve } = recorder({ allow: true });
      const tools = createTools(backend, { approve });
      await tools.run('read_file', { path: '/a.txt' });
      const result = await tools.run('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' });
      expect(result.isError, result.text).toBe(false);
      expect(requests).toEqual([
        {
          tool: 'edit_file',
          args: { path: '/a.txt', old_string: 'two', new_string: 'TWO', replace_all: false },
          path: '/a.txt',
          diff: 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three',
          created: false,
          action: 'write',
          content: 'one\nTWO\nthree\n',
        },
      ]);
      expect(await backend.readText('/a.txt')).toBe('one\nTWO\nthree\n');
    });

    it('an edit of a file with a BOM, which it keeps: the diff shows the edit alone, in every dialect that edits text', async () => {
      const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('one\ntwo\n')]);
      for (const [dialect, read, edit] of [
        ['agentvfs', ['read_file', { path: '/b.txt' }], ['edit_file', { path: '/b.txt', old_string: 'two', new_string: 'TWO' }]],
        [
          'anthropic',
          ['str_replace_based_edit_tool', { command: 'view', path: '/b.txt' }],
          ['str_replace_based_edit_tool', { command: 'str_replace', path: '/b.txt', old_str: 'two', new_str: 'TWO' }],
        ],
        ['gemini', ['read_file', { absolute_path: '/b.txt' }], ['replace', { file_path: '/b.txt', old_string: 'two', new_string: 'TWO' }]],
        ['mcp-filesystem', ['read_text_file', { path: '/b.txt' }], ['edit_file', { path: '/b.txt', edits: [{ oldText: 'two', newText: 'TWO' }] }]],
      ] as const) {
        const backend = await make();
        await backend.writeFile('/b.txt', withBom);
        const { requests, approve } = recorder({ allow: true });
        const tools = createTools(backend, { dialect, approve });
        await tools.run(read[0], read[1]);
        expect((await tools.run(edit[0], edit[1])).isError, dialect).toBe(false);
        expect(
          requests.map((r) => r.diff),
          dialect,
        ).toEqual(['diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n \uFEFFone\n-two\n+TWO']);
        expect([...(await backend.readFile('/b.txt'))].slice(0, 3), dialect).toEqual([0xef, 0xbb, 0xbf]);
      }
    });

    it("every tool offers the proposed text to edit, and a person's content keeps the file's BOM in every tool", async () => {
      // The editor's insert, mcp-filesystem edit_file and apply_patch write bytes (to keep the BOM): their question offers the text too.
      for (const [dialect, tool, args] of [
        ['agentvfs', 'edit_file', { path: '/m/f.txt', old_string: 'two', new_string: 'TWO' }],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'insert', path: '/m/f.txt', insert_line: 1, new_str: 'ins' }],
        ['anthropic', 'memory', { command: 'insert', path: '/memories/f.txt', insert_line: 1, insert_text: 'ins' }],
        ['mcp-filesystem', 'edit_file', { path: '/m/f.txt', edits: [{ oldText: 'two', newText: 'TWO' }] }],
        ['openai', 'apply_patch', { input: '*** Begin Patch\n*** Update File: m/f.txt\n@@\n one\n-two\n+TWO\n*** End Patch' }],
      ] as const) {
        const path = tool === 'memory' ? '/memories/f.txt' : '/m/f.txt';
        const backend = await make();
        await backend.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('one\ntwo\n')]));
        const { requests, approve } = recorder({ allow: true, content: 'person\n' });
        const tools = createTools(backend, { dialect, approve });
        if (dialect === 'agentvfs') await tools.run('read_file', { path });
        expect((await tools.run(tool, args)).isError, tool).toBe(false);
        expect(requests[0]!.content, tool).toMatch(/^one\n(TWO|ins\ntwo)\n$/);
        expect([...(await backend.readFile(path))], tool).toEqual([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('person\n')]);
      }
    });

    it('a new file: created, and its whole content as + lines', async () => {
      const backend = await make();
      const { requests, approve } = recorder();
      const tools = createTools(backend, { approve });
      await tools.run('write_file', { path: 'd/n.txt', content: 'x\ny' });
      expect(requests[0]).toMatchObject({
        tool: 'write_file',
        path: '/d/n.txt',
        created: true,
        diff: 'diff --git a/d/n.txt b/d/n.txt\nnew file mode 100644\n--- /dev/null\n+++ b/d/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file',
      });
      expect(await backend.readText('/d/n.txt')).toBe('x\ny');
    });

    it('allow always: later writes of this tool set are not asked; another tool set still asks', async () => {
      const backend = await make();
      const { requests, approve } = recorder({ allow: true, always: true });
      const events: ToolEvent[] = [];
      const tools = createTools(backend, { approve, onEvent: (e) => events.push(e) });
      await tools.run('write_file', { path: '/1', content: '1' });
      await tools.run('write_file', { path: '/2', content: '2' });
      expect(requests.map((r) => r.path)).toEqual(['/1']);
      expect(events.map((e) => e.decision)).toEqual(['always', 'always']);
      await createTools(backend, { approve }).run('write_file', { path: '/3', content: '3' });
      expect(requests.map((r) => r.path)).toEqual(['/1', '/3']);
    });

    it('allow with content: the person’s content is written, the model is told, and must read it before editing', async () => {
      const backend = await make({ files: { '/a.txt': 'old\n' } });
      const { approve } = recorder({ allow: true, content: 'mine\nand more\n' });
      const tools = createTools(backend, { approve });
      await tools.run('read_file', { path: '/a.txt' });
      const result = await tools.run('write_file', { path: '/a.txt', content: 'theirs\n' });
      expect(result.isError).toBe(false);
      expect(result.text).toContain('the user changed the content before it was written: /a.txt now holds their version (2 lines)');
      expect(result.changed).toEqual([{ path: '/a.txt', version: (await backend.stat('/a.txt')).version }]);
      expect(await backend.readText('/a.txt')).toBe('mine\nand more\n');
      expectFailure(await tools.run('edit_file', { path: '/a.txt', old_string: 'mine', new_string: 'x' }), 'ENOTREAD');
      await tools.run('read_file', { path: '/a.txt' });
      expect((await tools.run('edit_file', { path: '/a.txt', old_string: 'mine', new_string: 'x' })).isError).toBe(false);
    });

    it('allow with content: tools that need no read refuse the file until it is read, and Gemini shows what was written', async () => {
      const backend = await make({ files: { '/a.txt': 'one\ntwo\n' } });
      const person = 'one\nTWO (user)\nthree (user)\n';
      const once = () => {
        let asked = false;
        return async () => {
          const first = !asked;
          asked = true;
          return first ? { allow: true as const, content: person } : { allow: true as const };
        };
      };
      const reset = () => backend.writeFile('/a.txt', 'one\ntwo\n');
      const cases = [
        {
          dialect: 'anthropic',
          edit: ['str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'two', new_str: '2' }],
          again: ['str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'one', new_str: 'uno' }],
          read: ['str_replace_based_edit_tool', { command: 'view', path: '/a.txt' }],
        },
        {
          dialect: 'gemini',
          edit: ['write_file', { file_path: '/a.txt', content: 'model line\n' }],
          again: ['replace', { file_path: '/a.txt', old_string: 'one', new_string: 'uno' }],
          read: ['read_file', { file_path: '/a.txt' }],
        },
        {
          dialect: 'mcp-filesystem',
          edit: ['edit_file', { path: '/a.txt', edits: [{ oldText: 'two', newText: '2' }] }],
          again: ['write_file', { path: '/a.txt', content: 'uno\n' }],
          read: ['read_text_file', { path: '/a.txt' }],
        },
      ] as const;
      for (const c of cases) {
        await reset();
        const tools = createTools(backend, { dialect: c.dialect, approve: once() });
        const done = await tools.run(c.edit[0], c.edit[1]);
        expect(done.isError, `${c.dialect}: ${done.text}`).toBe(false);
        expect(await backend.readText('/a.txt')).toBe(person);
        if (c.dialect === 'gemini') expect(done.text).toMatch(/Here is the updated code:\none\nTWO \(user\)\nthree \(user\)\n/);
        const refused = await tools.run(c.again[0], c.again[1]);
        expectFailure(refused, 'ESTALE');
        expect(refused.text, c.dialect).toMatch(/holds the content the user gave when approving your last change to it, which you have not read/);
        expect(await backend.readText('/a.txt')).toBe(person);
        await tools.run(c.read[0], c.read[1]);
        const after = await tools.run(c.again[0], c.again[1]);
        expect(after.isError, `${c.dialect}: ${after.text}`).toBe(false);
      }
      // apply_patch has no read: its refusal shows the content and counts as the read.
      await reset();
      const patch = createTools(backend, { dialect: 'openai', approve: once() });
      const wrap = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;
      expect((await patch.run('apply_patch', { input: wrap('*** Update File: a.txt\n@@\n-two\n+2') })).isError).toBe(false);
      const refused = await patch.run('apply_patch', { input: wrap('*** Update File: a.txt\n@@\n-one\n+uno') });
      expectFailure(refused, 'ESTALE');
      expect(refused.text).toContain(`It now reads:\n${person}(end of /a.txt)`);
      expect((await patch.run('apply_patch', { input: wrap('*** Update File: a.txt\n@@\n-one\n+uno') })).isError).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('uno\nTWO (user)\nthree (user)\n');
    });

    it('a file a person rewrote stays unread where the session moves it, and its path is free once it is gone', async () => {
      const backend = await make({ files: { '/x.txt': 'one\n', '/a.txt': 'a\n' } });
      let asked = false;
      const approve = async () => {
        const first = !asked;
        asked = true;
        return first ? { allow: true as const, content: 'person\n' } : { allow: true as const };
      };
      const tools = createTools(backend, { dialect: 'mcp-filesystem', approve });
      expect((await tools.run('write_file', { path: '/x.txt', content: 'model\n' })).isError).toBe(false);
      expect(await backend.readText('/x.txt')).toBe('person\n');
      expect((await tools.run('move_file', { source: '/x.txt', destination: '/y.txt' })).isError).toBe(false);
      expectFailure(await tools.run('edit_file', { path: '/y.txt', edits: [{ oldText: 'person', newText: 'p' }] }), 'ESTALE');
      // Once read it may be edited, moved back, and edited there: the marker went with the file.
      await tools.run('read_text_file', { path: '/y.txt' });
      expect((await tools.run('move_file', { source: '/y.txt', destination: '/z.txt' })).isError).toBe(false);
      expect((await tools.run('move_file', { source: '/z.txt', destination: '/y.txt' })).isError).toBe(false);
      expect((await tools.run('edit_file', { path: '/y.txt', edits: [{ oldText: 'person', newText: 'p' }] })).isError).toBe(false);
      expect(await backend.readText('/y.txt')).toBe('p\n');
      // The old path holds nothing now: a new file may be written there.
      expect((await tools.run('write_file', { path: '/x.txt', content: 'new\n' })).isError).toBe(false);
      // A file gone (removed by someone else) is no longer refused as unread: writing creates it.
      await backend.remove('/y.txt');
      expectFailure(await tools.run('edit_file', { path: '/y.txt', edits: [{ oldText: 'p', newText: 'b' }] }), 'ENOENT');
      expect((await tools.run('write_file', { path: '/y.txt', content: 'again\n' })).isError).toBe(false);
      expect(await backend.readText('/y.txt')).toBe('again\n');
    });

    it('a file changed by someone else since the session read it is still stale where the session moves it, and memory delete refuses it', async () => {
      const backend = await make({ files: { '/a.txt': 'mine\n', '/memories/m.txt': 'note\n' } });
      const tools = createTools(backend, { dialect: 'mcp-filesystem' });
      await tools.run('read_text_file', { path: '/a.txt' });
      await backend.writeFile('/a.txt', 'OUTSIDER WORK\n');
      expect((await tools.run('move_file', { source: '/a.txt', destination: '/b.txt' })).isError).toBe(false);
      expectFailure(await tools.run('write_file', { path: '/b.txt', content: 'mine, rewritten\n' }), 'ESTALE');
      expect(await backend.readText('/b.txt')).toBe('OUTSIDER WORK\n');
      const memory = createTools(backend, { dialect: 'anthropic' });
      await memory.run('memory', { command: 'view', path: '/memories/m.txt' });
      await backend.writeFile('/memories/m.txt', 'OUTSIDER NOTE\n');
      expectFailure(await memory.run('memory', { command: 'delete', path: '/memories/m.txt' }), 'ESTALE');
      expect(await backend.readText('/memories/m.txt')).toBe('OUTSIDER NOTE\n');
      await memory.run('memory', { command: 'view', path: '/memories/m.txt' });
      expect((await memory.run('memory', { command: 'delete', path: '/memories/m.txt' })).isError).toBe(false);
      // A directory holding such a file too: nothing in it is removed.
      await backend.writeFile('/memories/d/seen.txt', 'seen\n');
      await backend.writeFile('/memories/d/other.txt', 'other\n');
      await memory.run('memory', { command: 'view', path: '/memories/d/seen.txt' });
      await backend.writeFile('/memories/d/seen.txt', 'OUTSIDER NOTE\n');
      expectFailure(await memory.run('memory', { command: 'delete', path: '/memories/d' }), 'ESTALE');
      expect(await backend.readText('/memories/d/seen.txt')).toBe('OUTSIDER NOTE\n');
      expect(await backend.readText('/memories/d/other.txt')).toBe('other\n');
      await memory.run('memory', { command: 'view', path: '/memories/d/seen.txt' });
      expect((await memory.run('memory', { command: 'delete', path: '/memories/d' })).isError).toBe(false);
      expect(await backend.exists('/memories/d')).toBe(false);
    });

    it('a moved file someone else changed stays stale for a write made beside the read at its new path', async () => {
      for (const dialect of ['mcp-filesystem', 'anthropic'] as const) {
        const backend = await make({ files: { '/memories/a.txt': 'one\n' } });
        const tools = createTools(backend, { dialect });
        const read = (path: string) => (dialect === 'mcp-filesystem' ? tools.run('read_text_file', { path }) : tools.run('memory', { command: 'view', path }));
        await read('/memories/a.txt');
        await backend.writeFile('/memories/a.txt', 'one\noutside\n');
        const moved =
          dialect === 'mcp-filesystem'
            ? await tools.run('move_file', { source: '/memories/a.txt', destination: '/memories/b.txt' })
            : await tools.run('memory', { command: 'rename', old_path: '/memories/a.txt', new_path: '/memories/b.txt' });
        expect(moved.isError, moved.text).toBe(false);
        const write = () =>
          dialect === 'mcp-filesystem'
            ? tools.run('write_file', { path: '/memories/b.txt', content: 'mine\n' })
            : tools.run('memory', { command: 'str_replace', path: '/memories/b.txt', old_str: 'one', new_str: 'uno' });
        const [, refused] = await Promise.all([read('/memories/b.txt'), write()]);
        expectFailure(refused, 'ESTALE');
        expect(await backend.readText('/memories/b.txt'), dialect).toBe('one\noutside\n');
        expect((await write()).isError, dialect).toBe(false);
      }
    });

    it('allow with content on an edit: written instead, the result says so', async () => {
      const backend = await make({ files: { '/a.txt': 'a\nb\n' } });
      const { approve } = recorder({ allow: true, content: 'a\nB!\n' });
      const tools = createTools(backend, { approve });
      await tools.run('read_file', { path: '/a.txt' });
      const result = await tools.run('edit_file', { path: '/a.txt', old_string: 'b', new_string: 'B' });
      expect(result.text).toMatch(/^Edited \/a\.txt: 1 replacement\./);
      expect(result.text).toContain('/a.txt now holds their version');
      expect(await backend.readText('/a.txt')).toBe('a\nB!\n');
    });

    it("a read made beside a write in the turn after a person's content does not let the write over it, in any dialect", async () => {
      type Call = readonly [name: string, args: Record<string, unknown>];
      const editor = (args: Record<string, unknown>): Call => ['str_replace_based_edit_tool', { path: '/a.txt', ...args }];
      const cases: { dialect: 'agentvfs' | 'anthropic' | 'mcp-filesystem'; first: Call; write: Call; read: Call }[] = [
        {
          dialect: 'agentvfs',
          first: ['write_file', { path: '/a.txt', content: 'model\n' }],
          write: ['write_file', { path: '/a.txt', content: 'model again\n' }],
          read: ['read_file', { path: '/a.txt' }],
        },
        {
          dialect: 'agentvfs',
          first: ['write_file', { path: '/a.txt', content: 'model\n' }],
          write: ['edit_file', { path: '/a.txt', old_string: 'line', new_string: 'LINE' }],
          read: ['read_file', { path: '/a.txt' }],
        },
        {
          dialect: 'anthropic',
          first: editor({ command: 'str_replace', old_str: 'old', new_str: 'model' }),
          write: editor({ command: 'str_replace', old_str: 'line', new_str: 'LINE' }),
          read: editor({ command: 'view' }),
        },
        {
          dialect: 'mcp-filesystem',
          first: ['write_file', { path: '/a.txt', content: 'model\n' }],
          write: ['write_file', { path: '/a.txt', content: 'model again\n' }],
          read: ['read_text_file', { path: '/a.txt' }],
        },
      ];
      for (const { dialect, first, write, read } of cases) {
        const backend = await make({ files: { '/a.txt': 'old\n' } });
        const { approve } = recorder({ allow: true, content: 'person\nline\n' });
        const tools = createTools(backend, { dialect, approve });
        await tools.run(...read);
        expect((await tools.run(...first)).isError, dialect).toBe(false);
        expect(await backend.readText('/a.txt')).toBe('person\nline\n');
        const [, refused] = await Promise.all([tools.run(...read), tools.run(...write)]);
        expect(refused.isError, `${dialect} ${write[0]}: ${refused.text}`).toBe(true);
        expect(refused.text, dialect).toContain('before that one answered: what it saw does not count for this call');
        expect(await backend.readText('/a.txt'), `${dialect} ${write[0]}`).toBe('person\nline\n');
        // Made after that read answered: it lands.
        expect((await tools.run(...write)).isError, `${dialect} ${write[0]}`).toBe(false);
      }
    });

    it('allow always with content: the person’s content is written, and later writes of the tool set are not asked', async () => {
      const backend = await make();
      const { requests, approve } = recorder({ allow: true, always: true, content: 'person\n' });
      const events: ToolEvent[] = [];
      const tools = createTools(backend, { approve, onEvent: (e) => events.push(e) });
      expect((await tools.run('write_file', { path: '/1', content: 'model\n' })).text).toContain('the user changed the content before it was written');
      await tools.run('write_file', { path: '/2', content: '2' });
      expect(requests.map((r) => r.path)).toEqual(['/1']);
      expect(events.map((e) => e.decision)).toEqual(['edit', 'always']);
      expect([await backend.readText('/1'), await backend.readText('/2')]).toEqual(['person\n', '2']);
    });

    it('a write the limits refuse is not asked about: its refusal is the answer (too big, too many files)', async () => {
      const backend = await make({ limits: { maxFileBytes: 10, maxFiles: 3 }, files: { '/a': '1', '/b': '2' } });
      const { requests, approve } = recorder();
      const events: ToolEvent[] = [];
      for (const dialect of ['agentvfs', 'mcp-filesystem', 'gemini'] as const) {
        const tools = createTools(backend, { dialect, approve, onEvent: (e) => events.push(e) });
        expectFailure(await tools.run('write_file', { [dialect === 'gemini' ? 'file_path' : 'path']: '/big', content: 'x'.repeat(100) }), 'ETOOBIG');
      }
      const tools = createTools(backend, { approve, onEvent: (e) => events.push(e) });
      expect((await tools.run('write_file', { path: '/c', content: 'c' })).isError).toBe(false);
      expectFailure(await tools.run('write_file', { path: '/d', content: 'd' }), 'EQUOTA');
      expect(requests.map((r) => r.path)).toEqual(['/c']);
      expect(events.map((e) => e.decision)).toEqual([undefined, undefined, undefined, 'allow', undefined]);
      expect(await backend.exists('/d')).toBe(false);
    });

    it('a patch whose removal or move makes room is asked about, as the backend would take it; one over the limits as a whole is refused before any question', async () => {
      const big = `one\n${'x'.repeat(600)}\n`;
      const backend = await make({ limits: { maxTotalBytes: 1000, maxFiles: 2 }, files: { '/a.txt': big, '/c.txt': 'c\n' } });
      const { requests, approve } = recorder();
      const tools = createTools(backend, { dialect: 'openai', approve });
      await tools.run('read_file', { path: '/a.txt' });
      // A move at the file limit, of a file over half the total: it takes no more room than it had.
      const moved = await tools.run('apply_patch', { input: '*** Begin Patch\n*** Update File: /a.txt\n*** Move to: /b.txt\n@@\n-one\n+ONE\n*** End Patch' });
      expect(moved.isError, moved.text).toBe(false);
      expect(requests.map((r) => r.path)).toEqual(['/b.txt']);
      // A removal that makes room for a new file.
      const swapped = await tools.run('apply_patch', {
        input: `*** Begin Patch\n*** Delete File: /b.txt\n*** Add File: /n.txt\n+${'y'.repeat(600)}\n*** End Patch`,
      });
      expect(swapped.isError, swapped.text).toBe(false);
      expect(requests.map((r) => r.path)).toEqual(['/b.txt', '/b.txt', '/n.txt']);
      // Over the limits as a whole: the backend's refusal, before any question.
      const over = await tools.run('apply_patch', { input: '*** Begin Patch\n*** Update File: /c.txt\n@@\n-c\n+C\n*** Add File: /m.txt\n+m\n*** End Patch' });
      expectFailure(over, 'EQUOTA');
      expect(over.text).toContain('These 2 changes would exceed the limit of 2 files.');
      expect(requests).toHaveLength(3);
      expect(await backend.readText('/c.txt')).toBe('c\n');
    });

    it('a denial of one file of a multi-file patch says no file was changed (the others were allowed)', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n', '/b.txt': 'b\n' } });
      const { requests, approve } = recorder({ allow: true }, { allow: false, reason: 'no way' });
      const tools = createTools(backend, { dialect: 'openai', approve });
      const denied = await tools.run('apply_patch', {
        input: '*** Begin Patch\n*** Update File: /a.txt\n@@\n-a\n+A\n*** Update File: /b.txt\n@@\n-b\n+B\n*** End Patch',
      });
      expectFailure(denied, 'EDENIED');
      expect(denied.text).toBe(
        'Error: EDENIED: The user denied the write of /b.txt: "no way". No file was changed. Take the reason into account before trying again.',
      );
      expect(requests.map((r) => r.path)).toEqual(['/a.txt', '/b.txt']);
      expect([await backend.readText('/a.txt'), await backend.readText('/b.txt')]).toEqual(['a\n', 'b\n']);
    });

    it("a patch's move is one question at its new path, with where it comes from and its change; a person's content lands there", async () => {
      const backend = await make({ files: { '/a.txt': 'one\ntwo\n' } });
      const { requests, approve } = recorder({ allow: true, content: 'person\n' }, { allow: false });
      const tools = createTools(backend, { dialect: 'openai', approve });
      const patch = (to: string) => `*** Begin Patch\n*** Update File: /a.txt\n*** Move to: ${to}\n@@\n one\n-two\n+TWO\n*** End Patch`;
      const moved = await tools.run('apply_patch', { input: patch('/moved/b.txt') });
      expect(moved.isError, moved.text).toBe(false);
      expect(requests.map(({ path, from, action, created }) => ({ path, from, action, created }))).toEqual([
        { path: '/moved/b.txt', from: '/a.txt', action: 'write', created: true },
      ]);
      expect(requests[0]!.diff).toBe(
        'diff --git a/a.txt b/moved/b.txt\nrename from a.txt\nrename to moved/b.txt\n--- a/a.txt\n+++ b/moved/b.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO',
      );
      expect(requests[0]!.content).toBe('one\nTWO\n');
      expect([await backend.exists('/a.txt'), await backend.readText('/moved/b.txt')]).toEqual([false, 'person\n']);
      await backend.writeFile('/a.txt', 'one\ntwo\n');
      const denied = await tools.run('apply_patch', { input: patch('/c.txt') });
      expectFailure(denied, 'EDENIED');
      expect(denied.text).toBe(
        'Error: EDENIED: The user denied the move of /a.txt to /c.txt. No file was changed. Do not retry the same change; ask the user what they want instead.',
      );
      expect([await backend.readText('/a.txt'), await backend.exists('/c.txt')]).toEqual(['one\ntwo\n', false]);
    });

    it('deny: EDENIED with the reason, file unchanged; without a reason too', async () => {
      const backend = await make({ files: { '/a.txt': 'keep\n' } });
      const { approve } = recorder({ allow: false, reason: 'use tabs' }, { allow: false });
      const tools = createTools(backend, { approve });
      await tools.run('read_file', { path: '/a.txt' });
      const denied = await tools.run('edit_file', { path: '/a.txt', old_string: 'keep', new_string: 'drop' });
      expectFailure(denied, 'EDENIED');
      expect(denied.text).toContain('"use tabs"');
      expect(denied.text).toContain('unchanged');
      expectFailure(await tools.run('write_file', { path: '/b.txt', content: 'x' }), 'EDENIED');
      expect(await backend.readText('/a.txt')).toBe('keep\n');
      expect(await backend.exists('/b.txt')).toBe(false);
    });

    it('creating a directory and removing an empty one are asked too, each named on a line of its own', async () => {
      const backend = await make({ files: { '/memories/notes.md': 'n\n' } });
      await backend.mkdir('/memories/empty');
      const { approve, requests } = recorder({ allow: false }, { allow: true }, { allow: false });
      const mcp = createTools(backend, { dialect: 'mcp-filesystem', approve });
      const denied = await mcp.run('create_directory', { path: '/w/newdir' });
      expectFailure(denied, 'EDENIED');
      expect(denied.text).toBe(
        'Error: EDENIED: The user denied the creation of /w/newdir. Nothing was changed. Do not retry the same change; ask the user what they want instead.',
      );
      expect(await backend.exists('/w')).toBe(false);
      expect((await mcp.run('create_directory', { path: '/w/newdir' })).text).toBe('Successfully created directory /w/newdir');
      // An existing directory is no change: not asked.
      expect((await mcp.run('create_directory', { path: '/w/newdir' })).isError).toBe(false);
      const memory = createTools(backend, { dialect: 'anthropic', approve });
      const kept = await memory.run('memory', { command: 'delete', path: '/memories/empty' });
      expectFailure(kept, 'EDENIED');
      expect(kept.text).toContain('The user denied the removal of /memories/empty. Nothing was changed.');
      expect(await backend.exists('/memories/empty')).toBe(true);
      expect(requests.map((r) => [r.tool, r.path, r.diff, r.created, r.action, r.directory])).toEqual([
        ['create_directory', '/w/newdir', 'new directory /w/newdir', true, 'write', true],
        ['create_directory', '/w/newdir', 'new directory /w/newdir', true, 'write', true],
        ['memory', '/memories/empty', 'deleted directory /memories/empty', false, 'remove', true],
      ]);
    });

    it('a write of the content a file already holds changes nothing and is not asked about, in any tool; a patch asks only for the files it changes', async () => {
      const backend = await make({ files: { '/a.txt': 'one\ntwo\n', '/b.txt': 'b\n' } });
      const { approve, requests } = recorder();
      const tools = createTools(backend, { approve });
      await tools.run('read_file', { path: '/a.txt' });
      const same = await tools.run('write_file', { path: '/a.txt', content: 'one\ntwo\n' });
      expect(same.isError, same.text).toBe(false);
      const mcp = createTools(backend, { dialect: 'mcp-filesystem', approve });
      expect((await mcp.run('write_file', { path: '/b.txt', content: 'b\n' })).isError).toBe(false);
      expect(requests).toEqual([]);
      const patch = createTools(backend, { dialect: 'openai', approve });
      const result = await patch.run('apply_patch', {
        input: '*** Begin Patch\n*** Update File: /a.txt\n@@\n-one\n+one\n*** Update File: /b.txt\n@@\n-b\n+B\n*** End Patch',
      });
      expect(result.isError, result.text).toBe(false);
      expect(requests.map((r) => r.path)).toEqual(['/b.txt']);
      expect(await backend.readText('/b.txt')).toBe('B\n');
      // A change, however small, is asked about.
      await tools.run('read_file', { path: '/a.txt' });
      expect((await tools.run('write_file', { path: '/a.txt', content: 'one\ntwo' })).isError).toBe(false);
      expect(requests.map((r) => r.path)).toEqual(['/b.txt', '/a.txt']);
    });

    it('a content given for what has none (a directory, a removal, a rename) is EINVAL, audited as a denial; a cancelled directory question says so', async () => {
      const backend = await make({ files: { '/memories/notes.md': 'n\n', '/memories/old.md': 'o\n' } });
      await backend.mkdir('/memories/empty');
      const events: ToolEvent[] = [];
      const withContent = { approve: () => ({ allow: true as const, content: 'x' }), onEvent: (e: ToolEvent) => events.push(e) };
      const mcp = createTools(backend, { ...withContent, dialect: 'mcp-filesystem' });
      const memory = createTools(backend, { ...withContent, dialect: 'anthropic' });
      const made = await mcp.run('create_directory', { path: '/w' });
      expect(made.text).toBe(
        'Error: EINVAL: approve() answered the creation of the directory /w with a content; it can only be allowed or denied. Nothing was created.',
      );
      for (const [args, message] of [
        [{ command: 'delete', path: '/memories/empty' }, 'a removal of /memories/empty'],
        [{ command: 'delete', path: '/memories/notes.md' }, 'a removal of /memories/notes.md'],
        [{ command: 'rename', old_path: '/memories/old.md', new_path: '/memories/new.md' }, 'a rename of /memories/old.md'],
      ] as const) {
        expect((await memory.run('memory', args)).text).toContain(`Error: EINVAL: approve() answered ${message} with a content`);
      }
      expect(events.map((e) => [e.tool, e.code, e.decision])).toEqual([
        ['create_directory', 'EINVAL', 'deny'],
        ['memory', 'EINVAL', 'deny'],
        ['memory', 'EINVAL', 'deny'],
        ['memory', 'EINVAL', 'deny'],
      ]);
      expect((await backend.glob('**')).sort()).toEqual(['/memories/notes.md', '/memories/old.md']);
      expect(await backend.exists('/w')).toBe(false);
      expect(await backend.exists('/memories/empty')).toBe(true);
      // A call cancelled while its directory question is open: the question was about a directory.
      const asked: ApprovalRequest[] = [];
      const waiting = createTools(backend, { dialect: 'mcp-filesystem', approve: (r) => (asked.push(r), deferred<ApprovalDecision>().promise) });
      const controller = new AbortController();
      const pending = waiting.run('create_directory', { path: '/w' }, { signal: controller.signal });
      await until(() => asked.length === 1);
      controller.abort();
      expect((await pending).text).toBe('Error: ECANCELED: The call was cancelled while the creation of /w waited for approval. Nothing was changed.');
    });

    it('a directory that cannot be made (a file there or above) is refused without a question; a removal takes only directories it may write', async () => {
      const backend = await make({ files: { '/src/a.ts': 'a\n' } });
      await backend.mkdir('/memories/e/keep/deeper');
      const { approve, requests } = recorder();
      const mcp = createTools(backend, { dialect: 'mcp-filesystem', approve });
      expectFailure(await mcp.run('create_directory', { path: '/src/a.ts' }), 'EEXIST');
      expectFailure(await mcp.run('create_directory', { path: '/src/a.ts/sub' }), 'ENOTDIR');
      expect(requests).toEqual([]);
      const memory = createTools(backend, { dialect: 'anthropic', approve, permissions: { write: ['/memories/e'] } });
      const refused = await memory.run('memory', { command: 'delete', path: '/memories/e' });
      expectFailure(refused, 'EACCES');
      expect(refused.text).toContain('/memories/e holds paths outside those this tool set may write');
      expect(await backend.exists('/memories/e/keep/deeper')).toBe(true);
      const all = createTools(backend, { dialect: 'anthropic', approve });
      expect((await all.run('memory', { command: 'delete', path: '/memories/e' })).isError).toBe(false);
      expect(requests.map((r) => r.diff)).toEqual([
        'deleted directory /memories/e\ndeleted directory /memories/e/keep\ndeleted directory /memories/e/keep/deeper',
      ]);
    });

    it('an answer that is no decision, or a callback that throws, denies', async () => {
      const backend = await make();
      const odd = createTools(backend, { approve: () => ({ yes: 1 }) as never });
      expect((await odd.run('write_file', { path: '/x', content: 'x' })).text).toMatch(/^Error: EDENIED: .*none of/);
      // `always` that is no boolean is no decision either (a typo would otherwise allow).
      const vague = createTools(backend, { approve: () => ({ allow: true, always: 'yes' }) as never });
      expect((await vague.run('write_file', { path: '/x', content: 'x' })).text).toMatch(/^Error: EDENIED: .*none of/);
      const failing = createTools(backend, {
        approve: () => {
          throw new Error('dialog closed');
        },
      });
      expect((await failing.run('write_file', { path: '/x', content: 'x' })).text).toContain('dialog closed');
      const unreadable = createTools(backend, {
        approve: async () =>
          ({
            get allow(): boolean {
              throw new Error('answer unreadable');
            },
          }) as never,
      });
      const result = await unreadable.run('write_file', { path: '/x', content: 'x' });
      expectFailure(result, 'EDENIED');
      // An answer that is no decision and cannot even be shown still denies, saying so.
      const unshowable = createTools(backend, {
        approve: async () =>
          ({
            allow: 'yes',
            get toJSON(): never {
              throw new Error('no JSON');
            },
            get [Symbol.toStringTag](): never {
              throw new Error('no tag');
            },
          }) as never,
      });
      const unshown = await unshowable.run('write_file', { path: '/x', content: 'x' });
      expectFailure(unshown, 'EDENIED');
      // (Through a worker, the answer cannot be sent back: the step fails there, with the same outcome.)
      expect(result.text).toMatch(
        /^Error: EDENIED: The write of \/x could not be approved \(the approval step failed: (answer unreadable|Unserializable return value)\)\. The file is unchanged\.$/,
      );
      expect(await backend.exists('/x')).toBe(false);
    });

    it('a person’s content with half a character (a lone surrogate) is refused, never stored as U+FFFD, for an edit as for a write', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n' } });
      const tools = createTools(backend, { approve: async () => ({ allow: true, content: 'person \uD800 text\n' }) });
      await tools.run('read_file', { path: '/a.txt' });
      for (const [tool, args] of [
        ['edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' }],
        ['write_file', { path: '/a.txt', content: 'two\n' }],
      ] as const) {
        const result = await tools.run(tool, args);
        expectFailure(result, 'EINVAL');
        expect(result.text, tool).toMatch(/lone UTF-16 surrogate \(\\uD800 at index 7\).*Nothing was written/);
        expect(result.text, tool).toContain('The content approve() gave for /a.txt');
      }
      const patch = createTools(backend, { dialect: 'openai', approve: async () => ({ allow: true, content: 'person \uD800 text\n' }) });
      const patched = await patch.run('apply_patch', { operation: { type: 'update_file', path: '/a.txt', diff: '@@\n-one\n+two' } });
      expectFailure(patched, 'EINVAL');
      expect(patched.text).toMatch(/^Error: EINVAL: The content approve\(\) gave for \/a.txt holds a lone UTF-16 surrogate \(\\uD800 at index 7\)/);
      expect(await backend.readText('/a.txt')).toBe('one\n');
    });

    it('a model’s text with half a character is refused before anyone is asked, in every dialect that writes text', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n' } });
      const calls: Array<[DialectName, string, Record<string, unknown>]> = [
        ['agentvfs', 'write_file', { path: '/new.txt', content: 'x\uD800y' }],
        ['agentvfs', 'edit_file', { path: '/a.txt', old_string: 'one', new_string: 'o\uDC00' }],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'create', path: '/new.txt', file_text: 'x\uD800' }],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'one', new_str: 'o\uD800' }],
        ['gemini', 'write_file', { file_path: '/new.txt', content: 'x\uD800' }],
        ['gemini', 'replace', { file_path: '/a.txt', old_string: 'one', new_string: 'o\uD800' }],
        ['mcp-filesystem', 'write_file', { path: '/new.txt', content: 'x\uD800' }],
        ['openai', 'apply_patch', { operation: { type: 'create_file', path: '/new.txt', diff: '+x\uD800' } }],
      ];
      for (const [dialect, tool, args] of calls) {
        const { requests, approve } = recorder();
        const tools = createTools(backend, { dialect, approve });
        if (dialect === 'agentvfs') await tools.run('read_file', { path: '/a.txt' });
        const result = await tools.run(tool, args);
        expectFailure(result, 'EINVAL');
        expect(result.text, `${dialect} ${tool}`).toMatch(/lone UTF-16 surrogate.*Nothing was written/);
        expect(requests, `${dialect} ${tool}: nobody is asked about a write that cannot be made`).toEqual([]);
      }
      expect(await backend.readText('/a.txt')).toBe('one\n');
      expect(await backend.exists('/new.txt')).toBe(false);
    });

    it('a file changed while the question was open: ESTALE, the other write kept', async () => {
      const backend = await make({ files: { '/a.txt': 'v1\n' } });
      const tools = createTools(backend, {
        approve: async () => {
          await backend.writeFile('/a.txt', 'someone else\n');
          return { allow: true };
        },
      });
      await tools.run('read_file', { path: '/a.txt' });
      const result = await tools.run('write_file', { path: '/a.txt', content: 'mine\n' });
      expectFailure(result, 'ESTALE');
      expect(result.text).toContain('while the write was waiting for approval');
      expect(await backend.readText('/a.txt')).toBe('someone else\n');
    });

    it('other calls keep working while a question is open', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n', '/b.txt': 'b\n' } });
      const answer = deferred<ApprovalDecision>();
      const asked = deferred<void>();
      const tools = createTools(backend, {
        approve: () => {
          asked.resolve();
          return answer.promise;
        },
      });
      const pending = tools.run('write_file', { path: '/c.txt', content: 'c\n' });
      await asked.promise;
      expect(await tools.call('read_file', { path: '/b.txt' })).toBe('     1\tb');
      expect(await tools.call('glob', { pattern: '*.txt' })).not.toContain('/c.txt');
      answer.resolve({ allow: true });
      expect((await pending).text).toMatch(/^Created \/c\.txt/);
    });
  });

  describe('approve and the rest of the session', () => {
    it('an approve() that views the file through the same tool set, and a question left open, hold up nothing else', async () => {
      const backend = await make({ files: { '/a.txt': 'hello\n' } });
      const open = deferred<ApprovalDecision>();
      let seen = '';
      const tools = createTools(backend, {
        dialect: 'anthropic',
        approve: async (request) => {
          if (request.path === '/never.txt') return open.promise; // nobody answers this one yet
          seen = await tools.call('str_replace_based_edit_tool', { command: 'view', path: '/a.txt' });
          return { allow: true };
        },
      });
      const unanswered = tools.run('str_replace_based_edit_tool', { command: 'create', path: '/never.txt', file_text: 'x\n' });
      const edit = await tools.run('str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'hello', new_str: 'bye' });
      expect(edit.isError, edit.text).toBe(false);
      expect(seen).toBe("Here's the result of running `cat -n` on /a.txt:\n     1\thello\n");
      expect(await backend.readText('/a.txt')).toBe('bye\n');
      open.resolve({ allow: false });
      expect((await unanswered).code).toBe('EDENIED');
    });
  });

  describe('cancellation (RunOptions.signal)', () => {
    it('cancelled while its question is open: ECANCELED, nothing written, the question sees the abort and its late answer is ignored', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n' } });
      const open = deferred<ApprovalDecision>();
      const asked: ApprovalRequest[] = [];
      let abortedSeen = false;
      const events: ToolEvent[] = [];
      const tools = createTools(backend, {
        approve: (request) => {
          asked.push(request);
          request.signal?.addEventListener('abort', () => (abortedSeen = true));
          return open.promise;
        },
        onEvent: (e) => events.push(e),
      });
      await tools.run('read_file', { path: '/a.txt' });
      const controller = new AbortController();
      const pending = tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' }, { signal: controller.signal });
      await until(() => asked.length === 1);
      expect(asked[0]!.signal).toBeDefined();
      controller.abort();
      const result = await pending;
      expectFailure(result, 'ECANCELED');
      expect(result.text).toBe('Error: ECANCELED: The call was cancelled while the write of /a.txt waited for approval. The file is unchanged.');
      expect(abortedSeen).toBe(true);
      open.resolve({ allow: true }); // too late: nothing may be written now
      await tools.run('ls', {});
      expect(await backend.readText('/a.txt')).toBe('one\n');
      expect(events.map((e) => [e.tool, e.ok, e.code, e.decision])).toEqual([
        ['read_file', true, undefined, undefined],
        ['edit_file', false, 'ECANCELED', undefined],
        ['ls', true, undefined, undefined],
      ]);
      // The session goes on: the same edit, asked again and allowed, lands.
      open.promise = Promise.resolve({ allow: true });
      expect((await tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' })).isError).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('two\n');
    });

    it('cancelled as the answer comes (approve aborts, then allows): nothing is written', async () => {
      const backend = await make();
      const controller = new AbortController();
      const tools = createTools(backend, {
        approve: () => {
          controller.abort();
          return { allow: true };
        },
      });
      const result = await tools.run('write_file', { path: '/n.txt', content: 'x' }, { signal: controller.signal });
      expectFailure(result, 'ECANCELED');
      expect(await backend.exists('/n.txt')).toBe(false);
    });

    it('a signal aborted before the call: it does not run (no question, no read), in text form too', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n' } });
      const { requests, approve } = recorder();
      const tools = createTools(backend, { approve });
      const signal = AbortSignal.abort();
      expectFailure(await tools.run('write_file', { path: '/b.txt', content: 'b' }, { signal }), 'ECANCELED');
      expect(await tools.call('read_file', { path: '/a.txt' }, { signal })).toBe(
        'Error: ECANCELED: The call was cancelled before it ran. Nothing was changed.',
      );
      expect(requests).toEqual([]);
      expect(await backend.exists('/b.txt')).toBe(false);
      // Not read: a write over it is still refused for want of a read.
      expect((await tools.run('write_file', { path: '/a.txt', content: 'z' })).code).toBe('ENOTREAD');
    });

    it('a patch cancelled at its second question writes none of its files, and the audit claims no decision', async () => {
      const backend = await make({ files: { '/src/keep.txt': 'line1\nline2\n' } });
      const controller = new AbortController();
      let questions = 0;
      const events: ToolEvent[] = [];
      const tools = createTools(backend, {
        dialect: 'openai',
        approve: () => {
          if (++questions === 2) controller.abort();
          return { allow: true };
        },
        onEvent: (e) => events.push(e),
      });
      const patch = '*** Begin Patch\n*** Add File: src/new.txt\n+created\n*** Update File: src/keep.txt\n@@\n-line2\n+changed\n*** End Patch\n';
      expectFailure(await tools.run('apply_patch', { input: patch }, { signal: controller.signal }), 'ECANCELED');
      expect(questions).toBe(2);
      expect(events.map((e) => [e.code, e.decision])).toEqual([['ECANCELED', undefined]]);
      expect(await backend.exists('/src/new.txt')).toBe(false);
      expect(await backend.readText('/src/keep.txt')).toBe('line1\nline2\n');
    });

    it('a signal that does not abort changes nothing; options that are not { signal } are refused', async () => {
      const backend = await make();
      const { requests, approve } = recorder();
      const tools = createTools(backend, { approve });
      const { signal } = new AbortController();
      expect((await tools.run('write_file', { path: '/n.txt', content: 'x' }, { signal })).isError).toBe(false);
      expect(requests[0]!.signal).toBe(signal);
      expect(await backend.readText('/n.txt')).toBe('x');
      await expect(tools.run('ls', {}, 'fast' as never)).rejects.toThrow(/options must be an object such as \{ signal \}/);
      await expect(tools.run('ls', {}, [] as never)).rejects.toThrow(/options must be an object such as \{ signal \}, not an array/);
      await expect(tools.run('ls', {}, { signal: {} as AbortSignal })).rejects.toThrow(/options\.signal must be an AbortSignal/);
      expect((await tools.run('ls', {}, null as never)).isError).toBe(false);
      expect((await tools.run('ls', {}, { turn: 'x' } as never)).isError).toBe(false);
      // Options that look like agentvfs's own numbered call are still a caller's options: the signal counts.
      const lookalike = { n: 1, unanswered: [], signal: AbortSignal.abort() } as never;
      expect((await tools.run('write_file', { path: '/m.txt', content: 'm' }, lookalike)).code).toBe('ECANCELED');
      expect(await backend.exists('/m.txt')).toBe(false);
    });
  });

  describe('parallel writes of one session under approve', () => {
    it('each is asked once: one refused after its answer is not asked again', async () => {
      const backend = await make({ files: { '/a.txt': 'l0\nl1\nl2\nl3\n' } });
      const asked: string[] = [];
      const tools = createTools(backend, {
        approve: async (request) => {
          asked.push(request.diff);
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { allow: true };
        },
      });
      await tools.run('read_file', { path: '/a.txt' });
      const results = await Promise.all([0, 1, 2, 3].map((i) => tools.run('edit_file', { path: '/a.txt', old_string: `l${i}`, new_string: `L${i}` })));
      expect(asked).toHaveLength(4);
      const landed = results.filter((r) => !r.isError).length;
      expect(landed).toBeGreaterThanOrEqual(1);
      expect(results.filter((r) => r.isError).every((r) => r.code === 'ESTALE')).toBe(true);
      expect((await backend.readText('/a.txt')).split('\n').filter((l) => l.startsWith('L'))).toHaveLength(landed);
    });
  });

  describe('a patch (the openai dialect’s apply_patch)', () => {
    const patch =
      '*** Begin Patch\n*** Add File: src/new.txt\n+created\n*** Delete File: src/old.txt\n*** Update File: src/keep.txt\n@@\n-line2\n+changed\n*** End Patch\n';
    const files = { '/src/old.txt': 'old\n', '/src/keep.txt': 'line1\nline2\n' };

    it('asks once per file before writing any; a denial of one refuses the whole patch', async () => {
      const backend = await make({ files });
      const { requests, approve } = recorder({ allow: true }, { allow: true }, { allow: false, reason: 'keep line2' });
      const result = await createTools(backend, { dialect: 'openai', approve }).run('apply_patch', { input: patch });
      expectFailure(result, 'EDENIED');
      expect(result.text).toContain('"keep line2"');
      expect(requests.map((r) => [r.path, r.action, r.created])).toEqual([
        ['/src/new.txt', 'write', true],
        ['/src/old.txt', 'remove', false],
        ['/src/keep.txt', 'write', false],
      ]);
      expect(requests[2]!.diff).toBe(
        'diff --git a/src/keep.txt b/src/keep.txt\n--- a/src/keep.txt\n+++ b/src/keep.txt\n@@ -1,2 +1,2 @@\n line1\n-line2\n+changed',
      );
      expect(await backend.exists('/src/new.txt')).toBe(false);
      expect(await backend.readText('/src/old.txt')).toBe('old\n');
      expect(await backend.readText('/src/keep.txt')).toBe('line1\nline2\n');
    });

    it('all allowed: applied as one change; a path outside permissions.write refuses the patch before any question', async () => {
      const backend = await make({ files });
      const { requests, approve } = recorder();
      const events: ToolEvent[] = [];
      const tools = createTools(backend, { dialect: 'openai', approve, onEvent: (e) => events.push(e) });
      expect((await tools.run('apply_patch', { input: patch })).isError).toBe(false);
      expect(requests).toHaveLength(3);
      expect(await backend.readText('/src/keep.txt')).toBe('line1\nchanged\n');
      expect(events.map((e) => [e.tool, e.ok, e.decision])).toEqual([['apply_patch', true, 'allow']]);
      const limited = createTools(backend, { dialect: 'openai', approve, permissions: { write: ['/src/new.txt'] } });
      const refused = await limited.run('apply_patch', { input: '*** Begin Patch\n*** Add File: src/other.txt\n+x\n*** End Patch\n' });
      expectFailure(refused, 'EACCES');
      expect(requests).toHaveLength(3);
      expect(await backend.exists('/src/other.txt')).toBe(false);
    });
  });

  describe('onEvent (SPEC §10)', () => {
    it('an onEvent that throws, or rejects (an async one), changes nothing: the call stands, nothing is left unhandled', async () => {
      const backend = await make();
      for (const onEvent of [
        () => {
          throw new Error('audit log down');
        },
        async () => {
          throw new Error('audit database down');
        },
        // A hand-made thenable whose then rejects.
        // biome-ignore lint/suspicious/noThenProperty: a thenable is what this onEvent returns
        (() => ({ then: () => Promise.reject(new Error('audit queue down')) })) as never,
      ]) {
        const tools = createTools(backend, { onEvent });
        const result = await tools.run('write_file', { path: `/${onEvent.length}-${Math.random()}.txt`, content: 'x' });
        expect(result.isError, result.text).toBe(false);
        // A rejection nobody handled would be reported here (and ends a Node process).
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });

    it('one event per call, in order, with outcome, changed files, decision and duration', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n' } });
      const events: ToolEvent[] = [];
      const { approve } = recorder({ allow: true }, { allow: false, reason: 'no' });
      const tools = createTools(backend, { approve, permissions: { read: ['/**'], write: ['/a.txt', '/b.txt'] }, onEvent: (e) => events.push(e) });
      await tools.run('read_file', { path: '/a.txt' });
      await tools.run('edit_file', { path: '/a.txt', old_string: 'a', new_string: 'A' });
      await tools.run('write_file', { path: '/b.txt', content: 'b' });
      await tools.run('write_file', { path: '/c.txt', content: 'c' });
      await tools.call('nope');
      const version = (await backend.stat('/a.txt')).version;
      expect(events.map(({ ms, ...e }) => (expect(ms).toBeGreaterThanOrEqual(0), e))).toEqual([
        { seq: 1, tool: 'read_file', args: { path: '/a.txt' }, ok: true, changed: [] },
        {
          seq: 2,
          tool: 'edit_file',
          args: { path: '/a.txt', old_string: 'a', new_string: 'A' },
          ok: true,
          changed: [{ path: '/a.txt', version }],
          decision: 'allow',
        },
        { seq: 3, tool: 'write_file', args: { path: '/b.txt', content: 'b' }, ok: false, code: 'EDENIED', changed: [], decision: 'deny' },
        { seq: 4, tool: 'write_file', args: { path: '/c.txt', content: 'c' }, ok: false, code: 'EACCES', changed: [] },
        { seq: 5, tool: 'nope', args: undefined, ok: false, code: 'EINVAL', changed: [] },
      ]);
    });

    it('events follow the order calls finish in', async () => {
      const backend = await make();
      const answer = deferred<ApprovalDecision>();
      const asked = deferred<void>();
      const events: ToolEvent[] = [];
      const tools = createTools(backend, {
        approve: () => (asked.resolve(), answer.promise),
        onEvent: (e) => events.push(e),
      });
      const slow = tools.run('write_file', { path: '/slow', content: 's' });
      await asked.promise;
      await tools.run('ls', {});
      answer.resolve({ allow: true });
      await slow;
      expect(events.map((e) => [e.seq, e.tool])).toEqual([
        [1, 'ls'],
        [2, 'write_file'],
      ]);
    });
  });
}
