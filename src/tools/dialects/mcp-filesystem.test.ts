import { applyPatch, createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';
import { MAX_RESULT_CHARS } from '../definitions.ts';
import { formatSize } from './mcp-filesystem/tools.ts';
import { unifiedDiff } from './mcp-filesystem/unified-diff.ts';

/** The 'mcp-filesystem' dialect: the reference MCP filesystem server's tools, worded as its src/filesystem/index.ts. */
function tools(files: Record<string, string> = {}) {
  const backend = createStateBackend({ files, now: () => Date.UTC(2026, 0, 2) });
  return { backend, tools: createTools(backend, { dialect: 'mcp-filesystem' }) };
}

describe("dialect 'mcp-filesystem'", () => {
  it('refuses excludePatterns past 1000 patterns or 32768 characters at once (each was compiled on its own)', async () => {
    const { tools: t } = tools({ '/a.txt': 'a\n' });
    const nested = Array.from({ length: 50 }, () => `${'{'.repeat(2000)}a${'}'.repeat(2000)}`);
    for (const name of ['directory_tree', 'search_files']) {
      for (const excludePatterns of [nested, Array.from({ length: 100_000 }, () => '*.x')]) {
        expect(await t.call(name, { path: '/', ...(name === 'search_files' ? { pattern: '*' } : {}), excludePatterns })).toMatch(
          /^Error: EINVAL: "excludePatterns" holds \d+ patterns/,
        );
      }
    }
    // 1000 names count once each, though a name is matched as three patterns.
    expect(await t.call('directory_tree', { path: '/', excludePatterns: Array.from({ length: 1000 }, (_, i) => `n${i}`) })).toContain('a.txt');
  });

  it('reads text whole, by head or by tail; head with tail is refused; read_file runs as read_text_file', async () => {
    const { tools: t } = tools({ '/a.txt': '1\n2\n3\n4\n' });
    expect(await t.call('read_text_file', { path: '/a.txt' })).toBe('1\n2\n3\n4\n');
    expect(await t.call('read_text_file', { path: '/a.txt', head: 2 })).toBe('1\n2');
    expect(await t.call('read_text_file', { path: '/a.txt', tail: 1 })).toBe('4');
    expect(await t.call('read_text_file', { path: '/a.txt', head: 1, tail: 1 })).toBe(
      'Error: EINVAL: Cannot specify both head and tail parameters simultaneously',
    );
    expect(await t.call('read_file', { path: '/a.txt', head: 1 })).toBe('1');
  });

  it('reads over the result cap say which lines they show and the tail that reads on; read_multiple_files names the files it left out', async () => {
    const big = `${Array.from({ length: 5000 }, (_, i) => `row ${i + 1} ${'x'.repeat(40)}`).join('\n')}\n`;
    const { tools: t } = tools({ '/big.txt': big, '/small.txt': 'small\n', '/min.js': `${'y'.repeat(100_000)}\nend\n` });
    const whole = await t.call('read_text_file', { path: '/big.txt' });
    expect(whole.length).toBeLessThanOrEqual(80_000);
    const shown = whole.split('\n').filter((l) => l.startsWith('row ')).length;
    expect(
      whole.endsWith(
        `row ${shown} ${'x'.repeat(40)}\n[lines 1-${shown} of 5000 shown: the result is capped at 80,000 characters; tail: ${5000 - shown} reads from line ${shown + 1} on]`,
      ),
    ).toBe(true);
    // Following the advice reads on from the next line.
    const rest = await t.call('read_text_file', { path: '/big.txt', tail: 5000 - shown });
    expect(rest.startsWith(`row ${shown + 1} `)).toBe(true);
    expect(rest).toMatch(new RegExp(`\\n\\[lines ${shown + 1}-(\\d+) of 5000 shown: .*; tail: \\d+ reads from line \\d+ on\\]$`));
    expect(await t.call('read_text_file', { path: '/big.txt', head: 3000 })).toMatch(/; tail: \d+ reads from line \d+ on to the end of the file\]$/);
    expect(await t.call('read_text_file', { path: '/min.js' })).toMatch(
      /^y{70000,}\n\[line 1 is 100,000 characters long; only its first [\d,]+ are shown, as the result is capped at 80,000 characters; tail: 1 reads the lines after it\]$/,
    );
    const many = await t.call('read_multiple_files', { paths: ['/small.txt', '/big.txt', '/small.txt'] });
    expect(many.length).toBeLessThanOrEqual(80_000);
    expect(many.startsWith('/small.txt:\nsmall\n\n\n---\n/big.txt:\nrow 1 ')).toBe(true);
    expect(many).toMatch(
      /\n\[lines 1-\d+ of 5000 shown: the result is capped at 80,000 characters; tail: \d+ reads from line \d+ on\]\n\n---\n\[not read, as the result is capped at 80,000 characters: \/small\.txt; read them in another call\]$/,
    );
  });

  it('names files by their absolute paths, however the model wrote them (SPEC §2)', async () => {
    const backend = createStateBackend({ cwd: '/proj', files: { '/proj/a.txt': 'a\n', '/proj/b.txt': 'b\n' } });
    const t = createTools(backend, { dialect: 'mcp-filesystem' });
    expect(await t.call('write_file', { path: 'sub/../w.txt', content: 'w\n' })).toBe('Successfully wrote to /proj/w.txt');
    expect(await t.call('create_directory', { path: 'newdir/' })).toBe('Successfully created directory /proj/newdir');
    expect(await t.call('move_file', { source: 'w.txt', destination: './c.txt' })).toBe('Successfully moved /proj/w.txt to /proj/c.txt');
    expect(await t.call('read_multiple_files', { paths: ['a.txt', './b.txt', '../../x'] })).toBe(
      '/proj/a.txt:\na\n\n\n---\n/proj/b.txt:\nb\n\n\n---\n../../x: Error - ' +
        (await t.run('read_text_file', { path: '../../x' })).text.replace(/^Error: EINVAL: /, ''),
    );
  });

  it('read_multiple_files names how many it left unread when their names do not all fit', async () => {
    const files: Record<string, string> = { '/big.txt': `${'b'.repeat(99)}\n`.repeat(785) };
    for (let i = 0; i < 100; i++) files[`/src/components/Component${i}.tsx`] = 'x\n';
    const { tools: t } = tools(files);
    const out = await t.call('read_multiple_files', { paths: ['/big.txt', ...Object.keys(files).slice(1)] });
    expect(out.length).toBeLessThanOrEqual(80_000);
    const note = /\[not read, as the result is capped at 80,000 characters: (.*), and (\d+) more; read them in another call\]$/.exec(out)!;
    expect(note).not.toBeNull();
    const named = note[1]!.split(', ');
    expect(named[0]).toMatch(/^\/src\/components\/Component\d+\.tsx$/);
    expect(named.length + Number(note[2]) + out.split('\n---\n').length - 1).toBe(101);
  });

  it('read_multiple_files reports each failure in place', async () => {
    const { tools: t } = tools({ '/a.txt': 'A\n', '/src/b.txt': 'B\n' });
    expect(await t.call('read_multiple_files', { paths: ['/a.txt', '/b.txt'] })).toBe(
      '/a.txt:\nA\n\n\n---\n/b.txt: Error - No such file or directory: /b.txt. Did you mean /src/b.txt?',
    );
  });

  it('edit_file applies every edit and returns a git-style diff; dryRun changes nothing', async () => {
    const { backend, tools: t } = tools({ '/a.py': 'def f():\n    return 1\n\ndef g():\n    return 2\n' });
    const edits = [
      { oldText: 'return 1', newText: 'return 10' },
      { oldText: 'def g():', newText: 'def h():' },
    ];
    const diff =
      '```diff\nIndex: /a.py\n===================================================================\n--- /a.py\toriginal\n+++ /a.py\tmodified\n' +
      '@@ -1,5 +1,5 @@\n def f():\n-    return 1\n+    return 10\n \n-def g():\n+def h():\n     return 2\n```\n\n';
    expect(await t.call('edit_file', { path: '/a.py', edits, dryRun: true })).toBe(diff);
    expect(await backend.readText('/a.py')).toBe('def f():\n    return 1\n\ndef g():\n    return 2\n');
    const done = await t.run('edit_file', { path: '/a.py', edits });
    expect(done.text).toBe(diff);
    expect(done.changed.map((c) => c.path)).toEqual(['/a.py']);
    expect(await backend.readText('/a.py')).toBe('def f():\n    return 10\n\ndef h():\n    return 2\n');
  });

  it('edit_file changes nothing when any edit fails, naming it', async () => {
    const { backend, tools: t } = tools({ '/a.txt': 'one\ntwo\n' });
    const out = await t.run('edit_file', {
      path: '/a.txt',
      edits: [
        { oldText: 'one', newText: 'uno' },
        { oldText: 'three', newText: 'tres' },
      ],
    });
    expect(out).toMatchObject({ isError: true, code: 'ENOMATCH', changed: [] });
    expect(out.text).toMatch(/^Error: ENOMATCH: Could not find exact match for edit:\nthree\n\(edit 2 of 2; the file is unchanged\)\n/);
    expect(out.text).toMatch(/\nRead the file again with read_text_file and copy oldText exactly, including whitespace and indentation\.$/);
    expect(await backend.readText('/a.txt')).toBe('one\ntwo\n');
    // The closest lines come from the file as it is, not from the text earlier edits of the call made.
    const { tools: v } = tools({ '/n.ts': 'a\nb\nconst x = add(1, 2);\n' });
    const second = await v.run('edit_file', {
      path: '/n.ts',
      edits: [
        { oldText: 'a\nb', newText: 'A' },
        { oldText: 'const x = add(1,2);', newText: 'y' },
      ],
    });
    expect(second.text).toContain('(edit 2 of 2; the file is unchanged)\nClosest lines (most similar first):\n3: const x = add(1, 2);\n');
    // As the default dialect's edit_file: the closest lines, in this tool's words.
    const { tools: u } = tools({ '/m.ts': 'import { add } from "./add";\nconst x = add(1, 2);\n' });
    const near = await u.run('edit_file', { path: '/m.ts', edits: [{ oldText: 'const x = add(1,2);\nconsole.log(x);', newText: 'y' }] });
    expect(near.text).toBe(
      'Error: ENOMATCH: Could not find exact match for edit:\nconst x = add(1,2);\nconsole.log(x);\n(edit 1 of 1; the file is unchanged)\n' +
        'Closest lines (most similar first):\n2: const x = add(1, 2);\n1: import { add } from "./add";\n' +
        'Read the file again with read_text_file and copy oldText exactly, including whitespace and indentation.',
    );
    expect((await t.run('edit_file', { path: '/a.txt', edits: [{ oldText: 'one' }] })).text).toBe(
      'Error: EINVAL: argument "edits" of edit_file must be an array of objects with string oldText and newText, got [{"oldText":"one"}].',
    );
  });

  it("speaks in its own tools' words: a correction note, a stale file, a binary file", async () => {
    const { backend, tools: t } = tools({ '/b.ts': 'alpha\nbeta\n' });
    await backend.writeFile('/i.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const fixed = await t.run('edit_file', { path: '/b.ts', edits: [{ oldText: '     2\tbeta', newText: 'BETA' }] });
    expect(fixed.text).toMatch(/\n\nEdit 1: Matched after removing read_text_file's line-number prefixes from oldText; newText was kept as typed\.$/);
    await backend.writeFile('/b.ts', 'changed\n');
    expect((await t.run('edit_file', { path: '/b.ts', edits: [{ oldText: 'changed', newText: 'x' }] })).text).toBe(
      'Error: ESTALE: /b.ts changed since this session last read or wrote it; the file is unchanged. Read it again with read_text_file, then retry.',
    );
    // An image is read with read_media_file, which this tool set has.
    expect((await t.run('read_text_file', { path: '/i.png' })).text).toBe(
      'Error: EBINARY: /i.png is a binary file (12 bytes), not text; it cannot be read as text. Use read_media_file to see an image or PDF, or get_file_info for its details.',
    );
  });

  it('edit_file does what the server does with text found twice, text replaced by itself, and a file with no final newline', async () => {
    const { backend, tools: t } = tools({ '/dup.txt': 'x\ny\nx\n', '/nonl.txt': 'a\nb\nc' });
    // The server replaces the first occurrence (String.replace), not every one, and does not refuse.
    const dup = await t.run('edit_file', { path: '/dup.txt', edits: [{ oldText: 'x', newText: 'z' }] });
    expect(dup.isError).toBe(false);
    expect(await backend.readText('/dup.txt')).toBe('z\ny\nx\n');
    const same = await t.run('edit_file', { path: '/dup.txt', edits: [{ oldText: 'y', newText: 'y' }] });
    expect(same.text).toBe(
      '```diff\nIndex: /dup.txt\n===================================================================\n--- /dup.txt\toriginal\n+++ /dup.txt\tmodified\n```\n\n',
    );
    expect(same.changed).toEqual([]);
    expect((await t.run('edit_file', { path: '/dup.txt', edits: [{ oldText: 'q', newText: 'q' }] })).code).toBe('ENOMATCH');
    expect(await t.call('edit_file', { path: '/nonl.txt', edits: [{ oldText: 'c', newText: 'C' }] })).toBe(
      '```diff\nIndex: /nonl.txt\n===================================================================\n--- /nonl.txt\toriginal\n+++ /nonl.txt\tmodified\n' +
        '@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n```\n\n',
    );
    expect(await backend.readText('/nonl.txt')).toBe('a\nb\nC');
  });

  it('read_media_file: the file as a part, typed by its extension as the server types it', async () => {
    const backend = createStateBackend({
      files: { '/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]), '/song.mp3': new Uint8Array([1, 2]), '/data.bin': new Uint8Array([3]) },
    });
    const t = createTools(backend, { dialect: 'mcp-filesystem' });
    expect(await t.run('read_media_file', { path: '/logo.png' })).toMatchObject({
      isError: false,
      text: '/logo.png: image/png, 4 bytes',
      parts: [{ type: 'image', mediaType: 'image/png', data: 'iVBORw==' }],
    });
    expect((await t.run('read_media_file', { path: '/song.mp3' })).parts).toEqual([{ type: 'file', mediaType: 'audio/mpeg', data: 'AQI=' }]);
    expect((await t.run('read_media_file', { path: '/data.bin' })).parts).toEqual([{ type: 'file', mediaType: 'application/octet-stream', data: 'Aw==' }]);
    expect((await t.run('read_media_file', { path: '/nope.png' })).code).toBe('ENOENT');
  });

  it('list_directory_with_sizes: padded rows by name or largest first, then the totals', async () => {
    const { tools: t } = tools({ '/p/b.txt': 'x'.repeat(2048), '/p/a.txt': 'abc', '/p/sub/c.txt': '' });
    const row = (kind: string, name: string, size: string) => `${kind} ${name.padEnd(30)} ${size.padStart(size === '' ? 0 : 10)}`;
    const totals = ['', 'Total: 2 files, 1 directories', 'Combined size: 2.00 KB'];
    expect(await t.call('list_directory_with_sizes', { path: '/p' })).toBe(
      [row('[FILE]', 'a.txt', '3 B'), row('[FILE]', 'b.txt', '2.00 KB'), row('[DIR]', 'sub', ''), ...totals].join('\n'),
    );
    expect(await t.call('list_directory_with_sizes', { path: '/p', sortBy: 'size' })).toBe(
      [row('[FILE]', 'b.txt', '2.00 KB'), row('[FILE]', 'a.txt', '3 B'), row('[DIR]', 'sub', ''), ...totals].join('\n'),
    );
    expect(await t.call('list_directory_with_sizes', { path: '/p', sortBy: 'date' })).toMatch(/^Error: EINVAL: argument "sortBy"/);
  });

  it('head or tail of 0 reads the whole file (the server tests them for truth); no paths is an error; errors name this dialect’s tools', async () => {
    const { tools: t } = tools({ '/a.txt': '1\n2\n', '/d/x': 'x' });
    expect(await t.call('read_text_file', { path: '/a.txt', head: 0 })).toBe('1\n2\n');
    expect(await t.call('read_text_file', { path: '/a.txt', tail: 0 })).toBe('1\n2\n');
    expect(await t.call('read_multiple_files', { paths: [] })).toBe(
      'Error: EINVAL: argument "paths" of read_multiple_files must hold at least one path, got [].',
    );
    const missing = await t.call('read_text_file', { path: '/nope.txt' });
    expect(missing).toMatch(/Use list_directory or search_files to see what exists\.$/);
    expect(await t.call('read_text_file', { path: '/d' })).toMatch(/Use list_directory to see what it contains\.$/);
    expect(await t.call('list_directory', { path: '/a.txt' })).toMatch(/Use read_text_file to read it\.$/);
    expect(await t.call('read_multiple_files', { paths: ['/nope.txt'] })).toMatch(/Use list_directory or search_files to see what exists\.$/);
    // A file's own text is never rewritten, even when it reads like one of agentvfs's hints.
    const { tools: t2 } = tools({ '/hint.txt': 'Use ls or glob to see what exists.' });
    expect(await t2.call('read_text_file', { path: '/hint.txt' })).toBe('Use ls or glob to see what exists.');
  });

  it('edit_file refuses a file that changed since this session read it', async () => {
    const { backend, tools: t } = tools({ '/a.txt': 'one\n' });
    await t.call('read_text_file', { path: '/a.txt' });
    await backend.writeFile('/a.txt', 'two\n');
    expect((await t.run('edit_file', { path: '/a.txt', edits: [{ oldText: 'two', newText: '2' }] })).code).toBe('ESTALE');
    expect(await backend.readText('/a.txt')).toBe('two\n');
    // The refusal is no read: the model has not seen "two", so neither a retry, a dry run nor an
    // overwrite may go through until it reads the file again.
    expect((await t.run('edit_file', { path: '/a.txt', edits: [{ oldText: 'two', newText: '2' }] })).code).toBe('ESTALE');
    expect((await t.run('edit_file', { path: '/a.txt', edits: [{ oldText: 'two', newText: '2' }], dryRun: true })).code).toBe('ESTALE');
    expect((await t.run('write_file', { path: '/a.txt', content: 'mine\n' })).code).toBe('ESTALE');
    expect(await backend.readText('/a.txt')).toBe('two\n');
    await t.call('read_text_file', { path: '/a.txt' });
    expect((await t.run('edit_file', { path: '/a.txt', edits: [{ oldText: 'two', newText: '2' }] })).isError).toBe(false);
    expect(await backend.readText('/a.txt')).toBe('2\n');
  });

  it('writes, creates directories, lists, trees, moves, searches and describes', async () => {
    const { backend, tools: t } = tools({ '/p/src/a.ts': 'a', '/p/node_modules/x/i.js': 'x', '/p/README.md': 'r' });
    expect(await t.call('write_file', { path: '/p/b.ts', content: 'b' })).toBe('Successfully wrote to /p/b.ts');
    expect(await t.call('create_directory', { path: '/p/docs/api' })).toBe('Successfully created directory /p/docs/api');
    expect(await t.call('create_directory', { path: '/p/docs' })).toBe('Successfully created directory /p/docs');
    expect(await t.call('list_directory', { path: '/p' })).toBe('[DIR] docs\n[DIR] node_modules\n[DIR] src\n[FILE] README.md\n[FILE] b.ts');
    expect(JSON.parse(await t.call('directory_tree', { path: '/p', excludePatterns: ['node_modules'] }))).toEqual([
      { name: 'docs', type: 'directory', children: [{ name: 'api', type: 'directory', children: [] }] },
      { name: 'src', type: 'directory', children: [{ name: 'a.ts', type: 'file' }] },
      { name: 'README.md', type: 'file' },
      { name: 'b.ts', type: 'file' },
    ]);
    expect(await t.call('move_file', { source: '/p/b.ts', destination: '/p/src/b.ts' })).toBe('Successfully moved /p/b.ts to /p/src/b.ts');
    expect(await t.call('move_file', { source: '/p/README.md', destination: '/p/src/a.ts' })).toMatch(
      /^Error: EEXIST: Destination already exists: \/p\/src\/a.ts/,
    );
    expect(await t.call('search_files', { path: '/p', pattern: '**/*.ts' })).toBe('/p/src/a.ts\n/p/src/b.ts');
    expect(await t.call('search_files', { path: '/p', pattern: '**/*.ts', excludePatterns: ['**/b.ts'] })).toBe('/p/src/a.ts');
    expect(await t.call('search_files', { path: '/p', pattern: '*.py' })).toBe('No matches found');
    // A pattern that matches one depth only, where the server's description says ** reaches subdirectories.
    expect(await t.call('search_files', { path: '/p', pattern: '*.ts' })).toBe(
      'No matches found\n"*.ts" matches at one depth below /p only; "**/*.ts" matches 2 paths, e.g. /p/src/a.ts.',
    );
    // A directory deeper than path: not "one depth only", which would send the model to "src/**/*.ts".
    expect(await t.call('search_files', { path: '/', pattern: 'src/*.ts' })).toBe(
      'No matches found\n"src/*.ts" is matched relative to /, so its directories must start there; "**/src/*.ts" matches 2 paths, e.g. /p/src/a.ts.',
    );
    // A plain word, as older releases of the server took it (a substring of a name): the glob that finds it.
    expect(await t.call('search_files', { path: '/', pattern: 'nowhere' })).toBe('No matches found');
    expect(await t.call('search_files', { path: '/p', pattern: 'a' })).toBe(
      'No matches found\nsearch_files matches a glob pattern against paths relative to /p, so "a" matches only /p/a; "**/*a*" matches 1 path, e.g. /p/src/a.ts.',
    );
    expect(await t.call('get_file_info', { path: '/p/src/a.ts' })).toContain('size: 1\n');
    expect(await backend.exists('/p/docs/api')).toBe(true);
  });

  it("search_files names the pattern in the files' Unicode form when the one given (NFC café for NFD cafe + U+0301) finds nothing", async () => {
    const backend = createStateBackend({ files: { '/p/docs/cafe\u0301.md': 'x', '/p/skip/cafe\u0301.md': 'y' } });
    const t = createTools(backend, { dialect: 'mcp-filesystem' });
    expect(await t.call('search_files', { path: '/p', pattern: '**/caf\u00e9.md', excludePatterns: ['skip'] })).toBe(
      'No matches found\nsearch_files compares names code point by code point, and the names here write accented letters in another Unicode form (NFD): in that form the pattern matches 1 file, e.g. /p/docs/cafe\u0301.md. Retry with pattern "**/cafe\\u0301.md", written with these JSON escapes.',
    );
    expect(await t.call('search_files', { path: '/p', pattern: '**/cafe\u0301.md', excludePatterns: ['skip'] })).toBe('/p/docs/cafe\u0301.md');
    // Nothing in either form (an excluded file does not count): the server's sentence alone.
    expect(await t.call('search_files', { path: '/p', pattern: '**/caf\u00e9.md', excludePatterns: ['skip', 'docs'] })).toBe('No matches found');
    expect(await t.call('search_files', { path: '/p', pattern: '**/th\u00e9.md' })).toBe('No matches found');
  });

  it('directory_tree over the result cap is still JSON the model can parse, with what was left out after it', async () => {
    const files = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`/p/d${i % 30}/file-with-a-long-name-${i}.txt`, 'x']));
    const text = await tools(files).tools.call('directory_tree', { path: '/p' });
    expect(text.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    const [json, note] = [text.slice(0, text.lastIndexOf('\n[')), text.slice(text.lastIndexOf('\n[') + 1)];
    expect((JSON.parse(json) as Array<{ name: string; children?: unknown }>).map((e) => [e.name, e.children])).toEqual(
      Array.from({ length: 30 }, (_, i) => [`d${i}`, undefined]).sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
    expect(note).toMatch(
      /^\[3030 entries are more than fit in 80,000 characters: the tree is shown 1 level deep, .* \(3000 entries left out\)\. Call directory_tree on one of them/,
    );
  });

  it('an exclude pattern that matches a directory leaves out the directory and all below it, as the server walks the tree', async () => {
    const { tools: t } = tools({ '/p/node_modules/x/i.js': 'x', '/p/lib/node_modules/y.js': 'y', '/p/lib/a.js': 'a', '/p/.cache/c.js': 'c', '/p/b.js': 'b' });
    // search_files (lib.ts searchFilesWithValidation): a directory it excludes is not searched.
    expect(await t.call('search_files', { path: '/p', pattern: '**/*.js', excludePatterns: ['node_modules'] })).toBe(
      '/p/.cache/c.js\n/p/b.js\n/p/lib/a.js\n/p/lib/node_modules/y.js',
    );
    expect(await t.call('search_files', { path: '/p', pattern: '**/*.js', excludePatterns: ['**/node_modules', '.*'] })).toBe('/p/b.js\n/p/lib/a.js');
    // directory_tree (index.ts buildTree): a pattern with * excludes directories too, not only files.
    expect(JSON.parse(await t.call('directory_tree', { path: '/p', excludePatterns: ['**/node_modules', '.c*'] }))).toEqual([
      { name: 'lib', type: 'directory', children: [{ name: 'a.js', type: 'file' }] },
      { name: 'b.js', type: 'file' },
    ]);
    // A name without * is matched as a relative path too, at any depth (`lib/a.js`, `**/lib/a.js`).
    expect(JSON.parse(await t.call('directory_tree', { path: '/p/lib', excludePatterns: ['a.js', ''] }))).toEqual([
      { name: 'node_modules', type: 'directory', children: [{ name: 'y.js', type: 'file' }] },
    ]);
  });

  it('changed (SPEC §6) names every file a move took from one path (-1) and put at another, in a directory too', async () => {
    const backend = createStateBackend({ files: { '/one.txt': '1', '/src/a.txt': 'A', '/src/deep/b.txt': 'B' } });
    const t = createTools(backend, { dialect: 'mcp-filesystem' });
    const version = async (path: string) => (await backend.stat(path)).version;
    const file = await t.run('move_file', { source: '/one.txt', destination: '/two.txt' });
    expect(file.changed).toEqual([
      { path: '/one.txt', version: -1 },
      { path: '/two.txt', version: await version('/two.txt') },
    ]);
    // Moved where the session may write but not read: done, and said so (the new paths are not listed again).
    const guarded = createTools(backend, { dialect: 'mcp-filesystem', permissions: { read: ['/src/**', '/one.txt', '/two.txt'], write: ['/**'] } });
    const away = await guarded.run('move_file', { source: '/src/deep', destination: '/hidden/deep' });
    expect(away).toMatchObject({ isError: false, text: 'Successfully moved /src/deep to /hidden/deep' });
    expect(away.changed).toEqual([
      { path: '/src/deep/b.txt', version: -1 },
      { path: '/hidden/deep/b.txt', version: await version('/hidden/deep/b.txt') },
    ]);
    await backend.rename('/hidden/deep', '/src/deep');
    const dir = await t.run('move_file', { source: '/src', destination: '/dst' });
    expect(dir.changed).toEqual([
      { path: '/src/a.txt', version: -1 },
      { path: '/src/deep/b.txt', version: -1 },
      { path: '/dst/a.txt', version: await version('/dst/a.txt') },
      { path: '/dst/deep/b.txt', version: await version('/dst/deep/b.txt') },
    ]);
  });
});

// The server's lib.test.ts › formatSize, for the sizes no test file can have in memory (the rest run in
// test/conformance/dialect-mcp-filesystem-upstream.suite.ts through list_directory_with_sizes).
describe('formatSize', () => {
  it('formats bytes correctly (GB and TB)', () => {
    expect(formatSize(1073741824)).toBe('1.00 GB');
    expect(formatSize(1099511627776)).toBe('1.00 TB');
  });

  it('handles very large numbers beyond TB', () => {
    expect(formatSize(1024 * 1024 * 1024 * 1024 * 1024)).toBe('1024.00 TB');
    expect(formatSize(Number.MAX_SAFE_INTEGER)).toContain('TB');
  });
});

describe('unifiedDiff', () => {
  // Texts of a few distinct lines, with or without a final newline: what diffs disagree on.
  const text = fc
    .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 }), fc.boolean())
    .map(([lines, eol]) => (lines.length === 0 ? '' : `${lines.join('\n')}${eol ? '\n' : ''}`));

  it('is what the server returns: jsdiff 8 createTwoFilesPatch, byte for byte (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(unifiedDiff(before, after, '/f')).toBe(createTwoFilesPatch('/f', '/f', before, after, 'original', 'modified'));
      }),
      { numRuns: 2000 },
    );
  });

  it('is a patch that jsdiff applies to the old text to give the new one (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(applyPatch(before, unifiedDiff(before, after, '/f'))).toBe(after);
      }),
    );
  });

  it('past 2,000 differences, only the lines between the common head and tail are shown replaced', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const before = `${lines.join('\n')}\n`;
    const after = `${lines.map((l, i) => (i >= 9_000 && i < 11_500 ? `${l} changed` : l)).join('\n')}\n`; // 5,000 differences
    const diff = unifiedDiff(before, after, '/f');
    expect(applyPatch(before, diff)).toBe(after);
    // One hunk: the 2,500 lines out, 2,500 in, 4 lines of context each side; not the 20,000 lines twice.
    expect(diff.split('\n').filter((l) => l.startsWith('@@'))).toEqual(['@@ -8997,2508 +8997,2508 @@']);
  });

  it('keeps changes far apart in separate hunks with 4 lines of context', () => {
    const before = `${Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join('\n')}\n`;
    const after = before.replace('l2\n', 'L2\n').replace('l28\n', 'L28\n');
    const hunks = unifiedDiff(before, after, '/f')
      .split('\n')
      .filter((l) => l.startsWith('@@'));
    expect(hunks).toEqual(['@@ -1,6 +1,6 @@', '@@ -24,7 +24,7 @@']);
  });
});
