import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../../backend/state-backend.ts';
import { isVfsError } from '../../../errors.ts';
import { ReadVersions } from '../../read-versions.ts';
import type { DialectCall } from './context.ts';
import { runTextEditor, type TextEditorArgs } from './text-editor.ts';
import { MAX_RESULT_CHARS } from '../../definitions.ts';
import { createTools } from '../../create-tools.ts';
import { TEXT_EDITOR_NAME } from './names.ts';

/**
 * The text editor against Anthropic's sources. Calls: the primes.py walkthrough of the "Text
 * editor tool" page (https://docs.anthropic.com/ja/docs/agents-and-tools/tool-use/text-editor-tool,
 * https://docs.claude.com/zh-CN/docs/agents-and-tools/tool-use/text-editor-tool) and the cases of
 * anthropic-quickstarts computer-use-demo/tests/tools/edit_test.py. Expected texts: the reference
 * implementation, anthropic-quickstarts computer-use-demo/computer_use_demo/tools/edit.py
 * (EditTool20250429, "edit.py" below), commit 44c2b5c.
 */

// A stand-in primes.py with the walkthrough's syntax error (a missing colon in get_primes): the
// page's view result was not available to check against, so only the calls below are the page's.
const PRIMES = [
  'def is_prime(n):',
  '    """Check if a number is prime."""',
  '    if n <= 1:',
  '        return False',
  '    if n <= 3:',
  '        return True',
  '    if n % 2 == 0 or n % 3 == 0:',
  '        return False',
  '    i = 5',
  '    while i * i <= n:',
  '        if n % i == 0 or n % (i + 2) == 0:',
  '            return False',
  '        i += 6',
  '    return True',
  '',
  'def get_primes(limit):',
  '    """Generate a list of prime numbers up to the given limit."""',
  '    primes = []',
  '    for num in range(2, limit + 1)',
  '        if is_prime(num):',
  '            primes.append(num)',
  '    return primes',
  '',
].join('\n');

function session(files: Record<string, string> = { '/primes.py': PRIMES }) {
  const backend = createStateBackend({ files });
  const reads = new ReadVersions();
  const run = async (args: TextEditorArgs) => {
    const call: DialectCall = { backend, reads, changed: [] };
    try {
      return await runTextEditor(call, args);
    } catch (e) {
      if (isVfsError(e)) return `Error: ${e.code}: ${e.message}`;
      throw e;
    }
  };
  return { backend, run };
}

describe('str_replace_based_edit_tool: the calls of the documentation walkthrough', () => {
  // Result wording: edit.py view (`_make_output`: "Here's the result of running `cat -n` on …", 6-wide numbers, a tab).
  it('view: {"command": "view", "path": "primes.py"} shows the file cat -n style', async () => {
    const { run } = session();
    const out = await run({ command: 'view', path: 'primes.py' });
    expect(out.startsWith("Here's the result of running `cat -n` on /primes.py:\n     1\tdef is_prime(n):\n")).toBe(true);
    expect(out).toContain('    19\t    for num in range(2, limit + 1)\n');
    expect(out.endsWith('    22\t    return primes\n')).toBe(true);
  });

  // Result wording: edit.py str_replace (the snippet: 4 lines either side, numbered from the file).
  it('str_replace: {"old_str": "for num in range(2, limit + 1)", "new_str": "for num in range(2, limit + 1):"} fixes the syntax error', async () => {
    const { backend, run } = session();
    const out = await run({
      command: 'str_replace',
      path: 'primes.py',
      old_str: 'for num in range(2, limit + 1)',
      new_str: 'for num in range(2, limit + 1):',
    });
    expect(out).toBe(
      "The file /primes.py has been edited. Here's the result of running `cat -n` on a snippet of /primes.py:\n" +
        '    15\t\n    16\tdef get_primes(limit):\n    17\t    """Generate a list of prime numbers up to the given limit."""\n    18\t    primes = []\n' +
        '    19\t    for num in range(2, limit + 1):\n' +
        '    20\t        if is_prime(num):\n    21\t            primes.append(num)\n    22\t    return primes\n' +
        'Review the changes and make sure they are as expected. Edit the file again if necessary.',
    );
    expect(await backend.readText('/primes.py')).toBe(PRIMES.replace('limit + 1)\n', 'limit + 1):\n'));
  });

  // Result wording: edit.py insert. The page's new_str ends with a line break, which here ends the
  // inserted block's last line (edit.py would add an empty line; docs/dialects.md).
  it('insert: the docstring at insert_line 0', async () => {
    const { backend, run } = session();
    const doc =
      '"""Module for working with prime numbers.\n\nThis module provides functions to check if a number is prime\nand to generate a list of prime numbers up to a given limit.\n"""\n';
    const out = await run({ command: 'insert', path: 'primes.py', insert_line: 0, new_str: doc });
    expect(
      out.startsWith('The file /primes.py has been edited. Here\'s the result of running `cat -n` on a snippet of the edited file:\n     1\t"""Module'),
    ).toBe(true);
    expect(
      out.endsWith('Review the changes and make sure they are as expected (correct indentation, no duplicate lines, etc). Edit the file again if necessary.'),
    ).toBe(true);
    expect(await backend.readText('/primes.py')).toBe(doc + PRIMES);
  });
});

