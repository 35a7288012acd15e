import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import { expectVfsError, text, type BackendFactory } from './harness.ts';

export function pathSuite(make: BackendFactory) {
  describe('paths (SPEC §2)', () => {
    it.each(['/a/b', 'a/b', './a/b', 'a//b/', '/a/./b', '/a/x/../b', 'a\\b', '\\a\\b'])('%s names /a/b', async (input) => {
      const b = await make({ files: { '/a/b': 'hello' } });
      expect(text(await b.readFile(input))).toBe('hello');
      expect((await b.stat(input)).path).toBe('/a/b');
      expect(await b.resolvePath(input)).toBe('/a/b');
    });

    it('resolves relative paths against the cwd option', async () => {
      const b = await make({ cwd: '/work', files: { 'x.txt': 'in work' } });
      expect(await b.exists('/work/x.txt')).toBe(true);
      expect(text(await b.readFile('x.txt'))).toBe('in work');
      expect(text(await b.readFile('../work/./x.txt'))).toBe('in work');
    });

    it.each([
      ['..', '.. goes above the root "/". No file was changed. Use "/".'],
      ['/a/../../b', 'above the root "/". No file was changed. Use "/b".'],
      ['/../a"b', 'above the root "/". No file was changed. Use "/a\\"b".'],
      [`/..${'/abcdefghij'.repeat(20)}`, 'above the root "/". No file was changed. Remove the .. that go above it.'],
      ['a\0b', 'NUL byte. No file was changed. Remove it from the path.'],
      ['/a\nb.txt', 'line break, which names may not. No file was changed. Remove it from the path.'],
      ['/a\rb.txt', 'line break'],
      ['/notes-\uD83D.txt', 'surrogate, which is no character. No file was changed. Remove it from the path.'],
      ['', 'empty'],
      [`/${'x'.repeat(256)}`, 'is over 255 bytes. No file was changed. Use a shorter name.'],
      [`/d/${'é'.repeat(128)}`, '255'], // 256 UTF-8 bytes in 128 characters
      // A model's Windows path would otherwise be written under a made-up /C: directory.
      ['C:\\repo\\src\\new.ts', 'is a Windows path (drive C:); paths here are POSIX paths under "/". No file was changed. Use "/repo/src/new.ts".'],
      ['d:/backup/dup.ts', 'drive d:); paths here are POSIX paths under "/". No file was changed. Use "/backup/dup.ts".'],
      ['C:', 'drive C:'],
      ['C:\\..\\..', 'drive C:); paths here are POSIX paths under "/". No file was changed. Use the path under "/" instead.'],
    ])('rejects %j with EINVAL naming the path, the problem and what to do', async (input, words) => {
      const b = await make();
      const e = await expectVfsError(b.writeFile(input, 'x'), 'EINVAL');
      expect(e.message.replaceAll('"', '')).toContain(words.replaceAll('"', '')); // (quotes aside)
      if (input !== '') expect(e.message).toContain(JSON.stringify(input).slice(1, 20));
      expect(await b.ls('/')).toEqual([]);
    });

    it.each(['/C:/a.txt', './C:/a.txt', 'C:a.txt', 'notes:C:/a.txt'])(
      'takes %j, which is no drive letter before a separator at its start, as a POSIX path',
      async (input) => {
        const b = await make();
        const written = await b.writeFile(input, 'x');
        expect(text(await b.readFile(written.path))).toBe('x');
      },
    );

    it('accepts a 255-byte segment', async () => {
      const b = await make();
      const name = `/${'y'.repeat(255)}`;
      await b.writeFile(name, 'ok');
      expect(await b.exists(name)).toBe(true);
    });

    it('returns absolute normalized paths that every tool accepts as-is', async () => {
      const b = await make({ files: { 'src/lib/a.ts': 'export const a = 1;\n', 'src/b.ts': 'b\n' } });
      const tools = createTools(b);
      const listing = JSON.parse(await tools.call('ls', { path: 'src/' })) as Array<{ path: string; is_dir: boolean }>;
      expect(listing.map((e) => e.path)).toEqual(['/src/lib', '/src/b.ts']);
      const globbed = (await tools.call('glob', { pattern: '**/*.ts', path: './src' })).split('\n');
      for (const p of [...listing.map((e) => e.path), ...globbed]) expect(p).toMatch(/^\/(?:[^/]+\/)*[^/]+$/);
      for (const p of globbed) expect(await tools.call('read_file', { path: p })).toMatch(/^ {5}1\t/);
      const grepped = (await tools.call('grep', { pattern: 'export', path: 'src' })).split('\n');
      expect(grepped).toEqual(['/src/lib/a.ts']);
      expect(await tools.call('edit_file', { path: grepped[0], old_string: 'a = 1', new_string: 'a = 2' })).toMatch(/^Edited \/src\/lib\/a\.ts/);
    });

    it('not found names the path and suggests up to 3 files with the same basename, never opening one', async () => {
      const b = await make({ files: { '/src/app.ts': '1', '/lib/app.ts': '2', '/test/app.ts': '3', '/x/y/app.ts': '4', '/APP.TS': '5' } });
      const e = await expectVfsError(b.readFile('/app.ts'), 'ENOENT');
      expect(e.path).toBe('/app.ts');
      expect(e.message).toContain('/app.ts');
      const suggested = e.message.match(/\/[\w/]+app\.ts/g) ?? [];
      expect(suggested.length).toBe(3);
      // The same paths as data, wherever the backend runs (they cross a worker with the error).
      expect((e as { suggestions?: string[] }).suggestions).toEqual(suggested);
      expect(e.message).toMatch(/Did you mean/);
      const tools = createTools(b);
      const out = await tools.call('read_file', { path: '/app.ts' });
      expect(out).toMatch(/^Error: ENOENT/);
      expect(out).toContain('Did you mean');
      expect(out).not.toMatch(/\t[1-5]$/m);
      // A case slip in the same folder comes first, before namesakes elsewhere.
      const c = await make({ files: { '/a/b/index.ts': '1', '/src/index.ts': '2', '/c/index.ts': '3' } });
      expect((await expectVfsError(c.readFile('/src/Index.ts'), 'ENOENT')).message).toMatch(/Did you mean \/src\/index\.ts, /);
      // So does the same name in another Unicode normalization (NFD `e` + U+0301 for NFC `é`).
      const d = await make({ files: { '/docs/cafe\u0301.md': '1' } });
      const nfc = await expectVfsError(d.readFile('/docs/caf\u00e9.md'), 'ENOENT');
      expect(nfc.message).toContain('Did you mean /docs/cafe\u0301.md?');
      // ...which reads exactly like the path asked for: the message spells its code points.
      expect(nfc.message).toContain('looks the same but is written with other Unicode code points (/docs/cafe\\u0301.md)');
      // A missing path of any length is named clipped (one read is not checked for length).
      const long = await expectVfsError(d.readFile(`/${'a/'.repeat(30_000)}x`), 'ENOENT');
      expect(long.message.length).toBeLessThan(700);
    });

    it('suggests the file a path with spaces or quotes around a name meant, and shows the spaces', async () => {
      const b = await make({ files: { '/src/util.ts': 'u' } });
      const spaced = await expectVfsError(b.readFile('/src/util.ts '), 'ENOENT');
      expect(spaced.message).toBe('No such file or directory: "/src/util.ts ". Did you mean /src/util.ts?');
      const quotedPath = await expectVfsError(b.readFile('"/src/util.ts"'), 'ENOENT');
      expect(quotedPath.message).toContain('Did you mean /src/util.ts?');
      // So do the dialects that word their own not-found.
      const gemini = await createTools(b, { dialect: 'gemini' }).call('read_file', { file_path: '/src/util.ts ' });
      expect(gemini).toBe('Error: ENOENT: File not found: "/src/util.ts ". Did you mean /src/util.ts?');
      const editor = await createTools(b, { dialect: 'anthropic' }).call('str_replace_based_edit_tool', { command: 'view', path: '/src/util.ts ' });
      expect(editor).toBe('Error: ENOENT: The path "/src/util.ts " does not exist. Please provide a valid path. Did you mean /src/util.ts?');
      // A suggestion whose name has such a space is shown in quotes too, or it would read as another path.
      const c = await make({ files: { '/d/name.txt ': 'n' } });
      expect((await expectVfsError(c.readFile('/d/name.txt'), 'ENOENT')).message).toBe('No such file or directory: /d/name.txt. Did you mean "/d/name.txt "?');
    });

    // What a model's tool call creates: POSIX would take these names, but the model meant another
    // path, and a success would leave the file where it cannot find it (SPEC §2).
    describe("a model's path for what a tool creates", () => {
      const cases: Array<
        [string, (input: string) => [dialect: 'agentvfs' | 'anthropic' | 'openai' | 'gemini' | 'mcp-filesystem', tool: string, args: Record<string, unknown>]]
      > = [
        ['write_file', (p) => ['agentvfs', 'write_file', { path: p, content: 'x' }]],
        ['the text editor create', (p) => ['anthropic', 'str_replace_based_edit_tool', { command: 'create', path: p, file_text: 'x' }]],
        // (A patch's header line is read without the spaces around its path, as Codex reads it.)
        ['apply_patch Add File', (p) => ['openai', 'apply_patch', { input: `*** Begin Patch\n*** Add File: ${p.trim()}\n+x\n*** End Patch` }]],
        ['apply_patch create_file', (p) => ['openai', 'apply_patch', { operation: { type: 'create_file', path: p, diff: '+x\n' } }]],
        ['Gemini write_file', (p) => ['gemini', 'write_file', { file_path: p, content: 'x' }]],
        ['Gemini replace creating a file', (p) => ['gemini', 'replace', { file_path: p, old_string: '', new_string: 'x' }]],
        ['mcp-filesystem write_file', (p) => ['mcp-filesystem', 'write_file', { path: p, content: 'x' }]],
      ];
      it.each(cases)(
        '%s refuses a trailing "/", quotes around the path, a space at the end of a new name, a control character or a tab in it, and ~, $HOME or file:',
        async (label, call) => {
          const b = await make({ files: { '/src/index.ts': 'i\n', '/My Docs /a.txt': 'a', '/old\u2028dir/a.txt': 'a' } });
          const run = async (input: string) => {
            const [dialect, tool, args] = call(input);
            return createTools(b, { dialect }).run(tool, args);
          };
          const refusals: Array<[string, string]> = [
            [
              '/newdir/',
              'Invalid path "/newdir/": it ends with "/", which names a directory to put something in, not a file. No file was changed. Give the file\'s own path, such as "/newdir/NAME".',
            ],
            [
              '"/src/new.ts"',
              'Invalid path "\\"/src/new.ts\\"": it is wrapped in quotes, which would become part of the name. No file was changed. Use "/src/new.ts".',
            ],
            ['`src/new.ts`', 'wrapped in quotes, which would become part of the name. No file was changed. Use "/src/new.ts".'],
            [
              '/src/index.ts ',
              'Invalid path "/src/index.ts ": the name "index.ts " ends with a space, which the name would keep. No file was changed. Use "/src/index.ts" if that is what you meant.',
            ],
            [
              '/src/ lib/a.ts',
              'the name " lib" begins with a space, which the name would keep. No file was changed. Use "/src/lib/a.ts" if that is what you meant.',
            ],
            ['/notes\t', 'ends with a tab'],
            [
              '/src/a\u2028b.ts',
              'Invalid path "/src/a\\u2028b.ts": the name "a\\u2028b.ts" holds U+2028, which tool results would show as a line break or not at all. No file was changed. Use "/src/ab.ts" if that is what you meant.',
            ],
            ['/src/\u001b[1mx.ts', 'holds U+001B'],
            ['/src/x\u0085.ts', 'holds U+0085'],
            // What only a shell or a browser would have read otherwise, and a Windows path's "\t" sent in JSON.
            [
              '~/notes.md',
              'Invalid path "~/notes.md": "~" means a home directory only to a shell, and no shell reads paths here; it would be taken as the name "~". No file was changed. Use "/notes.md" if that is what you meant.',
            ],
            [
              '$HOME/a.py',
              '"$HOME" is a shell variable, and no shell reads paths here; it would be taken as the name "$HOME". No file was changed. Use "/a.py" if',
            ],
            [
              '%USERPROFILE%\\a.txt',
              'is a Windows environment variable, and nothing expands it here; it would be taken as the name "%USERPROFILE%". No file was changed. Use "/a.txt" if',
            ],
            [
              'file:///src/new.ts',
              'a file: URL is no path (its path is what follows "file://"); it would be taken as the name "file:". No file was changed. Use "/src/new.ts" if',
            ],
            ['src\tests\\a.ts', 'holds a tab, which tool results would show as spaces. No file was changed. Use "/src/tests/a.ts" if that is what you meant'],
            ['/src/a\tb.ts', 'the name "a\\tb.ts" holds a tab, which tool results would show as spaces. No file was changed. Give the name without it.'],
            // Every new name of the suggestion is without them, not only the first refused.
            ['/src/d\u0001/x\u0002.ts', 'holds U+0001, which tool results would show as a line break or not at all. No file was changed. Use "/src/d/x.ts" if'],
          ];
          for (const [input, message] of refusals) {
            if (label === 'apply_patch Add File' && input !== input.trim()) continue;
            const result = await run(input);
            expect(result.isError, input).toBe(true);
            expect(result.code, input).toBe('EINVAL');
            expect(result.text, input).toContain(message);
          }
          expect((await b.glob('**')).sort()).toEqual(['/My Docs /a.txt', '/old\u2028dir/a.txt', '/src/index.ts']);
          // A name that exists already is used as it is: only what the call creates is judged.
          for (const dir of ['/My Docs ', '/old\u2028dir']) {
            const inside = await run(`${dir}/b.txt`);
            expect(inside.isError, inside.text).toBe(false);
            expect(text(await b.readFile(`${dir}/b.txt`)).trimEnd()).toBe('x');
          }
          // A route parameter's directory (TanStack Router's and Remix's `$postId`) is no shell variable:
          // shell and Windows variables are named in capitals (`$HOME`, `%APPDATA%` in any case).
          for (const route of ['/app/routes/$postId/edit.tsx', '/app/routes/$lang.tsx', '/app/$lang/index.tsx']) {
            const made = await run(route);
            expect(made.isError, made.text).toBe(false);
            expect(text(await b.readFile(route)).trimEnd()).toBe('x');
          }
          expect((await run('$TMPDIR/x.txt')).text).toContain('"$TMPDIR" is a shell variable');
          expect((await run('%appdata%/x.txt')).text).toContain('"%appdata%" is a Windows environment variable');
        },
      );

      it('a move keeps what it moves where a model can find it, and says how to move into a directory', async () => {
        const b = await make({ files: { '/src/dup.ts': 'd\n', '/src/lib/x.ts': 'x\n', '/memories/a.md': 'a\n' } });
        const mcp = createTools(b, { dialect: 'mcp-filesystem' });
        const into = await mcp.run('move_file', { source: '/src/dup.ts', destination: '/src/lib' });
        expect(into.text).toBe(
          'Error: EEXIST: Destination already exists: /src/lib; the move was not made. Choose another destination. To move it into that directory, use /src/lib/dup.ts.',
        );
        const slash = await mcp.run('move_file', { source: '/src/dup.ts', destination: '/src/new/' });
        expect(slash.text).toContain(
          'Invalid path "/src/new/": it ends with "/", which names a directory to put something in, not a file. No file was changed. To put it inside /src/new, use "/src/new/dup.ts".',
        );
        // A directory's destination may end in "/": as `mv src newdir/`, a rename when it does not exist.
        expect((await mcp.run('move_file', { source: '/src/lib', destination: '/lib2/' })).text).toBe('Successfully moved /src/lib to /lib2');
        expect((await mcp.run('move_file', { source: '/lib2', destination: '/src/lib/' })).text).toBe('Successfully moved /lib2 to /src/lib');
        const spaced = await mcp.run('move_file', { source: '/src/dup.ts', destination: '/src/dup2.ts ' });
        expect(spaced.code).toBe('EINVAL');
        const dir = await mcp.run('create_directory', { path: '/src/ new' });
        expect(dir.text).toContain('the name " new" begins with a space');
        const memory = createTools(b, { dialect: 'anthropic' });
        const renamed = await memory.run('memory', { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md ' });
        expect(renamed.code).toBe('EINVAL');
        const patch = createTools(b, { dialect: 'openai' });
        await b.readFile('/src/dup.ts');
        const moved = await patch.run('apply_patch', {
          input: '*** Begin Patch\n*** Update File: src/dup.ts\n*** Move to: src/moved/\n@@\n-d\n+e\n*** End Patch',
        });
        expect(moved.text).toContain('In the patch\'s \'*** Move to: src/moved/\' section: Invalid path "src/moved/": it ends with "/"');
        expect(moved.text).toContain('use "/src/moved/dup.ts"');
        expect((await b.glob('**')).sort()).toEqual(['/memories/a.md', '/src/dup.ts', '/src/lib/x.ts']);
      });
    });

    it('a path through a file is ENOTDIR', async () => {
      const b = await make({ files: { '/f': 'file' } });
      await expectVfsError(b.writeFile('/f/g', 'x'), 'ENOTDIR');
      await expectVfsError(b.readFile('/f/g'), 'ENOTDIR');
      await expectVfsError(b.mkdir('/f/d'), 'ENOTDIR');
      expect(text(await b.readFile('/f'))).toBe('file');
    });
  });
}
