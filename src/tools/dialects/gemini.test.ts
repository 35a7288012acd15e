import { diffLines } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';
import { isWellFormed } from '../../text.ts';
import { updatedCodeSnippet } from './gemini/snippet.ts';
import { makePdf, makePng } from '../../../test/media-fixtures.ts';

/** The 'gemini' dialect: Gemini CLI's file tools, results worded as its packages/core/src/tools/*.ts word them. */
function tools(files: Record<string, string> = {}) {
  const backend = createStateBackend({ files, now: () => 0 });
  return { backend, tools: createTools(backend, { dialect: 'gemini' }) };
}

describe("dialect 'gemini'", () => {
  it('refuses an ignore, include or exclude list past 1000 patterns or 32768 characters at once (each was compiled or searched on its own)', async () => {
    const { tools: t } = tools({ '/a.txt': 'a\n' });
    const many = Array.from({ length: 100_000 }, () => '*.x');
    const nested = Array.from({ length: 50 }, () => `${'{'.repeat(2000)}a${'}'.repeat(2000)}`);
    for (const [name, args] of [
      ['list_directory', { dir_path: '/', ignore: many }],
      ['list_directory', { dir_path: '/', ignore: nested }],
      ['read_many_files', { include: nested }],
      ['read_many_files', { include: ['**'], exclude: many }],
    ] as const) {
      expect(await t.call(name, args)).toMatch(
        /^Error: EINVAL: "(ignore|include|exclude)" holds \d+ patterns \(\d+ characters\), over the limit of 1000 patterns/,
      );
    }
    expect(await t.call('list_directory', { dir_path: '/', ignore: Array.from({ length: 1000 }, (_, i) => `x${i}`) })).toContain('a.txt');
  });

  it("has Gemini CLI's tool names", () => {
    expect(tools().tools.definitions.map((d) => d.name)).toEqual([
      'read_file',
      'write_file',
      'replace',
      'glob',
      'grep_search',
      'list_directory',
      'read_many_files',
    ]);
  });

  it('takes arguments as a JSON string, older names included, as the other dialects do', async () => {
    const { tools: t } = tools({ '/d/a.txt': 'x\n' });
    expect(await t.call('read_file', '{"file_path":"/d/a.txt"}')).toBe('x\n');
    expect(await t.call('read_file', '{"absolute_path":"/d/a.txt","offset":0,"limit":1}')).toContain('x');
    expect(await t.call('list_directory', '{"path":"/d"}')).toBe('Directory listing for /d:\na.txt (2 bytes)');
    expect(await t.call('read_many_files', '{"paths":["/d/a.txt"]}')).toContain('--- /d/a.txt ---');
    expect(await t.call('read_file', 'not json')).toBe('Error: EINVAL: arguments for read_file must be a JSON object; got a string that is not valid JSON.');
    // JSON that is no object is refused as what it is.
    expect(await t.call('read_file', '"abc"')).toBe('Error: EINVAL: arguments for read_file must be an object, got string.');
  });

  it('read_file returns the text, and says how to continue when a range is shown', async () => {
    const { tools: t } = tools({ '/a.txt': 'one\ntwo\nthree\n' });
    // Split as Gemini CLI splits: the final newline makes a fourth, empty line, so the text comes back whole.
    expect(await t.call('read_file', { file_path: '/a.txt' })).toBe('one\ntwo\nthree\n');
    expect(await t.call('read_file', { file_path: 'a.txt', start_line: 2, end_line: 2 })).toBe(
      '\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 2-2 of 4 total lines.\n' +
        "Action: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: 3.\n\n" +
        '--- FILE CONTENT (truncated) ---\ntwo',
    );
    expect(await t.call('read_file', { file_path: '/b.txt' })).toBe('Error: ENOENT: File not found: /b.txt. Use list_directory or glob to see what exists.');
    expect(await t.call('list_directory', { dir_path: '/src' })).toBe(
      'Error: ENOENT: Directory not found or inaccessible: /src. Use list_directory or glob to see what exists.',
    );
    // A range that reaches the end sends the model nowhere past it (Gemini CLI would say start_line: 5).
    expect(await t.call('read_file', { file_path: 'a.txt', start_line: 3 })).toBe(
      '\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 3-4 of 4 total lines.\n' +
        'Action: This is the end of the file (line 4); there is nothing after it to read.\n\n' +
        '--- FILE CONTENT (truncated) ---\nthree\n',
    );
    // Over the result cap, the range is the lines shown, and start_line goes on from there.
    const { tools: capped } = tools({ '/a.txt': Array.from({ length: 1500 }, (_, i) => `L${i + 1} ${'x'.repeat(95)}`).join('\n') });
    for (const args of [{ file_path: '/a.txt', start_line: 2 }, { file_path: '/a.txt' }]) {
      const out = await capped.call('read_file', args);
      expect(out.length).toBeLessThanOrEqual(80_000);
      const [, from, to] = /Status: Showing lines (\d+)-(\d+) of 1500 total lines\./.exec(out)!;
      expect(Number(from)).toBe(args.start_line ?? 1);
      expect(Number(to)).toBeLessThan(1000);
      expect(out).toContain(`use start_line: ${Number(to) + 1}.`);
      expect(out.endsWith(`\nL${to} ${'x'.repeat(95)}`)).toBe(true);
    }
    const { tools: long } = tools({ '/long.txt': `${'b'.repeat(2500)}\nshort\n` });
    expect(await long.call('read_file', { file_path: '/long.txt' })).toMatch(
      /^\nIMPORTANT: .*\nStatus: Showing lines 1-3 of 3 total lines\.\nAction: This is the end of the file \(line 3\); there is nothing after it to read\. Lines over 2000 characters are cut \("\.\.\. \[truncated\]"\); read_file cannot show the rest of them\.\n\n--- FILE CONTENT \(truncated\) ---\nb{2000}\.\.\. \[truncated\]\nshort\n$/,
    );
  });

  it('write_file creates or overwrites with no prior read, but not over a change since this session saw the file', async () => {
    const { backend, tools: t } = tools({ '/a.txt': 'old\n' });
    expect(await t.call('write_file', { file_path: '/new/b.txt', content: 'b\n' })).toBe(
      'Successfully created and wrote to new file: /new/b.txt. Here is the updated code:\nb\n',
    );
    expect(await t.call('write_file', { file_path: '/a.txt', content: 'mine\n' })).toBe(
      'Successfully overwrote file: /a.txt. Here is the updated code:\nmine\n',
    );
    await backend.writeFile('/a.txt', 'theirs\n');
    const stale = await t.run('write_file', { file_path: '/a.txt', content: 'mine again\n' });
    expect(stale.code).toBe('ESTALE');
    expect(await backend.readText('/a.txt')).toBe('theirs\n');
  });

  it("a success's updated code over a fifth of the result cap is cut at a line, with the count of lines left out, not as a failed search", async () => {
    const { backend, tools: t } = tools();
    const content = `${Array.from({ length: 5000 }, (_, i) => `line number ${i} of the new file`).join('\n')}\n`;
    const out = await t.call('write_file', { file_path: '/new.txt', content });
    expect(out.length).toBeLessThan(16_500);
    const rows = out.split('\n');
    const shown = rows.filter((r) => r.startsWith('line number ')).length;
    expect(rows.slice(1, -1)).toEqual(content.split('\n').slice(0, shown));
    expect(rows.at(-1)).toBe(`... [${5000 - shown} more lines of the updated code are not shown; the file was written whole: read_file shows it]`);
    expect(await backend.readText('/new.txt')).toBe(content);
    const long = await t.call('write_file', { file_path: '/one.txt', content: 'x'.repeat(30_000) });
    expect(long).toBe(
      `Successfully created and wrote to new file: /one.txt. Here is the updated code:\n${'x'.repeat(16_000)}\n... [the rest of its 30000-character first line is not shown; the file was written whole: read_file shows it]`,
    );
    // A replace of many places: the snippet's "..." rows between its regions are not counted as lines.
    const many = `${Array.from({ length: 3000 }, (_, i) => (i % 20 === 0 ? `target ${i}` : `filler line ${i} of the file`)).join('\n')}\n`;
    await backend.writeFile('/many.txt', many);
    await t.call('read_file', { file_path: '/many.txt' });
    const replaced = await t.call('replace', { file_path: '/many.txt', instruction: 'i', old_string: 'target', new_string: 'TARGET', allow_multiple: true });
    const shownRows = replaced.split('\n').slice(1, -1);
    const snippetLines = 150 * 11 - 5; // each of the 150 changed lines with 5 around it (the first has none above), "..." between them
    expect(replaced.split('\n').at(-1)).toBe(
      `... [${snippetLines - shownRows.filter((r) => r !== '...').length} more lines of the updated code are not shown; the file was written whole: read_file shows it]`,
    );
    // Under it, as Gemini CLI gives it: the whole new file.
    expect(await t.call('write_file', { file_path: '/small.txt', content: 'a\nb\n' })).toBe(
      'Successfully created and wrote to new file: /small.txt. Here is the updated code:\na\nb\n',
    );
  });

  it('replace: one occurrence, allow_multiple, the legacy expected_replacements, and the vendor errors', async () => {
    const { backend, tools: t } = tools({ '/a.ts': 'let x = 1;\nlet y = 1;\n' });
    expect(await t.call('replace', { file_path: '/a.ts', instruction: 'x to 2', old_string: 'x = 1', new_string: 'x = 2' })).toBe(
      'Successfully modified file: /a.ts (1 replacements). Here is the updated code:\nlet x = 2;\nlet y = 1;\n',
    );
    expect(await t.call('replace', { file_path: '/a.ts', instruction: 'i', old_string: 'let', new_string: 'const' })).toBe(
      "Error: EAMBIGUOUS: Failed to edit, Expected 1 occurrence but found 2 for old_string in file: /a.ts. If you intended to replace multiple occurrences, set 'allow_multiple' to true.",
    );
    expect(await t.call('replace', { file_path: '/a.ts', instruction: 'i', old_string: 'let', new_string: 'var', expected_replacements: 3 })).toBe(
      'Error: EAMBIGUOUS: Failed to edit, Expected 3 occurrences but found 2 for old_string in file: /a.ts',
    );
    expect(await t.call('replace', { file_path: '/a.ts', instruction: 'i', old_string: 'let', new_string: 'const', expected_replacements: 2 })).toBe(
      'Successfully modified file: /a.ts (2 replacements). Here is the updated code:\nconst x = 2;\nconst y = 1;\n',
    );
    expect(await t.call('replace', { file_path: '/a.ts', instruction: 'i', old_string: 'nope', new_string: 'x' })).toBe(
      "Error: ENOMATCH: Failed to edit, 0 occurrences found for old_string in /a.ts. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.\n" +
        'No line resembles the first line of old_string.',
    );
    // Gemini CLI's sentence, then the closest lines every agentvfs edit tool gives.
    expect(await t.call('replace', { file_path: '/a.ts', instruction: 'i', old_string: 'let x = 3;', new_string: 'x' })).toBe(
      "Error: ENOMATCH: Failed to edit, 0 occurrences found for old_string in /a.ts. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.\n" +
        'Closest lines (most similar first):\n1: const x = 2;',
    );
    expect(await backend.readText('/a.ts')).toBe('const x = 2;\nconst y = 1;\n');
    expect(await t.call('replace', { file_path: '/c.ts', instruction: 'new', old_string: '', new_string: 'c\n' })).toBe(
      'Created new file: /c.ts with provided content. Here is the updated code:\nc\n',
    );
    expect(await t.call('replace', { file_path: '/c.ts', instruction: 'new', old_string: '', new_string: 'c\n' })).toBe(
      'Error: EEXIST: File already exists, cannot create: /c.ts',
    );
  });

  it('replace uses the shared corrections (a pasted read_file prefix) and says which', async () => {
    const { backend, tools: t } = tools({ '/q.md': 'Say “hi”\n' });
    const out = await t.call('replace', { file_path: '/q.md', instruction: 'i', old_string: 'Say "hi"', new_string: 'Say "bye"' });
    expect(out).toContain('Successfully modified file: /q.md (1 replacements). Matched after treating typographic quotes');
    expect(out).toMatch(/ Here is the updated code:\nSay “bye”\n$/); // the note comes before the code, never inside it
    expect(await backend.readText('/q.md')).toBe('Say “bye”\n');
  });

  it('glob lists absolute paths newest first; nothing found is not an error', async () => {
    const { tools: t } = tools({ '/src/a.ts': '', '/src/b.js': '', '/lib/.keep': '' });
    expect(await t.call('glob', { pattern: '**/*.ts' })).toBe(
      'Found 1 file(s) matching "**/*.ts" within /, sorted by modification time (newest first):\n/src/a.ts',
    );
    expect(await t.call('glob', { pattern: '*.py', dir_path: '/src' })).toBe('No files found matching pattern "*.py" within /src');
    // Gemini CLI's sentence, then the pattern that finds the files deeper, as agentvfs's glob gives it.
    expect(await t.call('glob', { pattern: '*.ts' })).toBe(
      'No files found matching pattern "*.ts" within /. The pattern matches at one directory depth only ("*" does not cross "/"); "**/*.ts" matches at any depth: 1 file, e.g. /src/a.ts. Retry with pattern "**/*.ts".',
    );
    // A directory outside the one searched is named with Gemini's argument.
    expect(await t.call('glob', { pattern: '/src/*.TS', dir_path: '/lib' })).toMatch(
      /with dir_path "\/src" and pattern "\*\.TS" it matches 1 file, e\.g\. \/src\/a\.ts\. Retry with those\.$/,
    );
  });

  it("glob's retry hint looks as the glob does: in either case by default, never at files .geminiignore leaves out", async () => {
    const { tools: t } = tools({ '/src/a.ts': '', '/gen/b.ts': '' });
    // Names match in either case: "**/*.TS" finds /src/a.ts, so the hint says so.
    expect(await t.call('glob', { pattern: '*.TS' })).toBe(
      'No files found matching pattern "*.TS" within /. The pattern matches at one directory depth only ("*" does not cross "/"); "**/*.TS" matches at any depth: 2 files, e.g. /gen/b.ts. Retry with pattern "**/*.TS".',
    );
    const { tools: ignoring } = tools({ '/src/a.ts': '', '/gen/b.ts': '', '/.geminiignore': 'gen/\n' });
    // /gen/b.ts is left out of every glob: it is neither named nor counted by the hint.
    expect(await ignoring.call('glob', { pattern: '*.ts' })).toBe(
      'No files found matching pattern "*.ts" within /. The pattern matches at one directory depth only ("*" does not cross "/"); "**/*.ts" matches at any depth: 1 file, e.g. /src/a.ts. Retry with pattern "**/*.ts".',
    );
    const { tools: allIgnored } = tools({ '/gen/b.ts': '', '/.geminiignore': 'gen/\n' });
    expect(await allIgnored.call('glob', { pattern: '*.ts' })).toBe('No files found matching pattern "*.ts" within /');
  });

  it('glob takes a pattern that names an existing file literally, as Gemini CLI escapes it', async () => {
    const { tools: t } = tools({ '/file[1].txt': 'literal', '/file1.txt': 'one', '/sub/file[1].txt': 'deeper' });
    expect(await t.call('glob', { pattern: 'file[1].txt' })).toBe(
      'Found 1 file(s) matching "file[1].txt" within /, sorted by modification time (newest first):\n/file[1].txt',
    );
    expect(await t.call('glob', { pattern: 'file[1].txt', dir_path: '/sub' })).toBe(
      'Found 1 file(s) matching "file[1].txt" within /sub, sorted by modification time (newest first):\n/sub/file[1].txt',
    );
    // A pattern that names no file is a pattern: [1] is a character class.
    expect((await t.call('glob', { pattern: '**/file[12].txt' })).split('\n').slice(1).sort()).toEqual(['/file1.txt']);
  });

  it('grep_search groups matches by file with L<n>: lines, context lines with -, case-insensitive by default', async () => {
    const { tools: t } = tools({ '/src/a.ts': 'import x\nconst Foo = 1;\nexport { Foo }\n', '/src/b.ts': 'nothing\n' });
    expect(await t.call('grep_search', { pattern: 'foo', dir_path: '/src' })).toBe(
      'Found 2 matches for pattern "foo" in path "/src":\n---\nFile: /src/a.ts\nL2: const Foo = 1;\nL3: export { Foo }\n---',
    );
    expect(await t.call('grep_search', { pattern: 'Foo', case_sensitive: true, before: 1, exclude_pattern: 'export' })).toBe(
      'Found 1 match for pattern "Foo" in the workspace directory:\n---\nFile: /src/a.ts\nL1- import x\nL2: const Foo = 1;\n---',
    );
    expect(await t.call('grep_search', { pattern: 'o', names_only: true, include_pattern: '*.ts' })).toBe(
      'Found 2 files with matches for pattern "o" in the workspace directory (filter: "*.ts"):\n/src/a.ts\n/src/b.ts',
    );
    expect(await t.call('grep_search', { pattern: 'zzz' })).toBe('No matches found for pattern "zzz" in the workspace directory.');
  });

  it('accepts search_file_content and its older path/include parameters as grep_search', async () => {
    const { tools: t } = tools({ '/src/a.ts': 'hello\n', '/docs/a.md': 'hello\n' });
    expect(await t.call('search_file_content', { pattern: 'hello', path: '/src', include: '*.ts' })).toBe(
      'Found 1 match for pattern "hello" in path "/src" (filter: "*.ts"):\n---\nFile: /src/a.ts\nL1: hello\n---',
    );
  });

  it("accepts the older parameters models still send: read_file's absolute_path and 0-based offset/limit, replace without instruction, glob's, list_directory's and read_many_files's older names", async () => {
    const files = { '/p/a.txt': 'one\ntwo\nthree\nfour\n', '/p/b.md': 'bee\n' };
    const { tools: now } = tools(files);
    const { tools: old } = tools(files);
    // The same answer as the current parameters give.
    const same = async (name: string, older: object, current: object) => expect(await old.call(name, older)).toBe(await now.call(name, current));
    await same('read_file', { absolute_path: '/p/a.txt' }, { file_path: '/p/a.txt' });
    await same('read_file', { path: '/p/a.txt', offset: 1, limit: 2 }, { file_path: '/p/a.txt', start_line: 2, end_line: 3 });
    await same('read_file', { absolute_path: '/p/a.txt', offset: 2 }, { file_path: '/p/a.txt', start_line: 3 });
    await same('read_file', { absolute_path: '/p/a.txt', limit: 1 }, { file_path: '/p/a.txt', start_line: 1, end_line: 1 });
    await same('glob', { pattern: '*.md', path: '/p' }, { pattern: '*.md', dir_path: '/p' });
    await same('list_directory', { path: '/p' }, { dir_path: '/p' });
    await same('read_many_files', { paths: ['p/b.md'], include: ['p/a.txt'] }, { include: ['p/b.md', 'p/a.txt'] });
    expect(await old.call('replace', { file_path: '/p/b.md', old_string: 'bee', new_string: 'bea', expected_replacements: 1 })).toBe(
      'Successfully modified file: /p/b.md (1 replacements). Here is the updated code:\nbea\n',
    );
    expect(await old.call('read_file', { absolute_path: '/p/a.txt', offset: -1 })).toBe(
      'Error: EINVAL: offset must be a 0-based line number (an integer of at least 0), got -1',
    );
    expect(await old.call('read_file', { file_path: '/p/a.txt', offset: 1, start_line: 2 })).toBe(
      'Error: EINVAL: give start_line and end_line, or the older offset and limit, not both',
    );
  });

  it('grep_search never hangs on a pathological pattern', async () => {
    const { tools: t } = tools({ '/a.txt': `${'a'.repeat(50_000)}!\n` });
    const out = await t.run('grep_search', { pattern: '(a+)+$' });
    expect(out.isError || out.text.startsWith('No matches found')).toBe(true);
  });

  it('list_directory lists directories first, with sizes, honouring ignore', async () => {
    const { tools: t } = tools({ '/p/src/x.ts': '', '/p/b.log': 'log', '/p/a.md': 'hello' });
    expect(await t.call('list_directory', { dir_path: '/p' })).toBe('Directory listing for /p:\n[DIR] src\na.md (5 bytes)\nb.log (3 bytes)');
    // As Gemini CLI (tools/ls.ts): `ignore` matches entry names, directories too, and drops them without a count.
    expect(await t.call('list_directory', { dir_path: '/p', ignore: ['*.log', 'sr?'] })).toBe('Directory listing for /p:\na.md (5 bytes)');
    expect(await t.call('list_directory', { dir_path: '/p/a.md' })).toBe('Error: ENOTDIR: Path is not a directory: /p/a.md');
  });

  it('glob and grep_search without dir_path search the workspace directory, the cwd, as read_many_files reads it', async () => {
    const backend = createStateBackend({ cwd: '/proj', files: { '/proj/a.txt': 'hit\n', '/other/b.txt': 'hit\n' }, now: () => 0 });
    const t = createTools(backend, { dialect: 'gemini' });
    expect(await t.call('glob', { pattern: '**/*.txt' })).toBe(
      'Found 1 file(s) matching "**/*.txt" within /proj, sorted by modification time (newest first):\n/proj/a.txt',
    );
    expect(await t.call('grep_search', { pattern: 'hit' })).toBe(
      'Found 1 match for pattern "hit" in the workspace directory:\n---\nFile: /proj/a.txt\nL1: hit\n---',
    );
    expect(await t.call('glob', { pattern: '**/*.txt', dir_path: '/' })).toMatch(/\/other\/b\.txt/);
  });

  it('read_many_files concatenates with separators, skipping binaries and default excludes', async () => {
    const { backend, tools: t } = tools({ '/docs/a.md': '# A\n', '/docs/b.md': '# B\n', '/node_modules/x/README.md': 'dep\n' });
    await backend.writeFile('/docs/img.md', new Uint8Array([0, 1, 2]));
    expect(await t.call('read_many_files', { include: ['**/*.md'] })).toBe(
      '--- /docs/a.md ---\n\n# A\n\n--- /docs/b.md ---\n\n# B\n\n\n--- End of content ---',
    );
    expect(await t.call('read_many_files', { include: ['docs/'], exclude: ['**/b.md'] })).toBe('--- /docs/a.md ---\n\n# A\n\n\n--- End of content ---');
    expect(await t.call('read_many_files', { include: ['*.py'] })).toBe('No files matching the criteria were found or all were skipped.');
  });

  it('read_many_files leaves out images and PDFs by their bytes, even with no NUL byte in them (an all-ASCII PDF, a bare PNG signature)', async () => {
    const { backend, tools: t } = tools({ '/notes.txt': 'text notes\n' });
    await backend.writeFile('/report.pdf', makePdf());
    await backend.writeFile('/header.png', Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a));
    await backend.writeFile('/image.png', makePng(2, 2));
    expect(await t.call('read_many_files', { include: ['*'] })).toBe('--- /notes.txt ---\n\ntext notes\n\n\n--- End of content ---');
    expect(await t.call('read_many_files', { include: ['report.pdf', 'header.png'] })).toBe('No files matching the criteria were found or all were skipped.');
  });

  it("refuses what Gemini CLI's schemas refuse: an empty read_many_files include, a glob pattern of only spaces", async () => {
    const { tools: t } = tools({ '/a.txt': 'a\n' });
    expect(await t.call('read_many_files', { include: [] })).toBe(
      'Error: EINVAL: argument "include" of read_many_files must name at least one path or glob pattern, got [].',
    );
    expect(await t.call('read_many_files', { paths: [] })).toBe(
      'Error: EINVAL: argument "include" of read_many_files must name at least one path or glob pattern, got [].',
    );
    expect(await t.call('glob', { pattern: '  ' })).toBe('Error: EINVAL: The glob pattern is empty. Use "**/*" to match every file.');
    expect(await t.call('glob', { pattern: ' a.txt' })).toBe('No files found matching pattern " a.txt" within /');
  });

  it("read_many_files over the result cap cuts the file it reached with Gemini CLI's warning and names the files it did not read", async () => {
    // 1,500 lines (under Gemini CLI's 2,000-line cut) of 60 characters: 90,000 characters in all.
    const big = `${Array.from({ length: 1500 }, (_, i) => `row ${String(i + 1).padStart(4, '0')} ${'x'.repeat(51)}`).join('\n')}\n`;
    const { tools: t } = tools({ '/a.txt': 'first\n', '/b.txt': big, '/c.txt': 'third\n', '/d.txt': 'fourth\n' });
    const out = await t.call('read_many_files', { include: ['*.txt'] });
    expect(out.length).toBeLessThanOrEqual(80_000);
    expect(
      out.startsWith(
        "--- /a.txt ---\n\nfirst\n\n--- /b.txt ---\n\n[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\nrow 0001 ",
      ),
    ).toBe(true);
    expect(
      out.endsWith(
        '\n\n[Not read, as the result is capped at 80,000 characters: /c.txt, /d.txt. Read them with read_file or another read_many_files call.]\n\n--- End of content ---',
      ),
    ).toBe(true);
    expect(out).not.toContain('third');
  });

  it('read_many_files names how many it left unread when their names do not all fit, and still ends the content', async () => {
    const files: Record<string, string> = { '/a-big.txt': `${'b'.repeat(99)}\n`.repeat(790) };
    for (let i = 0; i < 100; i++) files[`/src/components/Component${String(i).padStart(3, '0')}.tsx`] = 'x\n';
    const { tools: t } = tools(files);
    const out = await t.call('read_many_files', { include: ['**/*'] });
    expect(out.length).toBeLessThanOrEqual(80_000);
    expect(out).toMatch(
      /\[Not read, as the result is capped at 80,000 characters: \/src\/components\/Component\d{3}\.tsx(, \/src\/components\/Component\d{3}\.tsx)*, and \d+ more\. Read them with read_file or another read_many_files call\.\]\n\n--- End of content ---$/,
    );
  });

  it('grep_search finds the matches .geminiignore leaves in, past any number of ignored ones, within its cap', async () => {
    const { tools: t } = tools({ '/.geminiignore': '# generated\ngen/\n', '/gen/big.txt': 'needle\n'.repeat(300), '/src/a.txt': 'needle\n' });
    expect(await t.call('grep_search', { pattern: 'needle', total_max_matches: 5 })).toBe(
      'Found 1 match for pattern "needle" in the workspace directory:\n---\nFile: /src/a.txt\nL1: needle\n---',
    );
    const { tools: onlyComments } = tools({ '/.geminiignore': '# nothing here\n\n', '/gen/a.txt': 'needle\n' });
    expect(await onlyComments.call('grep_search', { pattern: 'needle', names_only: true })).toBe(
      'Found 1 files with matches for pattern "needle" in the workspace directory:\n/gen/a.txt',
    );
  });
});

