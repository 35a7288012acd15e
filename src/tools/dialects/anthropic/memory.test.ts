import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../../backend/state-backend.ts';
import { isVfsError } from '../../../errors.ts';
import { ReadVersions } from '../../read-versions.ts';
import { MAX_RESULT_CHARS } from '../../definitions.ts';
import { createTools } from '../../create-tools.ts';
import type { DialectCall } from './context.ts';
import { formatSize, runMemory, type MemoryArgs } from './memory.ts';

/**
 * The memory tool against Anthropic's SDK: the cases of anthropic-sdk-python
 * tests/lib/tools/memory_tools/test_filesystem.py (BetaLocalFilesystemMemoryTool, the sync ones),
 * ported, with expected texts as that test file and src/anthropic/lib/tools/_beta_builtin_memory_tool.py
 * ("the SDK" below) give them, commit 009b035.
 */

function session(files: Record<string, string> = {}) {
  const backend = createStateBackend({ files });
  const reads = new ReadVersions();
  const run = async (args: MemoryArgs) => {
    const call: DialectCall = { backend, reads, changed: [] };
    try {
      return await runMemory(call, args);
    } catch (e) {
      if (isVfsError(e)) return `Error: ${e.code}: ${e.message}`;
      throw e;
    }
  };
  return { backend, run };
}

