/**
 * The reference MCP filesystem server's own tests, ported to the 'mcp-filesystem' dialect over
 * every transport: modelcontextprotocol/servers src/filesystem/__tests__ (commit 76d64c8). Each
 * case names the upstream test it comes from (`file › describe › it`); expected texts are the
 * server's (src/filesystem/index.ts and lib.ts), or, where docs/dialects.md lists a deliberate
 * difference ("cases that differ, and why"), ours, with the server's result in a comment.
 * The workspace root `/` stands for the server's allowed directory. What does not apply to an
 * in-memory filesystem (symlinks, roots, startup, Windows paths) is listed in the docs, not here.
 */
import { describe, expect, it } from 'vitest';
import { createTools, type StateBackendOptions } from '../../src/index.ts';
import { manualClock, type BackendFactory } from './harness.ts';

/** The server's edit_file result: jsdiff's createTwoFilesPatch in a ```diff fence, then a blank line (lib.ts applyFileEdits). */
const fenced = (diff: string) => `\`\`\`diff\n${diff}\`\`\`\n\n`;
const header = (path: string) => `Index: ${path}\n${'='.repeat(67)}\n--- ${path}\toriginal\n+++ ${path}\tmodified\n`;
/** One row of list_directory_with_sizes (index.ts): the name padded to 30, the size to 10. */
const row = (name: string, size: string) => `[FILE] ${name.padEnd(30)} ${size.padStart(10)}`;