describe('Gemini lines cut at 2,000 characters', () => {
  it('never cut inside a surrogate pair: read_file and grep_search keep an emoji at the cut whole', async () => {
    // 'a' then emoji: character 2,000 is the first half of a pair.
    const line = `a${'😀'.repeat(1500)}`;
    const { tools: t } = tools({ '/long.txt': `${line}\n` });
    const kept = `a${'😀'.repeat(999)}... [truncated]`;
    const read = await t.call('read_file', { file_path: '/long.txt' });
    expect(read).toContain(`\n${kept}\n`);
    expect(isWellFormed(read)).toBe(true);
    const found = await t.call('grep_search', { pattern: '^a' });
    expect(found).toContain(`L1: ${kept}\n`);
    expect(isWellFormed(found)).toBe(true);
  });
});

describe("Gemini's read_file of media", () => {
  it('gives an image or a PDF as a part (Gemini CLI sends it as inlineData); other binary files as its sentence', async () => {
    const backend = createStateBackend({ files: { '/logo.png': makePng(2, 3), '/doc.pdf': makePdf(), '/data.bin': new Uint8Array([0, 1, 2]) } });
    const t = createTools(backend, { dialect: 'gemini' });
    const png = await t.run('read_file', { file_path: '/logo.png' });
    expect(png.isError).toBe(false);
    expect(png.parts).toEqual([expect.objectContaining({ type: 'image', mediaType: 'image/png' })]);
    expect((await t.run('read_file', { file_path: '/doc.pdf' })).parts).toEqual([expect.objectContaining({ type: 'file', mediaType: 'application/pdf' })]);
    expect(await t.call('read_file', { file_path: '/data.bin' })).toBe('Cannot display content of binary file: /data.bin');
  });
});