describe('view', () => {
  it('a directory over the result cap: every entry of its first level, then what fits of the second, and a line naming what was left out', async () => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 30; d++) for (let f = 0; f < 150; f++) files[`/d/sub${String(d).padStart(2, '0')}/file_with_a_longish_name_${f}.txt`] = 'x';
    for (let f = 0; f < 1500; f++) files[`/d/top_${f}.txt`] = 'y';
    const { run } = session(files);
    const out = await run({ command: 'view', path: '/d' });
    expect(out.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const rows = out.split('\n');
    expect(rows.filter((r) => /^\/d\/(sub\d\d|top_\d+\.txt)$/.test(r))).toHaveLength(1530);
    const deep = rows.filter((r) => r.startsWith('/d/sub') && r.includes('/file_'));
    expect(deep.length).toBeGreaterThan(1000);
    // In place: each shown file right below its directory's row or another of its files.
    for (const row of deep) {
      const above = rows[rows.indexOf(row) - 1]!;
      expect(above === row.slice(0, row.lastIndexOf('/')) || above.startsWith(`${row.slice(0, row.lastIndexOf('/'))}/`)).toBe(true);
    }
    const missing = Array.from({ length: 30 }, (_, d) => `/d/sub${String(d).padStart(2, '0')}`).filter(
      (dir) => deep.filter((r) => r.startsWith(`${dir}/`)).length < 150,
    );
    expect(out).toMatch(
      new RegExp(
        `\\n\\[${1530 + deep.length} of 6030 entries shown: the result is capped at 80,000 characters; view ${missing[0]}, ${missing[1]}, .* to see what is in each\\]\\n\\n$`,
      ),
    );
  });

  it('view_range shows lines from its first to its second (-1: to the end), numbered as in the file', async () => {
    const { run } = session();
    expect(await run({ command: 'view', path: '/primes.py', view_range: [19, 20] })).toBe(
      "Here's the result of running `cat -n` on /primes.py:\n    19\t    for num in range(2, limit + 1)\n    20\t        if is_prime(num):\n",
    );
    expect(await run({ command: 'view', path: '/primes.py', view_range: [21, -1] })).toBe(
      "Here's the result of running `cat -n` on /primes.py:\n    21\t            primes.append(num)\n    22\t    return primes\n",
    );
  });

  it('refuses a view_range outside the file with the reference wording', async () => {
    const { run } = session();
    expect(await run({ command: 'view', path: '/primes.py', view_range: [0, 3] })).toBe(
      'Error: EINVAL: Invalid `view_range`: [0, 3]. Its first element `0` should be within the range of lines of the file: [1, 22]',
    );
    expect(await run({ command: 'view', path: '/primes.py', view_range: [1, 30] })).toBe(
      'Error: EINVAL: Invalid `view_range`: [1, 30]. Its second element `30` should be smaller than the number of lines in the file: `22`',
    );
    expect(await run({ command: 'view', path: '/primes.py', view_range: [5, 2] })).toContain('should be larger or equal than its first `5`');
    expect(await run({ command: 'view', path: '/primes.py', view_range: [1] })).toBe(
      'Error: EINVAL: Invalid `view_range`. It should be a list of two integers.',
    );
  });

  it('over the result cap, shows the lines that fit and the view_range of the next ones; a line too long to show is shown in part', async () => {
    const big = Array.from({ length: 5000 }, (_, i) => `row ${i + 1} ${'x'.repeat(40)}`).join('\n');
    const long = `${'y'.repeat(100_000)}`;
    const { run } = session({ '/big.txt': `${big}\n`, '/min.js': `${long}\n`, '/mixed.js': `short1\n${long}\nshort3\n` });
    const whole = await run({ command: 'view', path: '/big.txt' });
    expect(whole.length).toBeLessThanOrEqual(80_000);
    const shown = whole.split('\n').filter((l) => /^ +\d+\trow /.test(l)).length;
    expect(shown).toBeGreaterThan(1000);
    expect(
      whole.endsWith(
        `${String(shown).padStart(6)}\trow ${shown} ${'x'.repeat(40)}\n[lines 1-${shown} of 5000 shown: the result is capped at 80,000 characters; view_range [${shown + 1}, -1] shows the next ones]\n... [results truncated, try being more specific with your parameters]`,
      ),
    ).toBe(true);
    // The next range goes on from there, and names its own end when it was given one.
    const next = await run({ command: 'view', path: '/big.txt', view_range: [shown + 1, 4000] });
    expect(next).toContain(`\n${String(shown + 1).padStart(6)}\trow ${shown + 1} `);
    expect(next).toMatch(new RegExp(`\\[lines ${shown + 1}-(\\d+) of 5000 shown: .*; view_range \\[\\d+, 4000\\] shows the next ones\\]`));
    const minified = await run({ command: 'view', path: '/min.js' });
    expect(minified.length).toBeLessThanOrEqual(80_000);
    expect(minified).toMatch(
      /^Here's the result of running `cat -n` on \/min\.js:\n {5}1\ty{70000,}\n\[line 1 is 100,000 characters long; only its first [\d,]+ are shown, as the result is capped at 80,000 characters\]\n/,
    );
    const mixed = await run({ command: 'view', path: '/mixed.js' });
    expect(mixed).toMatch(
      /^Here's the result of running `cat -n` on \/mixed\.js:\n {5}1\tshort1\n\[lines 1-1 of 3 shown: .*; view_range \[2, -1\] shows the next ones\]\n/,
    );
    expect(await run({ command: 'view', path: '/mixed.js', view_range: [2, -1] })).toMatch(
      /\n {5}2\ty+\n\[line 2 is 100,000 characters long; only its first [\d,]+ are shown, as the result is capped at 80,000 characters; view_range \[3, -1\] shows the lines after it\]\n/,
    );
    expect(await run({ command: 'view', path: '/mixed.js', view_range: [3, 3] })).toBe("Here's the result of running `cat -n` on /mixed.js:\n     3\tshort3\n");
  });

  it('an empty file is one empty line, in view and in view_range (as edit.py splits it)', async () => {
    const { run } = session({ '/empty.txt': '' });
    expect(await run({ command: 'view', path: '/empty.txt' })).toBe("Here's the result of running `cat -n` on /empty.txt:\n     1\t\n");
    expect(await run({ command: 'view', path: '/empty.txt', view_range: [1, 1] })).toBe("Here's the result of running `cat -n` on /empty.txt:\n     1\t\n");
    expect(await run({ command: 'view', path: '/empty.txt', view_range: [2, 2] })).toMatch(/within the range of lines of the file: \[1, 1\]$/);
    // So an insert after that line is its start, and the range an insert names is [0, 1].
    expect(await run({ command: 'insert', path: '/empty.txt', insert_line: 2, insert_text: 'x' })).toMatch(/within the range of lines of the file: \[0, 1\]$/);
    expect(await run({ command: 'insert', path: '/empty.txt', insert_line: 1, insert_text: 'first' })).toMatch(/^The file \/empty.txt has been edited/);
    expect(await run({ command: 'view', path: '/empty.txt' })).toBe("Here's the result of running `cat -n` on /empty.txt:\n     1\tfirst\n");
  });

  it('lists a directory two levels deep without hidden entries', async () => {
    const { run } = session({ '/repo/a.ts': '', '/repo/src/b.ts': '', '/repo/src/deep/c.ts': '', '/repo/.git/HEAD': '', '/repo/src/.env': '' });
    expect(await run({ command: 'view', path: '/repo' })).toBe(
      // edit.py: find's output (ending in a line break) plus a line break.
      "Here's the files and directories up to 2 levels deep in /repo, excluding hidden items:\n/repo\n/repo/src\n/repo/src/deep\n/repo/src/b.ts\n/repo/a.ts\n\n",
    );
    expect(await run({ command: 'view', path: '/repo', view_range: [1, 2] })).toBe(
      'Error: EINVAL: The `view_range` parameter is not allowed when `path` points to a directory.',
    );
  });

  it('names a missing path with the reference sentence and our suggestions', async () => {
    const { run } = session({ '/src/app.ts': 'x\n' });
    expect(await run({ command: 'view', path: '/app.ts' })).toBe(
      'Error: ENOENT: The path /app.ts does not exist. Please provide a valid path. Did you mean /src/app.ts?',
    );
  });
});