describe('test_filesystem.py (anthropic-sdk-python)', () => {
  it('test_create, test_create_nested_directories, test_create_error_if_file_already_exists', async () => {
    const { backend, run } = session();
    expect(await run({ command: 'create', path: '/memories/test_file.txt', file_text: 'Hello, World!' })).toBe(
      'File created successfully at: /memories/test_file.txt',
    );
    expect(await backend.readText('/memories/test_file.txt')).toBe('Hello, World!');
    expect(await run({ command: 'create', path: '/memories/deep/nested/file.txt', file_text: 'Nested file' })).toBe(
      'File created successfully at: /memories/deep/nested/file.txt',
    );
    await run({ command: 'create', path: '/memories/existing.txt', file_text: 'Original' });
    expect(await run({ command: 'create', path: '/memories/existing.txt', file_text: 'New' })).toBe(
      'Error: EEXIST: File /memories/existing.txt already exists',
    );
    expect(await backend.readText('/memories/existing.txt')).toBe('Original');
  });

  it('test_view_file, test_view_file_with_range, test_view_error_for_non_existent_file', async () => {
    const { run } = session({ '/memories/view_test.txt': 'Line 1\nLine 2\nLine 3', '/memories/range_test.txt': 'Line 1\nLine 2\nLine 3\nLine 4\nLine 5' });
    expect(await run({ command: 'view', path: '/memories/view_test.txt' })).toBe(
      "Here's the content of /memories/view_test.txt with line numbers:\n     1\tLine 1\n     2\tLine 2\n     3\tLine 3",
    );
    expect(await run({ command: 'view', path: '/memories/range_test.txt', view_range: [2, 4] })).toBe(
      "Here's the content of /memories/range_test.txt with line numbers:\n     2\tLine 2\n     3\tLine 3\n     4\tLine 4",
    );
    expect(await run({ command: 'view', path: '/memories/nonexistent.txt' })).toBe(
      'Error: ENOENT: The path /memories/nonexistent.txt does not exist. Please provide a valid path.',
    );
  });

  it('a view over the result cap shows the lines that fit and the view_range of the next ones', async () => {
    const { run } = session({ '/memories/log.md': `${Array.from({ length: 5000 }, (_, i) => `entry ${i + 1} ${'z'.repeat(40)}`).join('\n')}\n` });
    const out = await run({ command: 'view', path: '/memories/log.md' });
    expect(out.length).toBeLessThanOrEqual(80_000);
    const shown = out.split('\n').filter((l) => /^ +\d+\tentry /.test(l)).length;
    expect(out).toMatch(
      new RegExp(
        `\\n\\[lines 1-${shown} of 5000 shown: the result is capped at 80,000 characters; view_range \\[${shown + 1}, -1\\] shows the next ones\\]\\n`,
      ),
    );
  });

  it('test_view_directory', async () => {
    const { run } = session({ '/memories/dir/file1.txt': 'File 1', '/memories/dir/file2.txt': 'File 2' });
    const out = await run({ command: 'view', path: '/memories/dir' });
    expect(out).toContain("Here're the files and directories up to 2 levels deep in /memories/dir");
    expect(out).toContain('/memories/dir/file1.txt');
    expect(out).toContain('/memories/dir/file2.txt');
  });

  it('test_str_replace and its errors (not found, several times, no file)', async () => {
    const { backend, run } = session({
      '/memories/replace_test.txt': 'Line 1\nOld Text\nLine 3',
      '/memories/hello.txt': 'Hello, World!',
      '/memories/twice.txt': 'Hello\nMiddle\nHello',
      '/memories/overlap.txt': 'aaaa\nx\naa\n',
    });
    expect(await run({ command: 'str_replace', path: '/memories/replace_test.txt', old_str: 'Old Text', new_str: 'New Text' })).toBe(
      'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tLine 1\n     2\tNew Text\n     3\tLine 3',
    );
    expect(await backend.readText('/memories/replace_test.txt')).toBe('Line 1\nNew Text\nLine 3');
    expect(await run({ command: 'str_replace', path: '/memories/hello.txt', old_str: 'NotFound', new_str: 'Python' })).toBe(
      'Error: ENOMATCH: No replacement was performed, old_str `NotFound` did not appear verbatim in /memories/hello.txt.\n' +
        'No line resembles the first line of old_str.\n' +
        'Use the view command to see the file, then copy old_str exactly, including whitespace and indentation.',
    );
    expect(await run({ command: 'str_replace', path: '/memories/twice.txt', old_str: 'Hello', new_str: 'Hi' })).toBe(
      'Error: EAMBIGUOUS: No replacement was performed. Multiple occurrences of old_str `Hello` in lines: 1, 3. Please ensure it is unique',
    );
    // The SDK counts matches with str.count (two in "aaaa") but lists the line of every start, overlapping ones too.
    expect(await run({ command: 'str_replace', path: '/memories/overlap.txt', old_str: 'aa', new_str: 'b' })).toBe(
      'Error: EAMBIGUOUS: No replacement was performed. Multiple occurrences of old_str `aa` in lines: 1, 3. Please ensure it is unique',
    );
    expect(await run({ command: 'str_replace', path: '/memories/nonexistent.txt', old_str: 'old', new_str: 'new' })).toBe(
      'Error: ENOENT: The path /memories/nonexistent.txt does not exist. Please provide a valid path.',
    );
  });

  it('test_insert, at the beginning, at the end, and its errors: the file ends with a line break, as the SDK writes it', async () => {
    const files = { '/memories/a.txt': 'Line 1\nLine 2', '/memories/b.txt': 'Line 1\nLine 2', '/memories/c.txt': 'Line 1\nLine 2' };
    const { backend, run } = session(files);
    expect(await run({ command: 'insert', path: '/memories/a.txt', insert_line: 1, insert_text: 'Inserted Line' })).toBe(
      'The file /memories/a.txt has been edited.',
    );
    expect(await backend.readText('/memories/a.txt')).toBe('Line 1\nInserted Line\nLine 2\n');
    await run({ command: 'insert', path: '/memories/b.txt', insert_line: 0, insert_text: 'First Line' });
    expect(await backend.readText('/memories/b.txt')).toBe('First Line\nLine 1\nLine 2\n');
    await run({ command: 'insert', path: '/memories/c.txt', insert_line: 2, insert_text: 'Last Line' });
    expect(await backend.readText('/memories/c.txt')).toBe('Line 1\nLine 2\nLast Line\n');
    expect(await run({ command: 'insert', path: '/memories/nonexistent.txt', insert_line: 0, insert_text: 'text' })).toBe(
      'Error: ENOENT: The path /memories/nonexistent.txt does not exist. Please provide a valid path.',
    );
    expect(await run({ command: 'insert', path: '/memories/c.txt', insert_line: 10, insert_text: 'text' })).toBe(
      'Error: EINVAL: Invalid `insert_line` parameter: 10. It should be within the range of lines of the file: [0, 3]',
    );
  });

  it('test_delete, test_delete_directory, test_delete_error_when_file_not_found, test_delete_not_allow_deleting_memories_directory', async () => {
    const { backend, run } = session({ '/memories/delete_me.txt': 'To be deleted', '/memories/subdir/file.txt': 'Content' });
    expect(await run({ command: 'delete', path: '/memories/delete_me.txt' })).toBe('Successfully deleted /memories/delete_me.txt');
    expect(await run({ command: 'delete', path: '/memories/subdir' })).toBe('Successfully deleted /memories/subdir');
    expect(await backend.exists('/memories/subdir/file.txt')).toBe(false);
    expect(await run({ command: 'delete', path: '/memories/nonexistent.txt' })).toBe('Error: ENOENT: The path /memories/nonexistent.txt does not exist');
    expect(await run({ command: 'delete', path: '/memories' })).toBe('Error: EINVAL: Cannot delete the /memories directory itself');
  });

  it('test_rename, test_rename_to_nested_path, and its errors (no source, destination exists)', async () => {
    const { backend, run } = session({
      '/memories/old_name.txt': 'Original content',
      '/memories/file.txt': 'Content',
      '/memories/file1.txt': 'File 1',
      '/memories/file2.txt': 'File 2',
    });
    expect(await run({ command: 'rename', old_path: '/memories/old_name.txt', new_path: '/memories/new_name.txt' })).toBe(
      'Successfully renamed /memories/old_name.txt to /memories/new_name.txt',
    );
    expect(await backend.readText('/memories/new_name.txt')).toBe('Original content');
    expect(await run({ command: 'rename', old_path: '/memories/file.txt', new_path: '/memories/nested/dir/file.txt' })).toBe(
      'Successfully renamed /memories/file.txt to /memories/nested/dir/file.txt',
    );
    expect(await backend.readText('/memories/nested/dir/file.txt')).toBe('Content');
    expect(await run({ command: 'rename', old_path: '/memories/nonexistent.txt', new_path: '/memories/new.txt' })).toBe(
      'Error: ENOENT: The path /memories/nonexistent.txt does not exist',
    );
    expect(await run({ command: 'rename', old_path: '/memories/file1.txt', new_path: '/memories/file2.txt' })).toBe(
      'Error: EEXIST: The destination /memories/file2.txt already exists',
    );
    expect(await backend.readText('/memories/file1.txt')).toBe('File 1');
  });

  it('test_path_validation_reject_paths_not_starting_with_memories, …_trying_to_escape_memories', async () => {
    const { backend, run } = session();
    expect(await run({ command: 'create', path: '/invalid/path.txt', file_text: 'Invalid' })).toBe(
      'Error: EINVAL: Path must start with /memories, got: /invalid/path.txt',
    );
    expect(await run({ command: 'create', path: '/memories/../../../etc/passwd', file_text: 'Escape attempt' })).toBe(
      'Error: EINVAL: Path /memories/../../../etc/passwd would escape /memories directory',
    );
    expect(await backend.exists('/invalid')).toBe(false);
    expect(await backend.exists('/etc')).toBe(false);
  });
});