describe('the "updated code" snippet', () => {
  // Gemini CLI's getDiffContextSnippet (packages/core/src/tools/diff-utils.ts at 5411f11), as it is, over the real jsdiff.
  function vendorSnippet(originalContent: string, newContent: string, contextLines = 5): string {
    if (!originalContent) return newContent;
    const changes = diffLines(originalContent, newContent);
    const newLines = newContent.split(/\r?\n/);
    const ranges: Array<{ start: number; end: number }> = [];
    let newLineIdx = 0;
    for (const change of changes) {
      if (change.added) {
        ranges.push({ start: newLineIdx, end: newLineIdx + (change.count ?? 0) });
        newLineIdx += change.count ?? 0;
      } else if (change.removed) {
        ranges.push({ start: newLineIdx, end: newLineIdx });
      } else {
        newLineIdx += change.count ?? 0;
      }
    }
    if (ranges.length === 0) return newContent;
    const expandedRanges = ranges.map((r) => ({ start: Math.max(0, r.start - contextLines), end: Math.min(newLines.length, r.end + contextLines) }));
    expandedRanges.sort((a, b) => a.start - b.start);
    const mergedRanges: Array<{ start: number; end: number }> = [];
    let current = expandedRanges[0]!;
    for (let i = 1; i < expandedRanges.length; i++) {
      const next = expandedRanges[i]!;
      if (next.start <= current.end) current.end = Math.max(current.end, next.end);
      else {
        mergedRanges.push(current);
        current = next;
      }
    }
    mergedRanges.push(current);
    const outputParts: string[] = [];
    let lastEnd = 0;
    for (const range of mergedRanges) {
      if (range.start > lastEnd) outputParts.push('...');
      outputParts.push(newLines.slice(range.start, range.end).join('\n'));
      lastEnd = range.end;
    }
    if (lastEnd < newLines.length) outputParts.push('...');
    return outputParts.join('\n');
  }

  it('is what Gemini CLI shows, on random edits of a file (property)', () => {
    const text = fc
      .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', ''), { maxLength: 40 }), fc.boolean())
      .map(([lines, eol]) => (lines.length === 0 ? '' : `${lines.join('\n')}${eol ? '\n' : ''}`));
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(updatedCodeSnippet(before, after)).toBe(vendorSnippet(before, after));
      }),
      { numRuns: 2000 },
    );
  });
});