describe('create, str_replace, insert', () => {
  it('create refuses an existing file and leaves it unchanged', async () => {
    const { backend, run } = session();
    expect(await run({ command: 'create', path: '/new/x.md', file_text: '# x\n' })).toBe('File created successfully at: /new/x.md');
    expect(await run({ command: 'create', path: '/primes.py', file_text: '' })).toBe(
      'Error: EEXIST: File already exists at: /primes.py. Cannot overwrite files using command `create`.',
    );
    expect(await backend.readText('/primes.py')).toBe(PRIMES);
    expect(await run({ command: 'create', path: '/y' })).toBe('Error: EINVAL: Parameter `file_text` is required for command: create');
    // A directory is not called a file, and the model is told what create needs.
    expect(await run({ command: 'create', path: '/new', file_text: 'x' })).toBe(
      'Error: EISDIR: The path /new is a directory; `create` makes a file: give a path inside it, such as /new/notes.md.',
    );
    expect(await run({ command: 'create', path: '/', file_text: 'x' })).toMatch(/^Error: EISDIR: The path \/ is a directory; .* such as \/notes\.md\.$/);
  });

  it('str_replace names the line of each occurrence when old_str is not unique', async () => {
    const { backend, run } = session();
    expect(await run({ command: 'str_replace', path: '/primes.py', old_str: 'return False', new_str: 'return 0' })).toBe(
      'Error: EAMBIGUOUS: No replacement was performed. Multiple occurrences of old_str `return False` in lines [4, 8, 12]. Please ensure it is unique',
    );
    expect(await run({ command: 'str_replace', path: '/primes.py', old_str: 'nothing like this', new_str: '' })).toBe(
      'Error: ENOMATCH: No replacement was performed, old_str `nothing like this` did not appear verbatim in /primes.py.\n' +
        'No line resembles the first line of old_str.\n' +
        'Use the view command to see the file, then copy old_str exactly, including whitespace and indentation.',
    );
    expect(await backend.readText('/primes.py')).toBe(PRIMES);
  });

  it('str_replace of text the file does not hold shows the closest lines, and where a later line departs', async () => {
    const { backend, run } = session();
    // (The vendor's sentence, then what every agentvfs edit tool adds.)
    expect(await run({ command: 'str_replace', path: '/primes.py', old_str: '    if n <= 3:\n        return False', new_str: '' })).toBe(
      'Error: ENOMATCH: No replacement was performed, old_str `    if n <= 3:\n        return False` did not appear verbatim in /primes.py.\n' +
        'Closest lines (most similar first):\n5:     if n <= 3:\n2:     """Check if a number is prime."""\n3:     if n <= 1:\n' +
        'The first line of old_str matches line 5; the first line that differs is line 6:\n' +
        '  old_str:         return False\n' +
        '  line 6:          return True\n' +
        'Use the view command to see the file, then copy old_str exactly, including whitespace and indentation.',
    );
    expect(await backend.readText('/primes.py')).toBe(PRIMES);
  });

  it('str_replace uses the shared corrections and says which', async () => {
    const { backend, run } = session({ '/q.md': 'He said “stop” – twice.\n' });
    const out = await run({ command: 'str_replace', path: '/q.md', old_str: 'He said "stop" - twice.', new_str: 'He said "stop" - once.' });
    expect(out).toContain('The file /q.md has been edited. Matched after treating typographic quotes');
    expect(await backend.readText('/q.md')).toBe('He said “stop” – once.\n');
  });

  it('str_replace and insert need no prior view, but refuse a file that changed since this session saw it', async () => {
    const { backend, run } = session({ '/a.txt': 'one\ntwo\n' });
    expect(await run({ command: 'insert', path: '/a.txt', insert_line: 2, new_str: 'three' })).toContain('has been edited');
    await backend.writeFile('/a.txt', 'changed elsewhere\n');
    const stale = await run({ command: 'str_replace', path: '/a.txt', old_str: 'changed', new_str: 'x' });
    expect(stale).toMatch(/^Error: ESTALE: \/a.txt changed since this session last viewed or wrote it; the file is unchanged/);
    expect(await backend.readText('/a.txt')).toBe('changed elsewhere\n');
    await run({ command: 'view', path: '/a.txt' });
    expect(await run({ command: 'str_replace', path: '/a.txt', old_str: 'changed', new_str: 'x' })).toContain('has been edited');
  });

  it("insert takes its text as insert_text, as Claude sends it, or as new_str, as Anthropic's docs name it", async () => {
    const backend = createStateBackend({ files: { '/t.txt': 'one\ntwo\nthree\n' } });
    const tools = createTools(backend, { dialect: 'anthropic' });
    const insert = (args: Record<string, unknown>) => tools.run(TEXT_EDITOR_NAME, { command: 'insert', path: '/t.txt', insert_line: 2, ...args });
    expect((await insert({ insert_text: 'HELLO\n' })).text).toContain('The file /t.txt has been edited.');
    expect((await insert({ new_str: 'again' })).text).toContain('has been edited');
    expect(await backend.readText('/t.txt')).toBe('one\ntwo\nagain\nHELLO\nthree\n');
    expect((await insert({ insert_text: 'x', new_str: 'y' })).text).toBe(
      'Error: EINVAL: Parameters `insert_text` and `new_str` differ; give the text to insert once, as `insert_text`. The file is unchanged.',
    );
    expect((await insert({ insert_text: 'same', new_str: 'same' })).isError).toBe(false);
    expect((await insert({})).text).toBe('Error: EINVAL: Parameter `insert_text` is required for command: insert');
    expect(await backend.readText('/t.txt')).toBe('one\ntwo\nsame\nagain\nHELLO\nthree\n');
  });

  it('insert keeps CRLF endings, a BOM and the absence of a final newline', async () => {
    const { backend, run } = session({ '/w.txt': '\uFEFFa\r\nb' });
    await run({ command: 'insert', path: '/w.txt', insert_line: 2, new_str: 'c\nd' });
    expect(await backend.readFile('/w.txt')).toEqual(new TextEncoder().encode('\uFEFFa\r\nb\r\nc\r\nd'));
    // edit.py: f"Invalid `insert_line` parameter: {insert_line}. It should be within the range of lines of the file: {[0, n_lines_file]}"
    expect(await run({ command: 'insert', path: '/w.txt', insert_line: 9, new_str: 'x' })).toBe(
      'Error: EINVAL: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 4]',
    );
  });

  it('refuses edits of a directory and unknown commands with the reference wording', async () => {
    const { run } = session({ '/d/f': '' });
    expect(await run({ command: 'str_replace', path: '/d', old_str: 'a', new_str: 'b' })).toBe(
      'Error: EISDIR: The path /d is a directory and only the `view` command can be used on directories',
    );
    expect(await run({ command: 'undo_edit', path: '/d/f' })).toBe(
      'Error: EINVAL: Unrecognized command undo_edit. The allowed commands for the str_replace_based_edit_tool tool are: view, create, str_replace, insert',
    );
  });
});