export function mcpFilesystemUpstreamSuite(make: BackendFactory) {
  async function open(files: StateBackendOptions['files'] = {}, options: StateBackendOptions = {}) {
    const backend = await make({ files, ...options });
    return { backend, tools: createTools(backend, { dialect: 'mcp-filesystem' }) };
  }

  describe("dialect 'mcp-filesystem': the server's own tests (lib.test.ts)", () => {
    // lib.test.ts › formatSize › formats bytes correctly; handles edge cases (the sizes a test can hold in memory)
    it('list_directory_with_sizes gives sizes in formatSize units and the totals', async () => {
      const sizes = [0, 512, 1023, 1024, 1025, 1536, 1048575, 1048576];
      const files = Object.fromEntries(sizes.map((n, i) => [`/d/f${i}.bin`, 'x'.repeat(n)]));
      const { tools } = await open(files);
      const expected = ['0 B', '512 B', '1023 B', '1.00 KB', '1.00 KB', '1.50 KB', '1024.00 KB', '1.00 MB'];
      expect(await tools.call('list_directory_with_sizes', { path: '/d' })).toBe(
        [...expected.map((size, i) => row(`f${i}.bin`, size)), '', 'Total: 8 files, 0 directories', 'Combined size: 2.00 MB'].join('\n'),
      );
    });

    // lib.test.ts › createUnifiedDiff › creates diff for simple changes
    it('edit_file returns the change as a unified diff of the file', async () => {
      const { tools } = await open({ '/test.txt': 'line1\nline2\nline3' });
      const result = await tools.call('edit_file', { path: '/test.txt', edits: [{ oldText: 'line2', newText: 'modified line2' }] });
      expect(result).toContain('--- /test.txt');
      expect(result).toContain('+++ /test.txt');
      expect(result).toContain('-line2');
      expect(result).toContain('+modified line2');
      expect(result).toBe(fenced(`${header('/test.txt')}@@ -1,3 +1,3 @@\n line1\n-line2\n+modified line2\n line3\n\\ No newline at end of file\n`));
    });

    // lib.test.ts › createUnifiedDiff › handles CRLF normalization
    it('the diff of a CRLF file compares lines without their CR', async () => {
      const { tools } = await open({ '/crlf.txt': 'line1\r\nline2\r\n' });
      const result = await tools.call('edit_file', { path: '/crlf.txt', edits: [{ oldText: 'line2', newText: 'modified line2' }] });
      expect(result).toBe(fenced(`${header('/crlf.txt')}@@ -1,2 +1,2 @@\n line1\n-line2\n+modified line2\n`));
      expect(result).not.toContain('\r');
    });

    // lib.test.ts › createUnifiedDiff › handles identical content
    it('an edit that changes nothing gives a diff with its headers and no + or - line', async () => {
      const { backend, tools } = await open({ '/same.txt': 'line1\nline2\nline3' });
      const result = await tools.call('edit_file', { path: '/same.txt', edits: [{ oldText: 'line2', newText: 'line2' }] });
      const lines = result.split('\n');
      expect(lines.filter((l) => l.startsWith('+++') || l.startsWith('---'))).toHaveLength(2);
      expect(lines.filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toHaveLength(0);
      expect(lines.filter((l) => l.startsWith('-') && !l.startsWith('---'))).toHaveLength(0);
      expect(result).toBe(fenced(header('/same.txt')));
      expect(await backend.readText('/same.txt')).toBe('line1\nline2\nline3');
    });

    // lib.test.ts › createUnifiedDiff › handles empty content; handles custom filename (the file's own path names it)
    it('the diff of an empty file that stays empty is the headers, naming the file', async () => {
      const { tools } = await open({ '/custom.txt': '' });
      const result = await tools.call('edit_file', { path: 'custom.txt', edits: [{ oldText: '', newText: '' }] });
      expect(result).toContain('--- /custom.txt');
      expect(result).toContain('+++ /custom.txt');
      expect(result).toBe(fenced(header('/custom.txt')));
    });

    // lib.test.ts › validatePath › validates allowed paths; handles non-existent files by checking parent directory
    it('a path in the workspace is used as given; a new file in an existing directory is created', async () => {
      const { backend, tools } = await open({ '/home/user/file.txt': 'there' });
      expect(await tools.call('read_text_file', { path: '/home/user/file.txt' })).toBe('there');
      expect(await tools.call('write_file', { path: '/home/user/newfile.txt', content: 'new' })).toBe('Successfully wrote to /home/user/newfile.txt');
      expect(await backend.readText('/home/user/newfile.txt')).toBe('new');
    });

    // lib.test.ts › validatePath › rejects when parent directory does not exist — differs (docs/dialects.md)
    it('a new file whose parent directory does not exist is created with its parents', async () => {
      const { backend, tools } = await open({ '/home/user/file.txt': 'there' });
      // The server: "Parent directory does not exist: /home/user/nonexistent".
      expect(await tools.call('write_file', { path: '/home/user/nonexistent/newfile.txt', content: 'n' })).toBe(
        'Successfully wrote to /home/user/nonexistent/newfile.txt',
      );
      expect((await backend.stat('/home/user/nonexistent')).isDir).toBe(true);
    });

    // lib.test.ts › validatePath › resolves relative paths against allowed directories instead of process.cwd()
    it('a relative path resolves against the workspace, not anywhere else', async () => {
      const { backend, tools } = await open();
      // The server echoes the path as given ("Successfully wrote to test-file.txt"); paths in results are absolute here.
      expect(await tools.call('write_file', { path: 'test-file.txt', content: 'rel' })).toBe('Successfully wrote to /test-file.txt');
      expect(await backend.readText('/test-file.txt')).toBe('rel');
    });

    // lib.test.ts › getFileStats › returns file statistics
    it('get_file_info of a file: its size, times, type and permissions, one "key: value" a line', async () => {
      const clock = manualClock(Date.UTC(2023, 0, 2, 3, 4, 5));
      const { tools } = await open({ '/test/file.txt': 'test content' }, { now: clock.now });
      // created and accessed are the modification time here (docs/dialects.md): the backend keeps no other.
      const time = new Date(Date.UTC(2023, 0, 2, 3, 4, 5)).toString();
      expect(await tools.call('get_file_info', { path: '/test/file.txt' })).toBe(
        ['size: 12', `created: ${time}`, `modified: ${time}`, `accessed: ${time}`, 'isDirectory: false', 'isFile: true', 'permissions: 644'].join('\n'),
      );
    });

    // lib.test.ts › getFileStats › handles directory statistics
    it('get_file_info of a directory', async () => {
      const { tools } = await open({ '/test/dir/a.txt': 'a' });
      const info = await tools.call('get_file_info', { path: '/test/dir' });
      expect(info).toContain('\nisDirectory: true\n');
      expect(info).toContain('\nisFile: false\n');
      expect(info).toMatch(/\npermissions: 755$/);
    });

    // lib.test.ts › readFileContent › reads file with default encoding
    it('read_text_file returns the file as it is', async () => {
      const { tools } = await open({ '/test/file.txt': 'file content' });
      expect(await tools.call('read_text_file', { path: '/test/file.txt' })).toBe('file content');
    });

    // lib.test.ts › writeFileContent › writes file content
    it('write_file writes the content as given, a new file or over an existing one', async () => {
      const { backend, tools } = await open({ '/test/old.txt': 'old' });
      expect(await tools.call('write_file', { path: '/test/file.txt', content: 'new content' })).toBe('Successfully wrote to /test/file.txt');
      expect(await backend.readText('/test/file.txt')).toBe('new content');
      // The server overwrites without warning (its description); so does this, with no prior read.
      expect(await tools.call('write_file', { path: '/test/old.txt', content: 'new content' })).toBe('Successfully wrote to /test/old.txt');
      expect(await backend.readText('/test/old.txt')).toBe('new content');
    });

    // lib.test.ts › searchFilesWithValidation › excludes files matching exclude patterns
    it('search_files leaves out what an exclude pattern matches', async () => {
      const { tools } = await open({ '/allowed/dir/test.txt': 't', '/allowed/dir/test.log': 'l', '/allowed/dir/node_modules/m.js': 'm' });
      expect(await tools.call('search_files', { path: '/allowed/dir', pattern: '*test*', excludePatterns: ['*.log', 'node_modules'] })).toBe(
        '/allowed/dir/test.txt',
      );
    });

    // lib.test.ts › searchFilesWithValidation › handles complex exclude patterns with wildcards — order differs (docs/dialects.md)
    it('search_files with a wildcard exclude pattern', async () => {
      const { tools } = await open({ '/allowed/dir/test.txt': 't', '/allowed/dir/test.backup': 'b', '/allowed/dir/important_test.js': 'i' });
      // The server lists them in the order the directory reads (test.txt, important_test.js); here by path.
      expect(await tools.call('search_files', { path: '/allowed/dir', pattern: '*test*', excludePatterns: ['*.backup'] })).toBe(
        '/allowed/dir/important_test.js\n/allowed/dir/test.txt',
      );
    });

    describe('applyFileEdits', () => {
      const FILE = 'line1\nline2\nline3\n';

      // lib.test.ts › applyFileEdits › applies simple text replacement
      it('applies simple text replacement', async () => {
        const { backend, tools } = await open({ '/test/file.txt': FILE });
        const result = await tools.call('edit_file', { path: '/test/file.txt', edits: [{ oldText: 'line2', newText: 'modified line2' }] });
        expect(result).toContain('modified line2');
        expect(result).toBe(fenced(`${header('/test/file.txt')}@@ -1,3 +1,3 @@\n line1\n-line2\n+modified line2\n line3\n`));
        expect(await backend.readText('/test/file.txt')).toBe('line1\nmodified line2\nline3\n');
      });

      // lib.test.ts › applyFileEdits › treats dollar signs in replacement text literally
      it('treats dollar signs in replacement text literally', async () => {
        const { backend, tools } = await open({ '/test/file.txt': FILE });
        const newText = "price=$$; match=$&; before=$`; after=$'";
        expect((await tools.run('edit_file', { path: '/test/file.txt', edits: [{ oldText: 'line2', newText }] })).isError).toBe(false);
        expect(await backend.readText('/test/file.txt')).toBe("line1\nprice=$$; match=$&; before=$`; after=$'\nline3\n");
      });

      // lib.test.ts › applyFileEdits › handles dry run mode
      it('handles dry run mode', async () => {
        const { backend, tools } = await open({ '/test/file.txt': FILE });
        const before = (await backend.stat('/test/file.txt')).version;
        const result = await tools.run('edit_file', { path: '/test/file.txt', edits: [{ oldText: 'line2', newText: 'modified line2' }], dryRun: true });
        expect(result.text).toContain('modified line2');
        expect(result.changed).toEqual([]);
        expect(await backend.readText('/test/file.txt')).toBe(FILE);
        expect((await backend.stat('/test/file.txt')).version).toBe(before);
      });

      // lib.test.ts › applyFileEdits › applies multiple edits sequentially
      it('applies multiple edits sequentially', async () => {
        const { backend, tools } = await open({ '/test/file.txt': FILE });
        await tools.call('edit_file', {
          path: '/test/file.txt',
          edits: [
            { oldText: 'line1', newText: 'first line' },
            { oldText: 'line3', newText: 'third line' },
          ],
        });
        expect(await backend.readText('/test/file.txt')).toBe('first line\nline2\nthird line\n');
      });

      // lib.test.ts › applyFileEdits › handles whitespace-flexible matching
      it('handles whitespace-flexible matching', async () => {
        const { backend, tools } = await open({ '/test/file.txt': '  line1\n    line2\n  line3\n' });
        await tools.call('edit_file', { path: '/test/file.txt', edits: [{ oldText: 'line2', newText: 'modified line2' }] });
        expect(await backend.readText('/test/file.txt')).toBe('  line1\n    modified line2\n  line3\n');
      });

      // lib.test.ts › applyFileEdits › throws error for non-matching edits
      it('throws error for non-matching edits', async () => {
        const { backend, tools } = await open({ '/test/file.txt': FILE });
        const result = await tools.run('edit_file', { path: '/test/file.txt', edits: [{ oldText: 'nonexistent line', newText: 'replacement' }] });
        expect(result).toMatchObject({ isError: true, code: 'ENOMATCH', changed: [] });
        // The server's message, after agentvfs's "Error: CODE: " (SPEC §3).
        expect(result.text).toMatch(/^Error: ENOMATCH: Could not find exact match for edit:\nnonexistent line\n/);
        expect(await backend.readText('/test/file.txt')).toBe(FILE);
      });

      // lib.test.ts › applyFileEdits › handles complex multi-line edits with indentation
      it('handles complex multi-line edits with indentation', async () => {
        const { backend, tools } = await open({ '/test/file.js': 'function test() {\n  console.log("hello");\n  return true;\n}' });
        await tools.call('edit_file', {
          path: '/test/file.js',
          edits: [{ oldText: '  console.log("hello");\n  return true;', newText: '  console.log("world");\n  console.log("test");\n  return false;' }],
        });
        expect(await backend.readText('/test/file.js')).toBe('function test() {\n  console.log("world");\n  console.log("test");\n  return false;\n}');
      });

      // lib.test.ts › applyFileEdits › handles edits with different indentation patterns
      it('handles edits with different indentation patterns', async () => {
        const { backend, tools } = await open({ '/test/file.js': '    if (condition) {\n        doSomething();\n    }' });
        await tools.call('edit_file', {
          path: '/test/file.js',
          edits: [{ oldText: 'doSomething();', newText: 'doSomethingElse();\n        doAnotherThing();' }],
        });
        expect(await backend.readText('/test/file.js')).toBe('    if (condition) {\n        doSomethingElse();\n        doAnotherThing();\n    }');
      });

      // lib.test.ts › applyFileEdits › handles CRLF line endings in file content — differs (docs/dialects.md)
      it('handles CRLF line endings in file content', async () => {
        const { backend, tools } = await open({ '/test/file.txt': 'line1\r\nline2\r\nline3\r\n' });
        const result = await tools.call('edit_file', { path: '/test/file.txt', edits: [{ oldText: 'line2', newText: 'modified line2' }] });
        expect(result).toBe(fenced(`${header('/test/file.txt')}@@ -1,3 +1,3 @@\n line1\n-line2\n+modified line2\n line3\n`));
        // The server writes 'line1\nmodified line2\nline3\n'; the file keeps its line endings here.
        expect(await backend.readText('/test/file.txt')).toBe('line1\r\nmodified line2\r\nline3\r\n');
      });
    });

    describe('tailFile and headFile', () => {
      // lib.test.ts › tailFile › handles empty files
      it('tail of an empty file is empty', async () => {
        const { tools } = await open({ '/test/empty.txt': '' });
        expect(await tools.call('read_text_file', { path: '/test/empty.txt', tail: 5 })).toBe('');
      });

      // lib.test.ts › tailFile › handles files with content and returns last lines — differs (docs/dialects.md)
      it('tail returns the last lines', async () => {
        const { tools } = await open({ '/test/file.txt': 'line3\nline4\nline5\n', '/test/open.txt': 'line1\nline2\nend' });
        // The server's tailFile counts the empty string after the final line break as a line: it returns "line5\n".
        expect(await tools.call('read_text_file', { path: '/test/file.txt', tail: 2 })).toBe('line4\nline5');
        expect(await tools.call('read_text_file', { path: '/test/open.txt', tail: 2 })).toBe('line2\nend');
      });

      // lib.test.ts › headFile › handles files with content and returns first lines
      it('head returns the first lines', async () => {
        const { tools } = await open({ '/test/file.txt': 'line1\nline2\nline3\n' });
        expect(await tools.call('read_text_file', { path: '/test/file.txt', head: 2 })).toBe('line1\nline2');
      });

      // lib.test.ts › headFile › handles files with leftover content
      it('head past the end returns every line, the last one without a line break too', async () => {
        const { tools } = await open({ '/test/file.txt': 'line1\nline2\nend' });
        expect(await tools.call('read_text_file', { path: '/test/file.txt', head: 5 })).toBe('line1\nline2\nend');
      });

      // lib.test.ts › headFile › handles reaching requested line count
      it('head of exactly the file’s line count', async () => {
        const { tools } = await open({ '/test/file.txt': 'line1\nline2\n' });
        expect(await tools.call('read_text_file', { path: '/test/file.txt', head: 2 })).toBe('line1\nline2');
      });
    });
  });

  describe("dialect 'mcp-filesystem': the server's own tests (directory-tree.test.ts)", () => {
    // directory-tree.test.ts › buildTree exclude patterns › beforeEach: the tree every case lists.
    async function project() {
      const { backend, tools } = await open({
        '/p/.env': 'SECRET=value',
        '/p/.env.local': 'LOCAL_SECRET=value',
        '/p/src/index.js': 'console.log("hello");',
        '/p/package.json': '{}',
        '/p/node_modules/module.js': 'module.exports = {};',
        '/p/nested/node_modules/deep.js': 'module.exports = {};',
      });
      await backend.mkdir('/p/.git');
      type Entry = { name: string; type: string; children?: Entry[] };
      const tree = async (excludePatterns: string[]) => JSON.parse(await tools.call('directory_tree', { path: '/p', excludePatterns })) as Entry[];
      return { tree, names: async (excludePatterns: string[]) => (await tree(excludePatterns)).map((e) => e.name) };
    }

    // directory-tree.test.ts › should exclude files matching simple patterns
    it('should exclude files matching simple patterns', async () => {
      const names = await (await project()).names(['.env']);
      expect(names).not.toContain('.env');
      expect(names).toContain('.env.local');
      expect(names).toContain('src');
      expect(names).toContain('package.json');
    });

    // directory-tree.test.ts › should exclude directories matching simple patterns
    it('should exclude directories matching simple patterns', async () => {
      const names = await (await project()).names(['node_modules']);
      expect(names).not.toContain('node_modules');
      expect(names).toContain('src');
      expect(names).toContain('.git');
    });

    // directory-tree.test.ts › should exclude nested directories with same pattern
    it('should exclude nested directories with same pattern', async () => {
      const nested = (await (await project()).tree(['node_modules'])).find((e) => e.name === 'nested');
      expect(nested).toBeDefined();
      expect(nested!.children).toBeDefined();
      expect(nested!.children!.map((c) => c.name)).not.toContain('node_modules');
    });

    // directory-tree.test.ts › should handle glob patterns correctly
    it('should handle glob patterns correctly', async () => {
      const names = await (await project()).names(['*.env']);
      expect(names).not.toContain('.env');
      expect(names).toContain('.env.local');
      expect(names).toContain('src');
    });

    // directory-tree.test.ts › should handle dot files correctly
    it('should handle dot files correctly', async () => {
      const names = await (await project()).names(['.git']);
      expect(names).not.toContain('.git');
      expect(names).toContain('.env');
    });

    // directory-tree.test.ts › should work with multiple exclude patterns
    it('should work with multiple exclude patterns', async () => {
      const names = await (await project()).names(['node_modules', '.env', '.git']);
      for (const gone of ['node_modules', '.env', '.git']) expect(names).not.toContain(gone);
      expect(names).toContain('src');
      expect(names).toContain('package.json');
    });

    // directory-tree.test.ts › should handle empty exclude patterns (and index.ts's description of the shape:
    // a file has no children; a directory always has them, maybe empty) — order differs (docs/dialects.md)
    it('should handle empty exclude patterns', async () => {
      const tree = await (await project()).tree([]);
      const names = tree.map((e) => e.name);
      for (const kept of ['node_modules', '.env', '.git', 'src']) expect(names).toContain(kept);
      expect(tree).toEqual([
        { name: '.git', type: 'directory', children: [] },
        { name: 'nested', type: 'directory', children: [{ name: 'node_modules', type: 'directory', children: [{ name: 'deep.js', type: 'file' }] }] },
        { name: 'node_modules', type: 'directory', children: [{ name: 'module.js', type: 'file' }] },
        { name: 'src', type: 'directory', children: [{ name: 'index.js', type: 'file' }] },
        { name: '.env', type: 'file' },
        { name: '.env.local', type: 'file' },
        { name: 'package.json', type: 'file' },
      ]);
    });
  });

  describe("dialect 'mcp-filesystem': the server's own tests (structured-content.test.ts, the text each tool returns)", () => {
    const FILES = { '/t/test.txt': 'test content', '/t/subdir/nested.txt': 'nested content' };

    // structured-content.test.ts › directory_tree › should return structuredContent.content as a string, not an array
    it('directory_tree returns a JSON array, 2-space indented', async () => {
      const { tools } = await open(FILES);
      const text = await tools.call('directory_tree', { path: '/t' });
      const tree = JSON.parse(text);
      expect(Array.isArray(tree)).toBe(true);
      expect(text).toBe(JSON.stringify(tree, null, 2));
    });

    // structured-content.test.ts › list_directory_with_sizes › should return structuredContent.content as a string, not an array
    it('list_directory_with_sizes lists the files', async () => {
      const { tools } = await open(FILES);
      expect(await tools.call('list_directory_with_sizes', { path: '/t' })).toContain('[FILE]');
    });

    // structured-content.test.ts › move_file › should return structuredContent.content as a string, not an array
    it('move_file says it moved the file', async () => {
      const { backend, tools } = await open(FILES);
      expect(await tools.call('move_file', { source: '/t/test.txt', destination: '/t/moved.txt' })).toBe('Successfully moved /t/test.txt to /t/moved.txt');
      expect(await backend.readText('/t/moved.txt')).toBe('test content');
      expect(await backend.exists('/t/test.txt')).toBe(false);
    });

    // structured-content.test.ts › list_directory (control - already working); search_files (control - already working)
    it('list_directory and search_files return text', async () => {
      const { tools } = await open(FILES);
      expect(await tools.call('list_directory', { path: '/t' })).toBe('[DIR] subdir\n[FILE] test.txt');
      expect(await tools.call('search_files', { path: '/t', pattern: '*.txt' })).toBe('/t/test.txt');
    });

    // structured-content.test.ts › read_media_file (issue #4029) › returns type "image" for image files, round-tripping the bytes
    it('read_media_file returns an image as an image part with its bytes', async () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const { tools } = await open({ '/t/pixel.png': png });
      const result = await tools.run('read_media_file', { path: '/t/pixel.png' });
      expect(result.parts).toEqual([{ type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }]);
    });

    // structured-content.test.ts › read_media_file (issue #4029) › returns type "audio" for audio files — differs (docs/dialects.md)
    it('read_media_file returns audio as a file part of its audio type, with its bytes', async () => {
      const { tools } = await open({ '/t/clip.mp3': new Uint8Array([0x49, 0x44, 0x33, 0x04]) });
      // The server returns { type: 'audio', mimeType: 'audio/mpeg' }; agentvfs's parts are images and files.
      expect((await tools.run('read_media_file', { path: '/t/clip.mp3' })).parts).toEqual([{ type: 'file', mediaType: 'audio/mpeg', data: 'SUQzBA==' }]);
    });

    // structured-content.test.ts › read_media_file (issue #4029) › returns an embedded resource (never "blob") for non-media binaries
    it('read_media_file returns any other file as a file part (an MCP embedded resource) of application/octet-stream', async () => {
      const { tools } = await open({ '/t/data.bin': new Uint8Array([0x00, 0x01, 0x02, 0x03, 0xff, 0xfe]) });
      expect((await tools.run('read_media_file', { path: '/t/data.bin' })).parts).toEqual([
        { type: 'file', mediaType: 'application/octet-stream', data: 'AAECA//+' },
      ]);
    });
  });

  describe("dialect 'mcp-filesystem': the server's own tests (path-validation.test.ts, with the root as the allowed directory)", () => {
    // path-validation.test.ts › Validation Tests - Path Traversal › blocks path traversal attempts; Edge Cases › handles very long paths
    it('a path that climbs above the workspace is refused, and nothing is written', async () => {
      const { backend, tools } = await open({ '/project/a.txt': 'a' });
      const escapes = [
        '/project/../../etc/passwd',
        '/project/src/../../../other',
        '/project/./../../other',
        `/${'a/'.repeat(1000)}${'../'.repeat(1001)}etc/passwd`,
      ];
      for (const path of escapes) {
        expect(await tools.run('write_file', { path, content: 'x' }), path).toMatchObject({ isError: true, code: 'EINVAL', changed: [] });
        expect(await tools.run('read_text_file', { path }), path).toMatchObject({ isError: true, code: 'EINVAL' });
      }
      expect(await backend.glob('**')).toEqual(['/project/a.txt']);
      // A path that goes up and stays inside is just a path (the server: inside its allowed directory).
      expect(await tools.call('read_text_file', { path: '/project/../project/a.txt' })).toBe('a');
      const deep = `/project/${'a/'.repeat(1000)}file.txt`;
      expect(await tools.call('write_file', { path: deep, content: 'deep' })).toBe(`Successfully wrote to ${deep}`);
    });

    // path-validation.test.ts › Validation Tests - Path Traversal › handles complex traversal patterns; Additional Coverage › handles symbolic dots in filenames
    it('dots inside a name are a name, not a step up', async () => {
      const { backend, tools } = await open({ '/project/keep.txt': 'k' });
      for (const name of ['..test', 'test..', 'te..st', '...', '....']) {
        expect(await tools.call('write_file', { path: `/project/${name}`, content: name }), name).toBe(`Successfully wrote to /project/${name}`);
        expect(await backend.readText(`/project/${name}`)).toBe(name);
      }
      // "." is the directory itself; ".." its parent.
      expect(await tools.call('list_directory', { path: '/project/.' })).toContain('[FILE] keep.txt');
      expect(await tools.call('list_directory', { path: '/project/sub/..' })).toContain('[FILE] keep.txt');
    });

    // path-validation.test.ts › Validation Tests - Null Bytes › rejects paths with null bytes
    it('a path with a NUL byte is refused', async () => {
      const { backend, tools } = await open({ '/project/test.txt': 't' });
      for (const path of ['/project\x00/etc/passwd', '/project/test\x00.txt', '\x00/project', '/project/\x00']) {
        expect(await tools.run('write_file', { path, content: 'x' }), JSON.stringify(path)).toMatchObject({ isError: true, code: 'EINVAL', changed: [] });
      }
      expect(await backend.glob('**')).toEqual(['/project/test.txt']);
    });

    // path-validation.test.ts › Validation Tests - Special Characters › allows percent signs in filenames; handles percent signs in allowed directories
    it('percent signs are part of a name, never decoded', async () => {
      const names = ['report_50%.pdf', 'Q1_25%_growth', '%41', '%2e%2e', 'file%20name'];
      const { tools } = await open(Object.fromEntries(names.map((n) => [`/project%20files/${n}`, n])));
      for (const name of names) expect(await tools.call('read_text_file', { path: `/project%20files/${name}` }), name).toBe(name);
      expect(await tools.run('read_text_file', { path: '/project files/%41' })).toMatchObject({ isError: true, code: 'ENOENT' });
    });

    // path-validation.test.ts › Unicode and special characters › handles unicode characters in paths; handles paths with spaces correctly
    it('unicode and spaces in names: the name as written, not normalized, no partial match', async () => {
      const { tools } = await open({ '/home/user/café/file': 'nfc', '/home/user/my project/file': 'spaced' });
      expect(await tools.call('read_text_file', { path: '/home/user/café/file' })).toBe('nfc');
      expect(await tools.run('read_text_file', { path: '/home/user/cafe\u0301/file' })).toMatchObject({ isError: true, code: 'ENOENT' });
      expect(await tools.call('read_text_file', { path: '/home/user/my project/file' })).toBe('spaced');
      expect(await tools.run('read_text_file', { path: '/home/user/my proj/file' })).toMatchObject({ isError: true, code: 'ENOENT' });
    });

    // path-validation.test.ts › Path Normalization › normalizes paths before comparison
    it('trailing slashes, "." and doubled slashes are normalized', async () => {
      const { tools } = await open({ '/home/user/project/src/file': 'f' });
      for (const path of ['/home/user/project/', '/home/user/project//', '/home/user/project///', '/home/user/./project']) {
        expect(await tools.call('list_directory', { path }), path).toBe('[DIR] src');
      }
      for (const path of ['/home/user/project/./src/file', '/home/user/project//src//file', '/home//user//project//src/file']) {
        expect(await tools.call('read_text_file', { path }), path).toBe('f');
      }
      expect(await tools.run('list_directory', { path: '/home/user//project2' })).toMatchObject({ isError: true, code: 'ENOENT' });
    });

    // path-validation.test.ts › Edge Cases › rejects non-string inputs safely
    it('a path that is not a string is refused, naming the argument', async () => {
      const { tools } = await open({ '/a.txt': 'a' });
      for (const path of [123, {}, [], null]) {
        const result = await tools.run('read_text_file', { path });
        expect(result, JSON.stringify(path)).toMatchObject({ isError: true, code: 'EINVAL' });
        expect(result.text).toContain('"path"');
      }
    });
  });
}