describe('view of a directory', () => {
  // The SDK's view: "Here're …" header, then `{size}\t{path}` rows, directories with a trailing
  // slash, entries sorted by name at each level, hidden ones left out, two levels deep.
  // A directory's size: the files listed below it (deep/ is not entered: 0B); the SDK prints the block size.
  it('lists sizes two levels deep in name order, directories with a slash, no hidden entries nor node_modules', async () => {
    const { run } = session({
      '/memories/notes.xml': 'x'.repeat(1536),
      '/memories/zeta.xml': 'y'.repeat(2048),
      '/memories/projects/a.md': 'z'.repeat(100),
      '/memories/projects/deep/er/b.md': 'b',
      '/memories/.secret': 's',
      '/memories/node_modules/x.js': 'x',
      '/memories/projects/node_modules/y.js': 'y',
    });
    expect(await run({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n" +
        '3.6K\t/memories\n1.5K\t/memories/notes.xml\n100B\t/memories/projects/\n100B\t/memories/projects/a.md\n0B\t/memories/projects/deep/\n2K\t/memories/zeta.xml',
    );
  });

  it('an absent /memories views as empty and writes nothing (the SDK creates the directory up front)', async () => {
    const { backend, run } = session();
    expect(await run({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories",
    );
    expect(await backend.exists('/memories')).toBe(false);
  });
});

describe('confinement to /memories', () => {
  // Texts: the SDK's _validate_path. "/memoriesX/a" the SDK would read as /memories/X/a; here it is refused (docs/dialects.md).
  it('refuses paths outside it, traversal and look-alike prefixes, and changes nothing', async () => {
    const { backend, run } = session({ '/secret.txt': 's', '/memories/a.txt': 'a' });
    expect(await run({ command: 'view', path: '/secret.txt' })).toBe('Error: EINVAL: Path must start with /memories, got: /secret.txt');
    expect(await run({ command: 'view', path: '/memories/../secret.txt' })).toBe(
      'Error: EINVAL: Path /memories/../secret.txt would escape /memories directory',
    );
    expect(await run({ command: 'create', path: '/memoriesX/a', file_text: 'x' })).toBe('Error: EINVAL: Path /memoriesX/a would escape /memories directory');
    expect(await run({ command: 'rename', old_path: '/memories/a.txt', new_path: '/memories/../../b.txt' })).toContain('would escape /memories directory');
    expect(await run({ command: 'delete', path: '/memories/../secret.txt' })).toContain('would escape');
    expect(await backend.readText('/secret.txt')).toBe('s');
    expect(await backend.readText('/memories/a.txt')).toBe('a');
    expect(await backend.exists('/memoriesX')).toBe(false);
  });

  it('says why a path inside it is invalid (a NUL byte, a line break, a long name) rather than that it would escape', async () => {
    const { backend, run } = session({ '/memories/a.txt': 'a' });
    const long = `/memories/${'n'.repeat(256)}`;
    for (const [path, why] of [
      ['/memories/a\0b.txt', 'it contains a NUL byte'],
      ['/memories/a\nb.txt', 'it contains a line break'],
      [long, 'is over 255 bytes'],
    ] as const) {
      const out = await run({ command: 'create', path, file_text: 'x' });
      expect(out).toMatch(/^Error: EINVAL: Invalid path "/);
      expect(out).toContain(why);
      expect(out).not.toContain('would escape');
    }
    expect(await run({ command: 'rename', old_path: '/memories/a.txt', new_path: '/memories/b\0.txt' })).toContain('it contains a NUL byte');
    // A ".." that climbs out, also behind a backslash, still escapes.
    expect(await run({ command: 'view', path: '/memories\\..\\..\\x' })).toBe('Error: EINVAL: Path /memories\\..\\..\\x would escape /memories directory');
    expect(await backend.glob('**')).toEqual(['/memories/a.txt']);
  });
});

describe('view of a directory over the result cap', () => {
  it('shows what fits and says how many entries were left out', async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 5000; f++) files[`/memories/topic_with_a_very_long_name_${String(f).padStart(4, '0')}.md`] = 'y';
    const { run } = session(files);
    const out = await run({ command: 'view', path: '/memories' });
    expect(out.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const shown = out.split('\n').filter((r) => r.startsWith('1B\t/memories/topic_'));
    expect(shown.length).toBeGreaterThan(1000);
    expect(shown.at(-1)).toBe(`1B\t/memories/topic_with_a_very_long_name_${String(shown.length - 1).padStart(4, '0')}.md`);
    expect(
      out.endsWith(
        `\n[${shown.length} of 5000 entries shown: the result is capped at 80,000 characters; ${5000 - shown.length} of the entries directly in /memories are left out: it holds more than one result can list]`,
      ),
    ).toBe(true);
  });
});

describe('view of a directory over the result cap, with many directories left out', () => {
  it('keeps its note whole within the cap (a long list of directories to view, or a long path)', async () => {
    const files: Record<string, string> = {};
    const long = 'subdirectory_with_a_rather_long_descriptive_name_';
    for (let d = 0; d < 60; d++) for (let f = 0; f < 40; f++) files[`/memories/${long}${d}/file_number_${f}_with_some_extra_padding_text.txt`] = 'x';
    const deepDir = `/memories/${Array.from({ length: 12 }, (_, i) => `level_${i}_directory_name`).join('/')}`;
    for (let d = 0; d < 60; d++) for (let f = 0; f < 60; f++) files[`${deepDir}/sub_${'q'.repeat(40)}_${d}/f_${f}_${'p'.repeat(20)}.txt`] = 'x';
    const { run } = session(files);
    for (const path of ['/memories', deepDir]) {
      const out = await run({ command: 'view', path });
      expect(out.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
      expect(out).not.toContain('results truncated');
      expect(out).toMatch(/\n\[\d+ of \d+ entries shown: the result is capped at 80,000 characters; view \/memories\/[^,]+, .* to see what is in each\]$/);
    }
  });
});

describe('the memory directory itself', () => {
  it('is never made a file: create at /memories is refused, and a file there (written by other tools) may be deleted', async () => {
    const { backend, run } = session();
    for (const path of ['/memories', '/memories/', '/memories/a/..']) {
      expect(await run({ command: 'create', path, file_text: 'notes' })).toBe(
        'Error: EISDIR: /memories is the memory directory; create a file inside it, such as /memories/notes.md.',
      );
    }
    expect(await backend.exists('/memories')).toBe(false);
    expect(await run({ command: 'create', path: '/memories/notes.md', file_text: 'n\n' })).toBe('File created successfully at: /memories/notes.md');
    expect(await run({ command: 'create', path: '/memories', file_text: 'notes' })).toMatch(/^Error: EISDIR: \/memories is the memory directory/);
    await backend.mkdir('/memories/topics');
    expect(await run({ command: 'create', path: '/memories/topics', file_text: 'x' })).toBe(
      'Error: EISDIR: /memories/topics is a directory; create a file inside it, such as /memories/topics/notes.md.',
    );
    expect(await run({ command: 'delete', path: '/memories' })).toBe('Error: EINVAL: Cannot delete the /memories directory itself');
    await backend.remove('/memories', { recursive: true });
    await backend.writeFile('/memories', 'made by another tool');
    expect(await run({ command: 'delete', path: '/memories' })).toBe('Successfully deleted /memories');
    expect(await run({ command: 'create', path: '/memories/notes.md', file_text: 'n\n' })).toBe('File created successfully at: /memories/notes.md');
  });
});

describe('changed (SPEC §6)', () => {
  it('delete and rename of a directory name every file they took away (-1) or put at a path', async () => {
    const backend = createStateBackend({ files: { '/memories/d/a.md': 'a', '/memories/d/e/b.md': 'b' } });
    const changedBy = async (args: MemoryArgs) => {
      const call: DialectCall = { backend, reads: new ReadVersions(), changed: [] };
      await runMemory(call, args);
      return call.changed;
    };
    const version = async (path: string) => (await backend.stat(path)).version;
    expect(await changedBy({ command: 'rename', old_path: '/memories/d', new_path: '/memories/x' })).toEqual([
      { path: '/memories/d/a.md', version: -1 },
      { path: '/memories/d/e/b.md', version: -1 },
      { path: '/memories/x/a.md', version: await version('/memories/x/a.md') },
      { path: '/memories/x/e/b.md', version: await version('/memories/x/e/b.md') },
    ]);
    expect(await changedBy({ command: 'delete', path: '/memories/x' })).toEqual([
      { path: '/memories/x/a.md', version: -1 },
      { path: '/memories/x/e/b.md', version: -1 },
      { path: '/memories/x', version: -1 },
    ]);
  });

  it('a directory the session may delete but not list is recorded itself: changed is never empty for a removal', async () => {
    const backend = createStateBackend({ files: { '/memories/w/x.md': 'x' } });
    const tools = createTools(backend, { dialect: 'anthropic', permissions: { read: ['/memories', '/memories/w'], write: ['/**'] } });
    const result = await tools.run('memory', { command: 'delete', path: '/memories/w' });
    expect(result).toMatchObject({ isError: false, changed: [{ path: '/memories/w', version: -1 }] });
    expect(await backend.exists('/memories/w')).toBe(false);
    // Not even listable (only /memories is readable): still removed, and recorded.
    await backend.writeFile('/memories/v/y.md', 'y');
    const hidden = createTools(backend, { dialect: 'anthropic', permissions: { read: ['/memories'], write: ['/**'] } });
    expect(await hidden.run('memory', { command: 'delete', path: '/memories/v' })).toMatchObject({
      isError: false,
      changed: [{ path: '/memories/v', version: -1 }],
    });
  });
});

describe('formatSize', () => {
  // The SDK's _format_file_size: B/K/M/G by powers of 1024, "{int}" when whole, else one decimal.
  it('matches the SDK: whole numbers without a decimal, others with one', () => {
    expect([0, 5, 1024, 1536, 4096, 1_572_864, 3 * 1024 ** 3].map(formatSize)).toEqual(['0B', '5B', '1K', '1.5K', '4K', '1.5M', '3G']);
  });
});