/**
 * anthropic-quickstarts computer-use-demo/tests/tools/edit_test.py, ported (the file contents its
 * mocks return become files). Its undo_edit cases are left out (not a text_editor_20250728
 * command), and so is its relative-path case (relative paths are accepted here, docs/dialects.md).
 */
describe('edit_test.py', () => {
  it('test_view_command', async () => {
    const { run } = session({
      '/test/file.txt': 'File content',
      '/test/l.txt': 'Line 1\nLine 2\nLine 3\nLine 4',
      '/test/dir/file1.txt': '',
      '/test/dir/file2.txt': '',
    });
    expect(await run({ command: 'view', path: '/test/file.txt' })).toContain('File content');
    const dir = await run({ command: 'view', path: '/test/dir' });
    expect(dir).toContain('file1.txt');
    expect(dir).toContain('file2.txt');
    expect(await run({ command: 'view', path: '/test/l.txt', view_range: [2, 3] })).toContain('\n     2\tLine 2\n     3\tLine 3\n');
    expect(await run({ command: 'view', path: '/test/l.txt', view_range: [3, 2] })).toContain('Invalid `view_range`');
    expect(await run({ command: 'view', path: '/nonexistent/file.txt' })).toContain('does not exist');
    expect(await run({ command: 'view', path: '/test/dir', view_range: [1, 2] })).toContain('view_range` parameter is not allowed');
  });

  it('test_create_command', async () => {
    const { backend, run } = session({ '/test/existingfile.txt': 'x' });
    expect(await run({ command: 'create', path: '/test/newfile.txt', file_text: 'New file content' })).toContain('File created successfully');
    expect(await backend.readText('/test/newfile.txt')).toBe('New file content');
    expect(await run({ command: 'create', path: '/test/other.txt' })).toContain('Parameter `file_text` is required');
    expect(await run({ command: 'create', path: '/test/existingfile.txt', file_text: 'Content' })).toContain('File already exists');
  });

  it('test_str_replace_command', async () => {
    const { backend, run } = session({ '/test/file.txt': 'Original content', '/test/t.txt': 'Test test test' });
    expect(await run({ command: 'str_replace', path: '/test/file.txt', old_str: 'Original', new_str: 'New' })).toContain('has been edited');
    expect(await backend.readText('/test/file.txt')).toBe('New content');
    expect(await run({ command: 'str_replace', path: '/test/file.txt', old_str: 'Nonexistent', new_str: 'New' })).toContain('did not appear verbatim');
    // edit.py lists each line holding old_str once: [1].
    expect(await run({ command: 'str_replace', path: '/test/t.txt', old_str: 'test', new_str: 'example' })).toBe(
      'Error: EAMBIGUOUS: No replacement was performed. Multiple occurrences of old_str `test` in lines [1]. Please ensure it is unique',
    );
  });

  it('test_insert_command', async () => {
    const { backend, run } = session({ '/test/a.txt': 'Line 1\nLine 2\nLine 3', '/test/b.txt': 'Line 1\nLine 2', '/test/c.txt': 'Line 1\nLine 2' });
    expect(await run({ command: 'insert', path: '/test/a.txt', insert_line: 2, new_str: 'New Line' })).toContain('has been edited');
    expect(await backend.readText('/test/a.txt')).toBe('Line 1\nLine 2\nNew Line\nLine 3');
    await run({ command: 'insert', path: '/test/b.txt', insert_line: 0, new_str: 'New First Line' });
    expect(await backend.readText('/test/b.txt')).toBe('New First Line\nLine 1\nLine 2');
    await run({ command: 'insert', path: '/test/c.txt', insert_line: 2, new_str: 'New Last Line' });
    expect(await backend.readText('/test/c.txt')).toBe('Line 1\nLine 2\nNew Last Line');
    expect(await run({ command: 'insert', path: '/test/c.txt', insert_line: 5, new_str: 'Invalid Line' })).toContain('Invalid `insert_line` parameter');
  });

  it('test_validate_path (absolute paths)', async () => {
    const { run } = session({ '/valid/path.txt': '', '/existing/file.txt': '', '/directory/path/x': '' });
    expect(await run({ command: 'view', path: '/valid/path.txt' })).not.toMatch(/^Error/);
    expect(await run({ command: 'view', path: '/nonexistent/file.txt' })).toContain('does not exist');
    expect(await run({ command: 'create', path: '/existing/file.txt', file_text: '' })).toContain('File already exists');
    expect(await run({ command: 'str_replace', path: '/directory/path', old_str: 'a', new_str: 'b' })).toContain('is a directory');
    expect(await run({ command: 'view', path: '/directory/path' })).not.toMatch(/^Error/);
  });
});

describe("notes in the text editor's words", () => {
  it('a correction names view, old_str and new_str, which this tool has, not read_file and old_string', async () => {
    const { run } = session({ '/b.ts': 'alpha\nbeta\n' });
    expect(await run({ command: 'str_replace', path: '/b.ts', old_str: '     1\talpha', new_str: 'ALPHA' })).toMatch(
      /^The file \/b\.ts has been edited\. Matched after removing view's line-number prefixes from old_str; new_str was kept as typed\. /,
    );
  });
});
