import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import { manualClock, type BackendFactory } from './harness.ts';

const TRUNCATED = '... [results truncated, try being more specific with your parameters]';

export function searchToolSuite(make: BackendFactory) {
  describe('glob tool', () => {
    it('supports **, {a,b}, classes and dotfiles; returns absolute paths newest first, ties by path', async () => {
      const clock = manualClock();
      const b = await make({ now: clock.now });
      for (const p of ['/src/b.ts', '/src/a.ts', '/src/x/.hidden.ts', '/src/c.tsx', '/lib/d.js', '/.env']) {
        await b.writeFile(p, p);
        if (p !== '/src/b.ts') clock.tick(); // a.ts and b.ts tie
      }
      const tools = createTools(b);
      expect((await tools.call('glob', { pattern: '**/*.ts' })).split('\n')).toEqual(['/src/x/.hidden.ts', '/src/a.ts', '/src/b.ts']);
      expect((await tools.call('glob', { pattern: '**/*.{ts,tsx}', path: '/src' })).split('\n')).toEqual([
        '/src/c.tsx',
        '/src/x/.hidden.ts',
        '/src/a.ts',
        '/src/b.ts',
      ]);
      expect(await tools.call('glob', { pattern: '[ab].ts', path: 'src' })).toBe('/src/a.ts\n/src/b.ts');
      expect(await tools.call('glob', { pattern: '.*' })).toBe('/.env');
      expect(await tools.call('glob', { pattern: 'x/*', path: '/src' })).toBe('/src/x/.hidden.ts');
    });

    it('a class that starts with ! or ^ is negated, as in sh; a later ! is a member', async () => {
      const tools = createTools(
        await make({ files: { '/src/a.ts': '', '/src/b.ts': '', '/src/c.ts': '', '/src/!.ts': '', '/x/a.ts': '' }, now: manualClock().now }),
      );
      expect(await tools.call('glob', { pattern: 'src/[!a].ts' })).toBe('/src/!.ts\n/src/b.ts\n/src/c.ts');
      expect(await tools.call('glob', { pattern: 'src/[^a].ts' })).toBe('/src/!.ts\n/src/b.ts\n/src/c.ts');
      expect(await tools.call('glob', { pattern: '**/[!a-b].ts' })).toBe('/src/!.ts\n/src/c.ts');
      expect(await tools.call('glob', { pattern: 'src/[a!].ts' })).toBe('/src/!.ts\n/src/a.ts');
      expect(await tools.call('glob', { pattern: '[[:alpha:]].ts', path: '/x' })).toBe('/x/a.ts');
    });

    it('no match is not an error: it says No files found and names the pattern', async () => {
      const tools = createTools(await make({ files: { '/a.ts': '' } }));
      const out = await tools.call('glob', { pattern: '**/*.rs' });
      expect(out).not.toMatch(/^Error/);
      expect(out).toMatch(/No files found/);
      expect(out).toContain('**/*.rs');
    });

    it('a pattern without ** that finds nothing says "*" does not cross "/" and gives the ** pattern that matches', async () => {
      const backend = await make({ files: { '/src/a.py': '', '/src/deep/b.py': '', '/src/c.ts': '' } });
      await backend.writeFile('/src/deep/b.py', 'newest'); // the example is the first by path, whatever the times
      const tools = createTools(backend);
      expect(await tools.call('glob', { pattern: '*.py' })).toBe(
        'No files found matching "*.py" in /. The pattern matches at one directory depth only ("*" does not cross "/"); ' +
          '"**/*.py" matches at any depth: 2 files, e.g. /src/a.py. Retry with pattern "**/*.py".',
      );
      expect(await tools.call('glob', { pattern: 'src/*.py' })).toBe('/src/a.py'); // found: no hint
      expect(await tools.call('glob', { pattern: 'deep/*.py', path: '/src' })).toBe('/src/deep/b.py');
      expect(await tools.call('glob', { pattern: 'b.py', path: '/src' })).toMatch(
        /"\*\*\/b\.py" matches at any depth: 1 file, e\.g\. \/src\/deep\/b\.py\. Retry with pattern "\*\*\/b\.py"\.$/,
      );
      // No hint when ** would not match either, or is there already.
      expect(await tools.call('glob', { pattern: '*.rs' })).toBe('No files found matching "*.rs" in /.');
      expect(await tools.call('glob', { pattern: '**/*.rs' })).toBe('No files found matching "**/*.rs" in /.');
    });

    it('over 1000 results says how many were left out', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 1005; i++) files[`/many/f${i}.txt`] = '';
      const out = (await createTools(await make({ files })).call('glob', { pattern: '**/*.txt' })).split('\n');
      expect(out.filter((l) => l.startsWith('/many/'))).toHaveLength(1000);
      expect(out[1000]).toMatch(/5 more/);
    });

    it('a missing base directory is an Error', async () => {
      expect(await createTools(await make()).call('glob', { pattern: '*', path: '/nope' })).toMatch(/^Error: ENOENT/);
    });
  });

  describe('grep tool', () => {
    const files = {
      '/src/b.ts': 'import x from "y";\nconst total = 1;\nfunction add() {}\n',
      '/src/a.ts': 'one\nTODO first\ntwo\nthree\nfour\nfive\nTODO second\nsix\n',
      '/docs/readme.md': 'TODO docs\n',
      '/img.png': new Uint8Array([0x89, 0x50, 0, 0, 84, 79, 68, 79]),
    };

    it('files_with_matches lists one path a line, in path order, binary skipped', async () => {
      const tools = createTools(await make({ files }));
      expect(await tools.call('grep', { pattern: 'TODO' })).toBe('/docs/readme.md\n/src/a.ts');
    });

    it('content mode: path:line:text', async () => {
      const tools = createTools(await make({ files }));
      expect(await tools.call('grep', { pattern: 'TODO \\w+', output_mode: 'content', path: '/src' })).toBe('/src/a.ts:2:TODO first\n/src/a.ts:7:TODO second');
    });

    it('content mode with context: path-line-text and -- between groups', async () => {
      const tools = createTools(await make({ files }));
      const out = await tools.call('grep', { pattern: 'TODO', output_mode: 'content', context: 1 });
      expect(out).toBe(
        [
          '/docs/readme.md:1:TODO docs',
          '--',
          '/src/a.ts-1-one',
          '/src/a.ts:2:TODO first',
          '/src/a.ts-3-two',
          '--',
          '/src/a.ts-6-five',
          '/src/a.ts:7:TODO second',
          '/src/a.ts-8-six',
        ].join('\n'),
      );
      const merged = await tools.call('grep', { pattern: 'TODO', output_mode: 'content', context: 3, path: '/src/a.ts' });
      expect(merged.split('\n')).toHaveLength(8);
      expect(merged).not.toContain('--');
    });

    it('count mode counts matching lines per file', async () => {
      const tools = createTools(await make({ files: { ...files, '/twice': 'TODO TODO\n' } }));
      expect(await tools.call('grep', { pattern: 'TODO', output_mode: 'count' })).toBe('/docs/readme.md:1\n/src/a.ts:2\n/twice:1');
    });

    it('glob filters by basename at any depth, or by relative path when it has a /', async () => {
      const tools = createTools(await make({ files }));
      expect(await tools.call('grep', { pattern: 'TODO', glob: '*.md' })).toBe('/docs/readme.md');
      expect(await tools.call('grep', { pattern: 'TODO', glob: 'src/*.ts' })).toBe('/src/a.ts');
      expect(await tools.call('grep', { pattern: 'TODO', glob: '*.{md,ts}', path: '/src' })).toBe('/src/a.ts');
      expect(await tools.call('grep', { pattern: 'TODO', glob: '[!a]*' })).toBe('/docs/readme.md');
      // A glob starting with / matches whole paths, as the glob tool's does.
      expect(await tools.call('grep', { pattern: 'TODO', glob: '/src/*.ts' })).toBe('/src/a.ts');
      expect(await tools.call('grep', { pattern: 'TODO', glob: '/**/*.md', path: '/docs' })).toBe('/docs/readme.md');
      expect(await tools.call('grep', { pattern: 'TODO', glob: '/readme.md' })).toMatch(/^No matches/);
    });

    it('ignore_case and fixed_strings', async () => {
      const tools = createTools(await make({ files: { '/a': 'Call(x)\ncall(y)\n' } }));
      expect(await tools.call('grep', { pattern: 'call(', fixed_strings: true, output_mode: 'content' })).toBe('/a:2:call(y)');
      expect(await tools.call('grep', { pattern: 'CALL\\(', ignore_case: true, output_mode: 'count' })).toBe('/a:2');
    });

    it('no match is not an error and names the pattern', async () => {
      const out = await createTools(await make({ files })).call('grep', { pattern: 'zzz' });
      expect(out).not.toMatch(/^Error/);
      expect(out).toMatch(/No matches/);
      expect(out).toContain('zzz');
    });

    it('a binary file is said to be skipped, not to have no matches; a directory search counts them', async () => {
      const tools = createTools(await make({ files }));
      expect(await tools.call('grep', { pattern: 'TODO', path: '/img.png' })).toBe(
        'No matches found for "TODO" in /img.png: it is a binary file, and grep searches text files only.',
      );
      const b = await make({ files: { '/bin/a.o': new Uint8Array([0, 1]), '/bin/b.o': new Uint8Array([0, 2]), '/bin/notes.txt': 'x\n' } });
      expect(await createTools(b).call('grep', { pattern: 'zzz', path: '/bin' })).toBe(
        'No matches found for "zzz" in /bin. 2 binary files were skipped (grep searches text files only), e.g. /bin/a.o.',
      );
      // Matches are listed as before, nothing else.
      expect(await createTools(b).call('grep', { pattern: 'x', path: '/bin' })).toBe('/bin/notes.txt');
    });

    it('a regex that finds nothing but its text taken literally would: suggests fixed_strings', async () => {
      const tools = createTools(await make({ files: { '/m.py': 'total = a + b\nprint(x)\n' } }));
      expect(await tools.call('grep', { pattern: 'a + b' })).toBe(
        'No matches found for "a + b" in /. Taken literally (fixed_strings: true), the pattern matches 1 file: its regex syntax is probably meant as text. Retry with fixed_strings: true.',
      );
      // Regex syntax that looks meant literally, but not found either way: says so, so the model looks elsewhere.
      expect(await tools.call('grep', { pattern: 'a.b' })).toBe(
        'No matches found for "a.b" in /. "." is regex syntax here; fixed_strings: true matches the text as typed, but it is not found that way either.',
      );
      // A regex written as one (escapes, anchors, repetition) gets no such note.
      expect(await tools.call('grep', { pattern: '(a+)+$' })).toBe('No matches found for "(a+)+$" in /.');
      expect(await tools.call('grep', { pattern: '\\w+Sync\\(' })).toBe('No matches found for "\\\\w+Sync\\\\(" in /.');
      expect(await tools.call('grep', { pattern: 'zzz' })).toBe('No matches found for "zzz" in /.');
    });

    it('a pattern that does not compile as a regex, such as foo(, suggests fixed_strings and says what it would find', async () => {
      const tools = createTools(await make({ files: { '/m.py': 'print(x)\n' } }));
      const out = await tools.call('grep', { pattern: 'print(' });
      expect(out).toMatch(/^Error: EREGEX: Invalid regex "print\(": unbalanced parenthesis/);
      expect(out).toMatch(/"\("\. Or set fixed_strings: true to search for the text as typed, which occurs in 1 file\.$/);
      // Not found as typed either: said once, and fixed_strings is not offered.
      expect(await tools.call('grep', { pattern: 'nothing(' })).toMatch(
        / to match a literal "\("\. Searched for as typed instead \(fixed_strings: true\), it is not found either\.$/,
      );
      expect(await tools.call('grep', { pattern: '\\u0041' })).toBe(
        'Error: EREGEX: Invalid regex "\\\\u0041": unknown escape \\u at character 1: RE2 writes a code point with \\x. Write \\u0041 as \\x{0041}. Searched for as typed instead (fixed_strings: true), it is not found either.',
      );
      expect(await tools.call('grep', { pattern: 'print(', fixed_strings: true, output_mode: 'content' })).toBe('/m.py:1:print(x)');
    });

    it('a glob that repeats the searched path, or a search that differs only in case, finds nothing and says what would find it', async () => {
      const tools = createTools(await make({ files: { '/src/a/x.ts': 'const FooBar = 1;\n', '/src/b.ts': 'foobar()\n' } }));
      expect(await tools.call('glob', { pattern: 'src/**/*.ts', path: '/src' })).toBe(
        'No files found matching "src/**/*.ts" in /src. The glob is matched relative to /src, so "src/**/*.ts" looks for /src/src/**/*.ts; "**/*.ts" matches 2 files, e.g. /src/a/x.ts. Retry with pattern "**/*.ts".',
      );
      expect(await tools.call('grep', { pattern: 'FooBar', path: '/src', glob: 'src/a/*.ts' })).toBe(
        'No matches found for "FooBar" in /src (files matching "src/a/*.ts"). The glob is matched relative to /src, so "src/a/*.ts" looks for /src/src/a/*.ts; "a/*.ts" matches 1 file, e.g. /src/a/x.ts. Retry with glob "a/*.ts".',
      );
      expect(await tools.call('grep', { pattern: 'FOOBAR' })).toBe(
        'No matches found for "FOOBAR" in /. Ignoring case (ignore_case: true), it matches 2 files, e.g. /src/a/x.ts.',
      );
      // No hint where the other search finds nothing either.
      expect(await tools.call('grep', { pattern: 'QUUX' })).toBe('No matches found for "QUUX" in /.');
      expect(await tools.call('glob', { pattern: 'src/*.py', path: '/src' })).toBe('No files found matching "src/*.py" in /src.');
    });

    it('a \\r that finds nothing says a CRLF line ending is not part of a line; one inside a line is found', async () => {
      const tools = createTools(await make({ files: { '/crlf.txt': 'x\r\ny\r\n', '/cr.txt': 'p\rq\n' } }));
      const note = 'grep matches each line without its line ending, so the \\r of a CRLF line ending is never matched (only a \\r inside a line is).';
      expect(await tools.call('grep', { pattern: 'x\\r$' })).toBe(`No matches found for "x\\\\r$" in /. ${note}`);
      expect(await tools.call('grep', { pattern: '\r', path: '/crlf.txt', fixed_strings: true })).toBe(`No matches found for "\\r" in /crlf.txt. ${note}`);
      expect(await tools.call('grep', { pattern: 'p\\rq' })).toBe('/cr.txt');
      // An escaped backslash before r is no carriage return.
      expect(await tools.call('grep', { pattern: '\\\\r' })).toBe('No matches found for "\\\\\\\\r" in /.');
    });

    it('a glob written as a list, or naming a directory outside the searched path, says what would find the files', async () => {
      const tools = createTools(await make({ files: { '/proj/a.ts': 'hello\n', '/proj/b.js': 'hello\n', '/other/c.ts': 'hello\n', '/proj/d.md': 'x\n' } }));
      expect(await tools.call('glob', { pattern: '*.ts,*.js', path: '/proj' })).toBe(
        'No files found matching "*.ts,*.js" in /proj. The pattern is one glob, so the comma in "*.ts,*.js" is part of the names it looks for; "*.{ts,js}" matches any of them: 2 files, e.g. /proj/a.ts. Retry with pattern "*.{ts,js}".',
      );
      expect(await tools.call('grep', { pattern: 'hello', path: '/proj', glob: '*.ts *.js' })).toBe(
        'No matches found for "hello" in /proj (files matching "*.ts *.js"). The glob is one pattern, so the space in "*.ts *.js" is part of the names it looks for; "*.{ts,js}" matches any of them: 2 files, e.g. /proj/a.ts. Retry with glob "*.{ts,js}".',
      );
      expect(await tools.call('glob', { pattern: '../other/*.ts', path: '/proj' })).toBe(
        'No files found matching "../other/*.ts" in /proj. glob looks only inside /proj, and "../other/*.ts" names files outside it; with path "/other" and pattern "*.ts" it matches 1 file, e.g. /other/c.ts. Retry with those.',
      );
      expect(await tools.call('glob', { pattern: '/other/*.ts', path: '/proj' })).toContain('with path "/other" and pattern "*.ts" it matches 1 file');
      expect(await tools.call('grep', { pattern: 'hello', path: '/proj', glob: '../other/*.ts' })).toBe(
        'No matches found for "hello" in /proj (files matching "../other/*.ts"). grep searches only inside /proj, and the glob "../other/*.ts" names files outside it; with path "/other" and glob "*.ts" it matches 1 file, e.g. /other/c.ts. Retry with those.',
      );
      // Nothing found the other way either: no hint.
      expect(await tools.call('glob', { pattern: '*.py,*.rb', path: '/proj' })).toBe('No files found matching "*.py,*.rb" in /proj.');
      expect(await tools.call('glob', { pattern: '/other/*.md', path: '/proj' })).toBe('No files found matching "/other/*.md" in /proj.');
    });

    it('unsupported syntax (a lookahead, a backreference) offers fixed_strings once, saying what it would find', async () => {
      const tools = createTools(await make({ files: { '/m.py': 'x = (?!y)\n' } }));
      const found = await tools.call('grep', { pattern: '(?!y)' });
      expect(found).toMatch(/; use fixed_strings or rewrite the pattern\. Searched for as typed instead \(fixed_strings: true\), it occurs in 1 file\.$/);
      const none = await tools.call('grep', { pattern: 'foo(?!bar)' });
      expect(none).toMatch(
        /; use fixed_strings or rewrite the pattern\. Searched for as typed instead \(fixed_strings: true\), it is not found either, so rewrite the pattern\.$/,
      );
      for (const out of [found, none]) expect(out.match(/fixed_strings/g)).toHaveLength(2);
    });

    it('an invalid pattern is an Error naming the problem; a backreference says it is unsupported', async () => {
      const tools = createTools(await make({ files }));
      expect(await tools.call('grep', { pattern: '(unclosed' })).toMatch(/^Error: EREGEX/);
      const backref = await tools.call('grep', { pattern: '(a)\\1' });
      expect(backref).toMatch(/^Error: EREGEX/);
      expect(backref.toLowerCase()).toMatch(/backreference/);
    });

    it('never hangs on pathological patterns over 100 KB lines', async () => {
      const b = await make({ files: { '/a.txt': `${'a'.repeat(100_000)}!\n`, '/x.txt': `${'x'.repeat(100_000)}\n` } });
      const tools = createTools(b);
      for (const pattern of ['(a+)+$', '(x+x+)+y', '(.*a){20}']) {
        const started = Date.now();
        const out = await tools.call('grep', { pattern, output_mode: 'count' });
        expect(Date.now() - started, pattern).toBeLessThan(5_000);
        expect(out, pattern).not.toMatch(/^Error: (?!EREGEX)/);
      }
      expect(await tools.call('grep', { pattern: '(x+x+)+y' })).toMatch(/No matches/);
      expect(await tools.call('grep', { pattern: '(a+)+!$' })).toBe('/a.txt');
    });

    it('head_limit counts entries and says how many were left out', async () => {
      const many: Record<string, string> = {};
      for (let i = 0; i < 12; i++) many[`/f${String(i).padStart(2, '0')}`] = 'hit\nhit\n';
      const tools = createTools(await make({ files: many }));
      const paths = (await tools.call('grep', { pattern: 'hit', head_limit: 5 })).split('\n');
      expect(paths.slice(0, 5)).toEqual(['/f00', '/f01', '/f02', '/f03', '/f04']);
      expect(paths[5]).toMatch(/7 more/);
      const content = (await tools.call('grep', { pattern: 'hit', output_mode: 'content', head_limit: 3 })).split('\n');
      expect(content.slice(0, 3)).toEqual(['/f00:1:hit', '/f00:2:hit', '/f01:1:hit']);
      expect(content[3]).toMatch(/21 more/);
      const all = await tools.call('grep', { pattern: 'hit', head_limit: 0 });
      expect(all.split('\n')).toHaveLength(12);
    });

    it('shows a window around the match on lines over 500 characters, with a note', async () => {
      const line = `${'a'.repeat(3000)}NEEDLE${'b'.repeat(3000)}`;
      const out = await createTools(await make({ files: { '/min.js': line } })).call('grep', { pattern: 'NEEDLE', output_mode: 'content' });
      expect(out).toMatch(/^\/min\.js:1:/);
      expect(out).toContain('NEEDLE');
      expect(out.length).toBeLessThan(700);
      expect(out).toMatch(/6006/);
    });

    it('every result is capped at 80,000 characters including the closing note', async () => {
      const big: Record<string, string> = {};
      for (let i = 0; i < 50; i++) big[`/d/f${i}.txt`] = Array.from({ length: 100 }, (_, j) => `match ${j} ${'z'.repeat(60)}`).join('\n');
      const out = await createTools(await make({ files: big })).call('grep', { pattern: 'match', output_mode: 'content', head_limit: 0 });
      expect(out.length).toBeLessThanOrEqual(80_000);
      expect(out.endsWith(TRUNCATED)).toBe(true);
    });

    it('when the size cap cuts, "N more not shown" counts what it left out too', async () => {
      const long = (i: number) => `/${'d'.repeat(150)}/${'f'.repeat(150)}${String(i).padStart(4, '0')}.txt`;
      const files: Record<string, string> = {};
      for (let i = 0; i < 1200; i++) files[long(i)] = `hit ${'x'.repeat(400)}\nmiss\nhit again\n`;
      const tools = createTools(await make({ files, now: manualClock().now }));
      const leftOut = (out: string, unit: string) => Number(new RegExp(`^\\.\\.\\. \\[(\\d+) more ${unit} not shown`, 'm').exec(out)?.[1]);
      const glob = await tools.call('glob', { pattern: '**/*.txt' });
      const globShown = glob.split('\n').filter((l) => l.startsWith('/')).length;
      expect(glob.endsWith(TRUNCATED)).toBe(true);
      expect(globShown).toBeLessThan(1000);
      expect(globShown + leftOut(glob, 'files')).toBe(1200);
      for (const [mode, unit, total] of [
        ['files_with_matches', 'files', 1200],
        ['count', 'files', 1200],
        ['content', 'matching lines', 2400],
      ] as const) {
        const out = await tools.call('grep', { pattern: 'hit', output_mode: mode, head_limit: 0 });
        const shown = out.split('\n').filter((l) => l.startsWith('/')).length;
        expect(out.length, mode).toBeLessThanOrEqual(80_000);
        expect(out.endsWith(TRUNCATED), mode).toBe(true);
        expect(shown + leftOut(out, unit), mode).toBe(total);
        // head_limit 0 already shows everything: the advice is about the cap, not head_limit.
        const advice = mode === 'content' ? ', or use output_mode "count"' : '';
        expect(out, mode).toContain(`the result is capped at 80,000 characters: narrow the search with path, glob or a more specific pattern${advice}]`);
        expect(out, mode).not.toContain('head_limit');
      }
      // When head_limit made the cut, raising it is the advice.
      expect(await tools.call('grep', { pattern: 'hit', head_limit: 3 })).toMatch(
        /\n\.\.\. \[1197 more files not shown \(1200 in total\); narrow the search or raise head_limit\]$/,
      );
      // With context, rows hold context lines and separators: only matching lines count.
      const withContext = await tools.call('grep', { pattern: 'hit', output_mode: 'content', context: 1, head_limit: 0 });
      const matchRows = withContext.split('\n').filter((l) => /^\/[^:]*:\d+:/.test(l)).length;
      expect(matchRows + leftOut(withContext, 'matching lines')).toBe(2400);
    });
  });
}
