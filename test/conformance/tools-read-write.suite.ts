import { describe, expect, it } from 'vitest';
import { createTools, type Tools } from '../../src/index.ts';
import { manualClock, text, utf8, type BackendFactory } from './harness.ts';

export function readWriteToolSuite(make: BackendFactory) {
  describe('createTools: definitions and arguments (SPEC §4)', () => {
    it('defines the six tools with JSON Schemas', async () => {
      const tools = createTools(await make());
      expect(tools.definitions.map((d) => d.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
      for (const d of tools.definitions) {
        expect(d.description.length).toBeGreaterThan(20);
        expect(d.parameters).toMatchObject({ type: 'object', additionalProperties: false });
        for (const r of d.parameters.required) expect(d.parameters.properties).toHaveProperty(r);
      }
      const grep = tools.definitions.find((d) => d.name === 'grep')!;
      expect(grep.description).toMatch(/RE2|JavaScript/);
      expect(grep.parameters.properties.output_mode!.enum).toEqual(['files_with_matches', 'content', 'count']);
      expect(grep.parameters.properties.head_limit!.default).toBe(250);
      const read = tools.definitions.find((d) => d.name === 'read_file')!;
      expect(read.parameters.properties.limit!.default).toBe(2000);
    });

    it.each([
      ['nope', {}, /unknown tool "nope"/],
      ['read_file', {}, /missing required argument "path"/],
      ['read_file', { path: 5 }, /"path".*string/],
      ['read_file', { path: '/a', offset: -1 }, /"offset".*>= 0/],
      ['read_file', { path: '/a', offset: 1.5 }, /"offset".*integer/],
      ['read_file', { path: '/a', limit: 0 }, /"limit".*>= 1/],
      ['edit_file', { path: '/a', old_string: 'a', new_string: 'b', replace_all: 'yes' }, /"replace_all".*true or false/],
      ['grep', { pattern: 'a', output_mode: 'lines' }, /"output_mode".*files_with_matches/],
      ['ls', { path: '/', recursive: true }, /unknown argument "recursive"/],
      ['ls', [1], /object/],
    ])('%s %j is an Error naming the argument', async (name, args, message) => {
      const tools = createTools(await make({ files: { '/a': 'a' } }));
      const out = await tools.call(name, args);
      expect(out).toMatch(/^Error: /);
      expect(out).toMatch(message);
    });

    it('tool failures come back as Error: strings, never rejections', async () => {
      const tools = createTools(await make());
      await expect(tools.call('read_file', { path: '/missing' })).resolves.toMatch(/^Error: ENOENT/);
      await expect(tools.call('ls', { path: '../..' })).resolves.toMatch(/^Error: EINVAL/);
    });
  });

  describe('ls tool', () => {
    it('returns a JSON array of name/path/is_dir/size', async () => {
      const tools = createTools(await make({ files: { '/b.txt': 'ünï', '/a/x': '' } }));
      expect(JSON.parse(await tools.call('ls', {}))).toEqual([
        { name: 'a', path: '/a', is_dir: true, size: 0 },
        { name: 'b.txt', path: '/b.txt', is_dir: false, size: 5 },
      ]);
      expect(await tools.call('ls', { path: '/b.txt' })).toMatch(/^Error: ENOTDIR/);
      expect(await tools.call('ls', { path: '/nope' })).toMatch(/^Error: ENOENT/);
    });

    it('over 80,000 characters: a valid JSON array of what fits, how many were left out, the closing note', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 3000; i++) files[`/d/${'n'.repeat(40)}${String(i).padStart(4, '0')}`] = '';
      const out = await createTools(await make({ files })).call('ls', { path: '/d' });
      expect(out.length).toBeLessThanOrEqual(80_000);
      const [json, left, note, ...rest] = out.split('\n');
      expect(rest).toEqual([]);
      expect(note).toBe('... [results truncated, try being more specific with your parameters]');
      const shown = JSON.parse(json!) as { path: string }[];
      expect(shown[0]!.path).toBe(`/d/${'n'.repeat(40)}0000`);
      expect(left).toMatch(new RegExp(`^\\.\\.\\. \\[${3000 - shown.length} more entries not shown \\(3000 in total\\)`));
      expect(out.length).toBeGreaterThan(79_000); // filled, not cut early
    });
  });

  describe('read_file tool', () => {
    it('formats cat -n rows with 6-wide numbers; "a\\nb\\n" has 2 lines', async () => {
      const tools = createTools(await make({ files: { '/f': 'a\nb\n' } }));
      expect(await tools.call('read_file', { path: '/f' })).toBe('     1\ta\n     2\tb');
    });

    it('pages with offset and limit, and says how to continue', async () => {
      const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n');
      const tools = createTools(await make({ files: { '/f': lines } }));
      const first = (await tools.call('read_file', { path: '/f' })).split('\n');
      expect(first).toHaveLength(2001);
      expect(first[1999]).toBe('  2000\tline 2000');
      expect(first[2000]).toMatch(/1-2000 of 2500.*offset=2000/);
      const page = (await tools.call('read_file', { path: '/f', offset: 2000, limit: 3 })).split('\n');
      expect(page.slice(0, 3)).toEqual(['  2001\tline 2001', '  2002\tline 2002', '  2003\tline 2003']);
      expect(page[3]).toMatch(/2001-2003 of 2500.*offset=2003/);
      expect(await tools.call('read_file', { path: '/f', offset: 2499 })).toBe('  2500\tline 2500');
    });

    it('an offset at or past the end is an Error naming the line count', async () => {
      const tools = createTools(await make({ files: { '/f': 'a\nb\nc\n' } }));
      const out = await tools.call('read_file', { path: '/f', offset: 3 });
      expect(out).toMatch(/^Error: /);
      expect(out).toMatch(/3 lines/);
      const empty = createTools(await make({ files: { '/e': '' } }));
      expect(await empty.call('read_file', { path: '/e', offset: 1 })).toBe(
        'Error: EINVAL: offset 1 is past the end of /e, which has 0 lines. It is empty: read it with offset=0.',
      );
    });

    it('splits lines over 5000 characters into N.1, N.2 rows of the same width', async () => {
      const long = `${'x'.repeat(5000) + 'y'.repeat(5000)}z`;
      const tools = createTools(await make({ files: { '/f': `short\n${long}\nend` } }));
      const rows = (await tools.call('read_file', { path: '/f' })).split('\n');
      expect(rows).toEqual(['     1\tshort', `     2\t${'x'.repeat(5000)}`, `   2.1\t${'y'.repeat(5000)}`, '   2.2\tz', '     3\tend']);
    });

    it('empty file, binary file, CRLF and BOM', async () => {
      const tools = createTools(
        await make({
          files: {
            '/empty': '',
            '/bin': new Uint8Array([137, 80, 78, 71, 0, 0, 1]),
            '/crlf': 'one\r\ntwo\r\n',
            '/bom': new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('first\n')]),
          },
        }),
      );
      expect(await tools.call('read_file', { path: '/empty' })).toBe('System reminder: File exists but has empty contents');
      const bin = await tools.call('read_file', { path: '/bin' });
      expect(bin).toMatch(/^Error: .*binary.*7 bytes/);
      expect(bin).not.toContain('PNG');
      // Having seen what it is, the agent may replace it; edit_file still refuses binary files.
      expect(await tools.call('edit_file', { path: '/bin', old_string: 'PNG', new_string: 'GIF' })).toMatch(/^Error: EBINARY/);
      expect(await tools.call('write_file', { path: '/bin', content: 'now text\n' })).toMatch(/^Updated \/bin/);
      expect(await tools.call('read_file', { path: '/crlf' })).toBe('     1\tone\n     2\ttwo');
      expect(await tools.call('read_file', { path: '/bom' })).toBe('     1\tfirst');
    });

    it('a file that is not UTF-8 (Latin-1) reads with a note saying so, where the first bad byte is, and what an edit does', async () => {
      // "caf\xe9" in Latin-1 on line 2: decoded, its é is U+FFFD.
      const latin1 = new Uint8Array([...utf8('menu\ncaf'), 0xe9, ...utf8('\nend\n')]);
      const tools = createTools(await make({ files: { '/menu.txt': latin1, '/ok.txt': 'caf\uFFFD\n' } }));
      expect(await tools.call('read_file', { path: '/menu.txt' })).toBe(
        '     1\tmenu\n     2\tcaf\uFFFD\n     3\tend\n' +
          'Note: /menu.txt is not valid UTF-8: bytes that are no UTF-8 character are shown as \uFFFD (the first on line 2). edit_file refuses it; write_file replaces it whole.',
      );
      const page = await tools.call('read_file', { path: '/menu.txt', limit: 1 });
      expect(page.split('\n').slice(-2)).toEqual([
        '... [showing lines 1-1 of 3 in /menu.txt; continue with offset=1]',
        expect.stringMatching(/^Note: .*line 2\)/),
      ]);
      // A real U+FFFD in valid UTF-8 is the file's own character: no note.
      expect(await tools.call('read_file', { path: '/ok.txt' })).toBe('     1\tcaf\uFFFD');
      expect(await tools.call('edit_file', { path: '/menu.txt', old_string: 'menu', new_string: 'MENU' })).toMatch(/^Error: EBINARY: .*line 2/);
    });

    it('caps a huge read at 80,000 characters and still says where to continue', async () => {
      const body = Array.from({ length: 1500 }, (_, i) => `${i}:${'w'.repeat(200)}`).join('\n');
      const tools = createTools(await make({ files: { '/big': body } }));
      const out = await tools.call('read_file', { path: '/big' });
      expect(out.length).toBeLessThanOrEqual(80_000);
      expect(out.endsWith('... [results truncated, try being more specific with your parameters]')).toBe(true);
      const next = Number(out.match(/offset=(\d+)/)![1]);
      const rows = out.split('\n').filter((r) => /^\s+\d+\t/.test(r));
      expect(rows).toHaveLength(next);
      expect(await tools.call('read_file', { path: '/big', offset: next, limit: 1 })).toMatch(new RegExp(`^\\s+${next + 1}\\t${next}:`));
    });
  });

  describe('read_file: every character of a long line is reachable (part=)', () => {
    /** Follows the closing lines from the first page to the last; returns the lines the rows spell and the pages. */
    async function readAll(tools: Tools, path: string): Promise<{ lines: string[]; pages: string[] }> {
      const lines: string[] = [];
      const pages: string[] = [];
      let args: Record<string, unknown> = { path };
      for (;;) {
        const out = await tools.call('read_file', args);
        pages.push(out);
        expect(out.length).toBeLessThanOrEqual(80_000);
        expect(out).not.toMatch(/^Error/);
        for (const row of out.split('\n')) {
          const m = /^ *(\d+)(?:\.(\d+))?\t([\s\S]*)$/.exec(row);
          if (!m) continue;
          const n = Number(m[1]);
          if (m[2] === undefined) {
            expect(n, 'a line starts right after the previous one').toBe(lines.length + 1);
            lines.push(m[3]!);
          } else {
            expect(n, 'a continuation row belongs to the last line').toBe(lines.length);
            lines[n - 1] += m[3]!;
          }
        }
        const next = /continue with offset=(\d+)(?: part=(\d+))?\]$/m.exec(out);
        if (!next) return { lines, pages };
        args = { path, offset: Number(next[1]), ...(next[2] === undefined ? {} : { part: Number(next[2]) }) };
        expect(pages.length, 'paging ends').toBeLessThan(100);
      }
    }

    // Seeded text with letters, spaces and emoji, so some rows end where a surrogate pair would split.
    function noise(seed: number, length: number): string {
      const units = ['a', 'b', 'c', ' ', 'é', '😀', 'x', 'y'];
      let out = '';
      let x = seed;
      while (out.length < length) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        out += units[x >>> 29]!;
      }
      return out;
    }

    it('a 320 kB single-line file reads back exactly, page by page', async () => {
      const line = noise(1, 320_000);
      const tools = createTools(await make({ files: { '/min.js': `${line}\n` } }));
      const { lines, pages } = await readAll(tools, '/min.js');
      expect(lines).toEqual([line]);
      expect(pages.length).toBeGreaterThanOrEqual(5);
      // The first page says where it stopped and what continues it.
      expect(pages[0]).toMatch(/^\.\.\. \[showing lines 1-1\.14 of 1 in \/min\.js \(line 1 goes on to row 1\.\d+\); continue with offset=0 part=15\]$/m);
      expect(pages[1]!.split('\n')[0]).toMatch(/^ {2}1\.15\t/);
    });

    it('a file of several long lines (and short ones) reads back exactly', async () => {
      const body = ['short', noise(2, 120_000), noise(3, 7_000), '', noise(4, 250_000), 'end', noise(5, 5_001)];
      const tools = createTools(await make({ files: { '/f': `${body.join('\n')}\n` } }));
      const { lines } = await readAll(tools, '/f');
      expect(lines).toEqual(body);
    });

    it('a line no page can hold starts on the page that comes to it (not after an almost empty page)', async () => {
      const body = ['first', noise(6, 200_000), 'third'];
      const tools = createTools(await make({ files: { '/f': `${body.join('\n')}\n` } }));
      const { lines, pages } = await readAll(tools, '/f');
      expect(lines).toEqual(body);
      expect(pages[0]).toMatch(/^ {5}1\tfirst\n {5}2\t/);
      expect(pages[0]!.length).toBeGreaterThan(60_000);
      expect(pages[0]).toMatch(/^\.\.\. \[showing lines 1-2\.\d+ of 3 in \/f \(line 2 goes on to row 2\.\d+\); continue with offset=1 part=\d+\]$/m);
      // A line a page can hold whole still starts the next page whole.
      const fits = ['first', noise(7, 60_000), noise(8, 60_000)];
      const whole = createTools(await make({ files: { '/g': `${fits.join('\n')}\n` } }));
      const read = await readAll(whole, '/g');
      expect(read.lines).toEqual(fits);
      expect(read.pages[1]!.split('\n')[0]).toMatch(/^ {5}3\t/);
    });

    it('part starts at a continuation row; limit still counts lines', async () => {
      const long = 'a'.repeat(5000) + 'b'.repeat(5000) + 'c'.repeat(10);
      const tools = createTools(await make({ files: { '/f': `x\n${long}\ny\nz\n` } }));
      expect(await tools.call('read_file', { path: '/f', offset: 1, part: 2, limit: 2 })).toBe(
        `   2.2\t${'c'.repeat(10)}\n     3\ty\n... [showing lines 2.2-3 of 4 in /f; continue with offset=3]`,
      );
      expect(await tools.call('read_file', { path: '/f', offset: 1, part: 1, limit: 1 })).toBe(
        `   2.1\t${'b'.repeat(5000)}\n   2.2\t${'c'.repeat(10)}\n... [showing lines 2.1-2.2 of 4 in /f; continue with offset=2]`,
      );
    });

    it("a part past the line's rows is an Error naming the range", async () => {
      const tools = createTools(await make({ files: { '/f': `short\n${'x'.repeat(12_000)}\n` } }));
      const past = await tools.call('read_file', { path: '/f', offset: 1, part: 3 });
      expect(past).toBe('Error: EINVAL: part 3 is past the end of line 2 of /f, whose rows are 2 to 2.2. Use a part from 0 to 2.');
      expect(await tools.call('read_file', { path: '/f', part: 1 })).toMatch(/^Error: EINVAL: part 1 .*line 1 of \/f, which is one row.*Use part=0\.$/);
      expect(await tools.call('read_file', { path: '/f', part: -1 })).toMatch(/^Error: EINVAL: argument "part".*>= 0/);
    });

    it('the read_file schema has part: an integer from 0, default 0, that the description explains', async () => {
      const read = createTools(await make()).definitions.find((d) => d.name === 'read_file')!;
      expect(read.parameters.properties.part).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
      expect(read.parameters.required).toEqual(['path']);
      expect(read.description).toMatch(/offset=N-1 and part=k/);
    });
  });

  describe('write_file tool', () => {
    it('creates files and parents without a read, saying Created with the line count', async () => {
      const b = await make();
      const tools = createTools(b);
      expect(await tools.call('write_file', { path: 'src/new/a.ts', content: 'a\nb\n' })).toBe('Created /src/new/a.ts (2 lines, 4 bytes).');
      expect(await tools.call('write_file', { path: 'src/new/b.ts', content: 'b' })).toBe('Created /src/new/b.ts (1 line, 1 byte).');
      expect(await b.readText('/src/new/a.ts')).toBe('a\nb\n');
      expect(await tools.call('write_file', { path: '/src/new/a.ts', content: 'c\n' })).toMatch(/^Updated \/src\/new\/a\.ts \(1 line/);
    });

    it('refuses to overwrite a file this session has not read (ENOTREAD), byte-identical', async () => {
      const b = await make({ files: { '/a.txt': 'original' } });
      const tools = createTools(b);
      const out = await tools.call('write_file', { path: '/a.txt', content: 'clobber' });
      // (edit_file is no way round the read: it needs one too)
      expect(out).toBe(
        'Error: ENOTREAD: /a.txt already exists and has not been read in this session. The file is unchanged. Read it with read_file first, then retry (or, once it is read, use edit_file for a targeted change).',
      );
      expect(await b.readText('/a.txt')).toBe('original');
      await tools.call('read_file', { path: '/a.txt' });
      expect(await tools.call('write_file', { path: '/a.txt', content: 'ok' })).toMatch(/^Updated/);
    });

    it('refuses when the file changed since the read (ESTALE), even within one millisecond', async () => {
      const clock = manualClock();
      const b = await make({ now: clock.now, files: { '/a.txt': 'v1' } });
      const tools = createTools(b);
      await tools.call('read_file', { path: '/a.txt' });
      await b.writeFile('/a.txt', 'v2');
      const out = await tools.call('write_file', { path: '/a.txt', content: 'v3' });
      expect(out).toMatch(/^Error: ESTALE/);
      expect(await b.readText('/a.txt')).toBe('v2');
    });

    it('re-creating a file that was read and then removed needs no new read', async () => {
      const b = await make({ files: { '/a.txt': 'v1' } });
      const tools = createTools(b);
      await tools.call('read_file', { path: '/a.txt' });
      await b.remove('/a.txt');
      expect(await tools.call('write_file', { path: '/a.txt', content: 'v2' })).toMatch(/^Created/);
    });

    it('read tracking is per tool set (one session each)', async () => {
      const b = await make({ files: { '/a.txt': 'v1' } });
      const one = createTools(b);
      const two = createTools(b);
      await one.call('read_file', { path: '/a.txt' });
      expect(await two.call('write_file', { path: '/a.txt', content: 'x' })).toMatch(/^Error: ENOTREAD/);
      expect(await one.call('write_file', { path: '/a.txt', content: 'x' })).toMatch(/^Updated/);
      expect(await one.call('write_file', { path: '/a.txt', content: 'y' })).toMatch(/^Updated/);
    });

    it('a directory target is an Error and changes nothing', async () => {
      const b = await make({ files: { '/d/x': 'x' } });
      expect(await createTools(b).call('write_file', { path: '/d', content: 'x' })).toBe(
        'Error: EISDIR: /d is a directory. Nothing was written. Write to a file path inside it instead.',
      );
      expect(text(await b.readFile('/d/x'))).toBe('x');
    });

    it('every refused write says that nothing changed and one next action (SPEC §3)', async () => {
      const b = await make({ files: { '/f': 'file', '/d/x': 'x', '/bin': new Uint8Array([0, 1, 2, 0x89]), '/small': 'abc' }, limits: { maxFileBytes: 8 } });
      const tools = createTools(b);
      await tools.call('read_file', { path: '/bin' });
      await tools.call('read_file', { path: '/small' });
      const long = 'n'.repeat(300);
      for (const [name, args, expected] of [
        ['write_file', { path: '/f/x', content: 'x' }, 'ENOTDIR: /f is a file, so /f/x cannot exist under it. No file was changed. Use a path outside /f.'],
        ['write_file', { path: '/../x', content: 'x' }, 'EINVAL: Invalid path "/../x": ".." goes above the root "/". No file was changed. Use "/x".'],
        [
          'write_file',
          { path: '/a\0b', content: 'x' },
          'EINVAL: Invalid path "/a\\u0000b": it contains a NUL byte. No file was changed. Remove it from the path.',
        ],
        [
          'write_file',
          { path: '/a\nb', content: 'x' },
          'EINVAL: Invalid path "/a\\nb": it contains a line break, which names may not. No file was changed. Remove it from the path.',
        ],
        [
          'write_file',
          { path: `/${long}`, content: 'x' },
          `EINVAL: Invalid path "/${long.slice(0, 99)}…": the name "${long.slice(0, 40)}…" is over 255 bytes. No file was changed. Use a shorter name.`,
        ],
        [
          'write_file',
          { path: '/big', content: 'x'.repeat(20) },
          'ETOOBIG: /big would be 20 B, over the per-file limit of 8 B. Nothing was written. Split the content into smaller files.',
        ],
        [
          'edit_file',
          { path: '/small', old_string: 'abc', new_string: 'x'.repeat(20) },
          'ETOOBIG: /small would be 20 B, over the per-file limit of 8 B. Nothing was written. Split the content into smaller files.',
        ],
        [
          'edit_file',
          { path: '/bin', old_string: 'a', new_string: 'b' },
          'EBINARY: /bin is a binary file (4 bytes); it cannot be edited as text. It is unchanged. Use write_file to replace it whole.',
        ],
      ] as const) {
        expect(await tools.call(name, args), `${name} ${JSON.stringify(args).slice(0, 40)}`).toBe(`Error: ${expected}`);
      }
      expect(await b.exists('/x')).toBe(false);
      expect(await b.exists('/big')).toBe(false);
      expect(text(await b.readFile('/small'))).toBe('abc');
      // Reading under a file says what to read instead.
      for (const [name, args] of [
        ['read_file', { path: '/f/x' }],
        ['ls', { path: '/f/x' }],
        ['glob', { pattern: '*', path: '/f/x' }],
      ] as const) {
        expect(await tools.call(name, args), name).toBe('Error: ENOTDIR: /f is a file, so /f/x cannot exist under it. Use read_file to read it.');
      }
      // ... in each dialect's words: tools it does not have are never named.
      expect(await createTools(b, { dialect: 'mcp-filesystem' }).call('read_text_file', { path: '/f/x' })).toBe(
        'Error: ENOTDIR: /f is a file, so /f/x cannot exist under it. Use read_text_file to read it.',
      );
      const patched = await createTools(b, { dialect: 'openai' }).call('apply_patch', { input: '*** Begin Patch\n*** Delete File: f/x\n*** End Patch' });
      expect(patched).toMatch(
        /^Error: ENOTDIR: .*\/f is a file, so \/f\/x cannot exist under it\. Check the path in the patch: nothing can exist under a file\./,
      );
      expect(patched).not.toContain('read_file');
    });
  });
}
