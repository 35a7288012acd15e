import { describe, expect, it } from 'vitest';
import { createSession, createTools } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

/** The 'gemini' dialect over every transport. */
export function geminiDialectSuite(make: BackendFactory) {
  describe("dialect 'gemini'", () => {
    it('reads, replaces and searches; the legacy tool name runs as grep_search', async () => {
      const backend = await make({ files: { '/src/app.ts': 'export const a = 1;\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      expect(await tools.call('read_file', { file_path: '/src/app.ts' })).toBe('export const a = 1;\n');
      const replaced = await tools.run('replace', { file_path: '/src/app.ts', instruction: 'a = 2', old_string: 'a = 1', new_string: 'a = 2' });
      expect(replaced).toMatchObject({
        isError: false,
        text: 'Successfully modified file: /src/app.ts (1 replacements). Here is the updated code:\nexport const a = 2;\n',
      });
      expect(replaced.changed.map((c) => c.path)).toEqual(['/src/app.ts']);
      expect(await tools.call('search_file_content', { pattern: 'a = 2', path: '/src' })).toBe(
        'Found 1 match for pattern "a = 2" in path "/src":\n---\nFile: /src/app.ts\nL1: export const a = 2;\n---',
      );
    });

    // Gemini CLI's ignore switches and their defaults (packages/core/src/tools/definitions/model-family-sets/gemini-3.ts):
    // glob's respect_git_ignore (default true), grep_search's no_ignore (default false), and
    // file_filtering_options.respect_git_ignore of list_directory and read_many_files (default true).
    // Result wording as tools/glob.ts and tools/ls.ts.
    const IGNORED = {
      '/.gitignore': 'dist/\n*.log\n',
      '/src/app.js': 'const needle = 1;\n',
      '/dist/app.js': 'const needle = 2;\n',
      '/debug.log': 'needle\n',
      '/node_modules/dep/index.js': 'needle\n',
    };

    it('glob leaves out ignored files and says how many, unless respect_git_ignore is false', async () => {
      const tools = createTools(await make({ files: IGNORED }), { dialect: 'gemini' });
      expect(await tools.call('glob', { pattern: '**/*.js' })).toBe(
        'Found 1 file(s) matching "**/*.js" within / (2 additional files were ignored), sorted by modification time (newest first):\n/src/app.js',
      );
      expect(await tools.call('glob', { pattern: '**/*.log' })).toBe('No files found matching pattern "**/*.log" within / (1 files were ignored)');
      const all = await tools.call('glob', { pattern: '**/*.js', respect_git_ignore: false, respect_gemini_ignore: false });
      expect(all.split('\n').slice(1).sort()).toEqual(['/dist/app.js', '/node_modules/dep/index.js', '/src/app.js']);
      expect(all).toMatch(/^Found 3 file\(s\) matching "\*\*\/\*\.js" within \/, sorted/);
    });

    it('glob matches names in either case unless case_sensitive is true (Gemini CLI’s default)', async () => {
      const tools = createTools(await make({ files: { '/src/App.TSX': 'a\n', '/src/util.tsx': 'u\n' } }), { dialect: 'gemini' });
      const found = async (args: object) => (await tools.call('glob', { pattern: '**/*.tsx', ...args })).split('\n').slice(1).sort();
      expect(await found({})).toEqual(['/src/App.TSX', '/src/util.tsx']);
      expect(await found({ case_sensitive: true })).toEqual(['/src/util.tsx']);
    });

    it('grep_search skips ignored files unless no_ignore is true', async () => {
      const tools = createTools(await make({ files: IGNORED }), { dialect: 'gemini' });
      expect(await tools.call('grep_search', { pattern: 'needle' })).toBe(
        'Found 1 match for pattern "needle" in the workspace directory:\n---\nFile: /src/app.js\nL1: const needle = 1;\n---',
      );
      expect(await tools.call('grep_search', { pattern: 'needle', no_ignore: true, names_only: true })).toBe(
        'Found 4 files with matches for pattern "needle" in the workspace directory:\n/debug.log\n/dist/app.js\n/node_modules/dep/index.js\n/src/app.js',
      );
    });

    it('list_directory counts the ignored entries; file_filtering_options.respect_git_ignore: false lists them', async () => {
      const tools = createTools(await make({ files: IGNORED }), { dialect: 'gemini' });
      expect(await tools.call('list_directory', { dir_path: '/' })).toBe('Directory listing for /:\n[DIR] src\n.gitignore (12 bytes)\n\n(3 ignored)');
      expect(await tools.call('list_directory', { dir_path: '/', file_filtering_options: { respect_git_ignore: false } })).toBe(
        'Directory listing for /:\n[DIR] dist\n[DIR] node_modules\n[DIR] src\n.gitignore (12 bytes)\ndebug.log (7 bytes)',
      );
      // A directory named outright is listed as asked.
      expect(await tools.call('list_directory', { dir_path: '/dist' })).toBe('Directory listing for /dist:\napp.js (18 bytes)');
    });

    it('read_many_files leaves out ignored files its patterns match, reads files named outright, and checks file_filtering_options', async () => {
      const tools = createTools(await make({ files: IGNORED }), { dialect: 'gemini' });
      const read = (text: string) => [...text.matchAll(/^--- (\/.*) ---$/gm)].map((m) => m[1]);
      expect(read(await tools.call('read_many_files', { include: ['**/*.js'] }))).toEqual(['/src/app.js']);
      expect(read(await tools.call('read_many_files', { include: ['**/*.js'], file_filtering_options: { respect_git_ignore: false } }))).toEqual([
        '/dist/app.js',
        '/src/app.js',
      ]);
      const everything = {
        include: ['**/*.js'],
        useDefaultExcludes: false,
        file_filtering_options: { respect_git_ignore: false, respect_gemini_ignore: true },
      };
      expect(read(await tools.call('read_many_files', everything))).toEqual(['/dist/app.js', '/node_modules/dep/index.js', '/src/app.js']);
      expect(read(await tools.call('read_many_files', { include: ['dist/app.js', 'debug.log'] }))).toEqual(['/debug.log', '/dist/app.js']);
      expect(await tools.call('read_many_files', { include: ['**/*.js'], file_filtering_options: { respect_git_ignore: 'no' } })).toBe(
        'Error: EINVAL: argument "file_filtering_options" of read_many_files must be an object with optional booleans respect_git_ignore and respect_gemini_ignore, got {"respect_git_ignore":"no"}.',
      );
      expect(await tools.call('list_directory', { dir_path: '/', file_filtering_options: { respect_gitignore: false } })).toBe(
        'Error: EINVAL: argument "file_filtering_options" of list_directory must be an object with optional booleans respect_git_ignore and respect_gemini_ignore, got {"respect_gitignore":false}.',
      );
    });

    // The project's .geminiignore (GeminiIgnoreParser: the root's file, lines trimmed, the ignore
    // package's defaults, so names match in either case), besides .gitignore.
    const GEMINI_IGNORED = {
      '/.geminiignore': '# secrets\nsecret/\n  *.LOG  \n',
      '/secret/key.txt': 'needle\n',
      '/run.log': 'needle\n',
      '/src/app.txt': 'needle\n',
    };

    it('.geminiignore leaves files out of glob, grep_search, list_directory and read_many_files unless switched off', async () => {
      const tools = createTools(await make({ files: GEMINI_IGNORED }), { dialect: 'gemini' });
      const globbed = (await tools.call('glob', { pattern: '**/*' })).split('\n');
      expect(globbed[0]).toBe('Found 2 file(s) matching "**/*" within / (2 additional files were ignored), sorted by modification time (newest first):');
      expect(globbed.slice(1).sort()).toEqual(['/.geminiignore', '/src/app.txt']);
      expect((await tools.call('glob', { pattern: '**/*.txt', respect_gemini_ignore: false })).split('\n').slice(1).sort()).toEqual([
        '/secret/key.txt',
        '/src/app.txt',
      ]);
      expect(await tools.call('grep_search', { pattern: 'needle', names_only: true })).toBe(
        'Found 1 files with matches for pattern "needle" in the workspace directory:\n/src/app.txt',
      );
      expect(await tools.call('grep_search', { pattern: 'needle', names_only: true, no_ignore: true })).toBe(
        'Found 3 files with matches for pattern "needle" in the workspace directory:\n/run.log\n/secret/key.txt\n/src/app.txt',
      );
      expect(await tools.call('list_directory', { dir_path: '/' })).toBe('Directory listing for /:\n[DIR] src\n.geminiignore (28 bytes)\n\n(2 ignored)');
      expect(await tools.call('list_directory', { dir_path: '/', file_filtering_options: { respect_gemini_ignore: false } })).toBe(
        'Directory listing for /:\n[DIR] secret\n[DIR] src\n.geminiignore (28 bytes)\nrun.log (7 bytes)',
      );
      const read = (text: string) => [...text.matchAll(/^--- (\/.*) ---$/gm)].map((m) => m[1]);
      expect(read(await tools.call('read_many_files', { include: ['**/*.txt', '*.log'] }))).toEqual(['/src/app.txt']);
      expect(read(await tools.call('read_many_files', { include: ['secret/key.txt'] }))).toEqual(['/secret/key.txt']); // named outright
      expect(read(await tools.call('read_many_files', { include: ['**/*.txt'], file_filtering_options: { respect_gemini_ignore: false } }))).toEqual([
        '/secret/key.txt',
        '/src/app.txt',
      ]);
    });

    it('a bad argument names itself and changes nothing', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      const bad = await tools.run('read_many_files', { include: 'a.txt' });
      expect(bad.text).toBe('Error: EINVAL: argument "include" of read_many_files must be an array of strings, got "a.txt".');
      const stale = createTools(backend, { dialect: 'gemini', session: createSession() });
      expect((await stale.run('write_file', { file_path: '/a.txt', content: 'b\n' })).isError).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('b\n');
    });

    it('refuses an omission placeholder in write_file content or a replace new_string, as Gemini CLI does, writing nothing', async () => {
      const backend = await make({ files: { '/a.js': 'class A {\n  run() {}\n}\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      const written = await tools.run('write_file', { file_path: '/b.js', content: 'class B {\n  // rest of methods ...\n}\n' });
      expect(written.text).toBe(
        "Error: EINVAL: `content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
      );
      const args = { file_path: '/a.js', old_string: '  run() {}\n', new_string: '  run() {}\n  (unchanged code ...)\n', instruction: 'x' };
      expect((await tools.run('replace', args)).text).toBe(
        "Error: EINVAL: `new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
      );
      expect(await backend.exists('/b.js')).toBe(false);
      expect(await backend.readText('/a.js')).toBe('class A {\n  run() {}\n}\n');
      // One the old_string has too is kept as it is; text that only mentions one is no placeholder.
      await backend.writeFile('/c.js', 'x\n// rest of code ...\n');
      const kept = await tools.run('replace', {
        file_path: '/c.js',
        old_string: 'x\n// rest of code ...',
        new_string: 'y\n// rest of code ...',
        instruction: 'x',
      });
      expect(kept.isError, kept.text).toBe(false);
      expect((await tools.run('write_file', { file_path: '/d.js', content: 'return v; // rest of methods ...\n' })).isError).toBe(false);
    });

    it('write_file over a file whose lines end in CRLF writes CRLF, as Gemini CLI does; a new file gets the lines as given', async () => {
      const backend = await make({ files: { '/w.txt': 'a\r\nb\r\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      expect((await tools.run('write_file', { file_path: '/w.txt', content: 'x\ny\n' })).isError).toBe(false);
      expect(await backend.readText('/w.txt')).toBe('x\r\ny\r\n');
      await tools.run('write_file', { file_path: '/n.txt', content: 'x\ny\n' });
      expect(await backend.readText('/n.txt')).toBe('x\ny\n');
    });

    it('read_many_files matches its globs in either case, as Gemini CLI does (nocase)', async () => {
      const backend = await make({ files: { '/src/a.ts': 'a\n', '/src/B.TS': 'b\n', '/src/c.js': 'c\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      const text = await tools.call('read_many_files', { include: ['src/*.ts'], exclude: ['**/A.TS'] });
      expect(text).toContain('--- /src/B.TS ---');
      expect(text).not.toContain('/src/a.ts');
      expect(text).not.toContain('/src/c.js');
    });
  });
}
