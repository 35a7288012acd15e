import { describe, expect, it } from 'vitest';
import { isVfsError } from '../../src/index.ts';
import { expectVfsError, manualClock, text, utf8, type BackendFactory } from './harness.ts';

export function backendSuite(make: BackendFactory) {
  describe('backend methods (SPEC §5)', () => {
    it('ls lists directories first, then by name, with UTF-8 sizes', async () => {
      const b = await make({ files: { '/d/z.txt': 'z', '/d/a.txt': 'é', '/d/m/x': '', '/d/B': 'bb' } });
      const entries = await b.ls('/d');
      expect(entries.map((e) => [e.name, e.path, e.isDir, e.size])).toEqual([
        ['m', '/d/m', true, 0],
        ['B', '/d/B', false, 2],
        ['a.txt', '/d/a.txt', false, 2],
        ['z.txt', '/d/z.txt', false, 1],
      ]);
      await expectVfsError(b.ls('/d/a.txt'), 'ENOTDIR');
      await expectVfsError(b.ls('/nope'), 'ENOENT');
    });

    it('stat, exists, readFile, readText, read', async () => {
      const b = await make({ files: { '/a.txt': 'hi', '/bin': new Uint8Array([0, 1, 2]) } });
      const s = await b.stat('/a.txt');
      expect(s).toMatchObject({ path: '/a.txt', name: 'a.txt', isDir: false, size: 2 });
      expect((await b.stat('/')).isDir).toBe(true);
      expect(await b.exists('/a.txt')).toBe(true);
      expect(await b.exists('/b.txt')).toBe(false);
      expect([...(await b.readFile('/bin'))]).toEqual([0, 1, 2]);
      expect(await b.readText('/a.txt')).toBe('hi');
      const r = await b.read('/a.txt');
      expect(r.version).toBe(s.version);
      expect(text(r.content)).toBe('hi');
      await expectVfsError(b.readFile('/'), 'EISDIR');
      await expectVfsError(b.stat('/missing'), 'ENOENT');
    });

    it('readFile returns a copy: mutating it changes nothing stored', async () => {
      const b = await make({ files: { '/a': 'abc' } });
      const bytes = await b.readFile('/a');
      bytes[0] = 0x7a;
      expect(await b.readText('/a')).toBe('abc');
      const input = utf8('xyz');
      await b.writeFile('/b', input);
      input[0] = 0x41;
      expect(await b.readText('/b')).toBe('xyz');
    });

    it('writeFile creates parents and reports created/updated; every write gets a new version, even in one millisecond', async () => {
      const clock = manualClock();
      const b = await make({ now: clock.now });
      const first = await b.writeFile('/deep/er/f.txt', 'one');
      expect(first.created).toBe(true);
      expect((await b.stat('/deep/er')).isDir).toBe(true);
      const second = await b.writeFile('/deep/er/f.txt', 'two');
      expect(second.created).toBe(false);
      expect(second.version).not.toBe(first.version);
      expect(second.mtimeMs).toBe(first.mtimeMs);
      await b.remove('/deep/er/f.txt');
      const third = await b.writeFile('/deep/er/f.txt', 'one');
      expect(new Set([first.version, second.version, third.version]).size).toBe(3);
    });

    it('writeFile refuses a directory target and bad content, changing nothing', async () => {
      const b = await make({ files: { '/d/x': 'x' } });
      expect((await expectVfsError(b.writeFile('/d', 'x'), 'EISDIR')).message).toBe(
        '/d is a directory. Nothing was written. Write to a file path inside it instead.',
      );
      expect((await expectVfsError(b.writeFile('/', 'x'), 'EISDIR')).message).toBe('The root "/" is a directory. Nothing was written. Give a file path.');
      await expectVfsError(b.writeFile('/n', 42 as unknown as string), 'EINVAL');
      expect(await b.exists('/n')).toBe(false);
    });

    it('text with a lone UTF-16 surrogate (half a character, with no UTF-8 form) is refused, not stored as U+FFFD', async () => {
      const b = await make({ files: { '/a.txt': 'foo\n' } });
      const before = await b.snapshot();
      const refused = await b.writeFile('/s.txt', 'a\uD800').catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'EINVAL', message: expect.stringMatching(/lone UTF-16 surrogate \(\\uD800 at index 1\).*Nothing was written/) });
      await expectVfsError(b.edit('/a.txt', 'foo', 'x\uDC00'), 'EINVAL');
      await expectVfsError(b.applyBatch([{ path: '/b.txt', content: '\uD83D' }]), 'EINVAL');
      expect(await b.snapshot()).toEqual(before);
      await b.writeFile('/emoji.txt', '\uD83D\uDE00'); // a whole pair is a character
      expect(await b.readText('/emoji.txt')).toBe('😀');
    });

    it('a bad expectedVersion or upload entry is EINVAL naming it, not ESTALE or a JavaScript error', async () => {
      const b = await make({ files: { '/a.txt': 'a' } });
      const before = await b.snapshot();
      const bad = await b.writeFile('/a.txt', 'x', { expectedVersion: 'x' as unknown as number }).catch((e: unknown) => e);
      expect(bad).toMatchObject({ code: 'EINVAL', message: expect.stringMatching(/^expectedVersion must be a version .*got "x"/) });
      await expectVfsError(b.edit('/a.txt', 'a', 'b', { expectedVersion: 1.5 }), 'EINVAL');
      const uploaded = await b.uploadFiles([null as unknown as [string, Uint8Array], ['/ok', new Uint8Array([65])]]);
      expect(uploaded).toEqual([
        { path: 'files[0]', error: expect.stringMatching(/^EINVAL: files\[0\] must be a \[path, bytes\] pair, got null/) },
        { path: '/ok' },
      ]);
      await b.remove('/ok');
      expect(await b.snapshot()).toEqual(before);
    });

    it('expectedVersion guards writes and edits (ESTALE), state unchanged', async () => {
      const b = await make({ files: { '/a': 'v1' } });
      const v1 = (await b.stat('/a')).version;
      await b.writeFile('/a', 'v2');
      await expectVfsError(b.writeFile('/a', 'v3', { expectedVersion: v1 }), 'ESTALE');
      await expectVfsError(b.edit('/a', 'v2', 'v3', { expectedVersion: v1 }), 'ESTALE');
      await expectVfsError(b.writeFile('/a', 'v3', { expectedVersion: -1 }), 'ESTALE');
      expect(await b.readText('/a')).toBe('v2');
    });

    it('edit replaces, counts and reports the region', async () => {
      const b = await make({ files: { '/a.ts': 'one\ntwo\nthree\ntwo\n' } });
      const r = await b.edit('/a.ts', 'two', '2', { replaceAll: true });
      expect(r.count).toBe(2);
      expect(r.firstLine).toBe(2);
      expect(r.lastLine).toBe(4);
      expect(await b.readText('/a.ts')).toBe('one\n2\nthree\n2\n');
      await expectVfsError(b.edit('/a.ts', 'nope', 'x'), 'ENOMATCH');
      await expectVfsError(b.edit('/bin', 'a', 'b'), 'ENOENT');
      // The tool's argument names work too.
      expect((await b.edit('/a.ts', { old_string: 'one', new_string: '1' })).count).toBe(1);
      expect((await b.edit('/a.ts', { oldString: '2', newString: 'two', replaceAll: true })).count).toBe(2);
      expect(await b.readText('/a.ts')).toBe('1\ntwo\nthree\ntwo\n');
      await expectVfsError(b.edit('/a.ts', { new_string: 'x' }), 'EINVAL');
    });

    it('edit refuses a binary file with EBINARY', async () => {
      const b = await make({ files: { '/bin': new Uint8Array([97, 0, 98]) } });
      await expectVfsError(b.edit('/bin', 'a', 'c'), 'EBINARY');
      expect([...(await b.readFile('/bin'))]).toEqual([97, 0, 98]);
    });

    it('mkdir creates parents, is idempotent for directories, EEXIST for files', async () => {
      const b = await make({ files: { '/f': '' } });
      expect((await b.mkdir('/a/b/c')).isDir).toBe(true);
      expect((await b.stat('/a/b')).isDir).toBe(true);
      expect((await b.mkdir('/a/b')).path).toBe('/a/b');
      await expectVfsError(b.mkdir('/f'), 'EEXIST');
    });

    it('remove deletes files and (recursively) directories, never the root', async () => {
      const b = await make({ files: { '/d/a': 'a', '/d/e/b': 'b', '/f': 'f' } });
      await expectVfsError(b.remove('/d'), 'EISDIR');
      expect(await b.exists('/d/e/b')).toBe(true);
      await b.remove('/d', { recursive: true });
      expect(await b.exists('/d')).toBe(false);
      expect(await b.exists('/d/e/b')).toBe(false);
      await b.remove('/f');
      await expectVfsError(b.remove('/f'), 'ENOENT');
      await expectVfsError(b.remove('/'), 'EINVAL');
      await b.mkdir('/empty');
      await b.remove('/empty');
      expect(await b.ls('/')).toEqual([]);
    });

    it('rename moves files and directories, refuses clobbering and moving into itself', async () => {
      const b = await make({ files: { '/d/a': 'a', '/d/e/b': 'b', '/x': 'x' } });
      await b.rename('/d', '/m/n');
      expect(await b.readText('/m/n/e/b')).toBe('b');
      expect(await b.exists('/d')).toBe(false);
      await expectVfsError(b.rename('/x', '/m/n/a'), 'EEXIST');
      expect(await b.readText('/m/n/a')).toBe('a');
      await b.rename('/x', '/m/n/a', { overwrite: true });
      expect(await b.readText('/m/n/a')).toBe('x');
      await expectVfsError(b.rename('/m', '/m/n/inner'), 'EINVAL');
      await expectVfsError(b.rename('/nope', '/y'), 'ENOENT');
      await expectVfsError(b.rename('/m/n/a', '/m/n/e/b/c'), 'ENOTDIR');
      expect(await b.readText('/m/n/a')).toBe('x');
    });

    it('rename gives moved files a new version', async () => {
      const b = await make({ files: { '/a': 'a' } });
      const before = (await b.stat('/a')).version;
      const after = await b.rename('/a', '/b');
      expect(after.version).not.toBe(before);
    });

    it('glob and grep are available as structured methods', async () => {
      const b = await make({ files: { '/src/a.ts': 'const x = 1;\nfoo();\n', '/src/b.js': 'foo\n' } });
      expect(await b.glob('**/*.ts')).toEqual(['/src/a.ts']);
      expect(await b.grep('foo')).toEqual([
        { path: '/src/a.ts', line: 2, column: 0, length: 3, text: 'foo();' },
        { path: '/src/b.js', line: 1, column: 0, length: 3, text: 'foo' },
      ]);
      expect(await b.grep('foo', { glob: '*.js' })).toHaveLength(1);
      await expectVfsError(b.grep('(unclosed'), 'EREGEX');
    });

    it('glob with ignoreCase matches names in either case; without it, exactly', async () => {
      const b = await make({ files: { '/docs/README.MD': '#\n', '/docs/notes.md': 'n\n', '/Docs2/Other.Md': 'o\n', '/docs/a.mdx': 'x\n' } });
      expect((await b.glob('**/*.md')).sort()).toEqual(['/docs/notes.md']);
      expect((await b.glob('**/*.md', { ignoreCase: true })).sort()).toEqual(['/Docs2/Other.Md', '/docs/README.MD', '/docs/notes.md']);
      expect((await b.glob('DOCS/*', { ignoreCase: true, path: '/' })).sort()).toEqual(['/docs/README.MD', '/docs/a.mdx', '/docs/notes.md']);
    });

    it('grep caps matching lines in total (maxMatches) and per file (maxMatchesPerFile), in path order', async () => {
      // One file searched as text (the regex has no literal), the other through its literal.
      const b = await make({ files: { '/a.txt': 'x1\nx2\nx3\n', '/b.txt': 'x4\nno\nx5\nx6\n' } });
      const lines = async (pattern: string, options: object) => (await b.grep(pattern, options)).map((m) => `${m.path}:${m.line}`);
      for (const pattern of ['x\\d', '\\w\\d']) {
        expect(await lines(pattern, { maxMatchesPerFile: 1 })).toEqual(['/a.txt:1', '/b.txt:1']);
        expect(await lines(pattern, { maxMatchesPerFile: 2 })).toEqual(['/a.txt:1', '/a.txt:2', '/b.txt:1', '/b.txt:3']);
        expect(await lines(pattern, { maxMatchesPerFile: 2, maxMatches: 3 })).toEqual(['/a.txt:1', '/a.txt:2', '/b.txt:1']);
        expect(await lines(pattern, { maxMatches: 4 })).toEqual(['/a.txt:1', '/a.txt:2', '/a.txt:3', '/b.txt:1']);
      }
      await expectVfsError(b.grep('x', { maxMatchesPerFile: 0 }), 'EINVAL');
      await expectVfsError(b.grep('x', { maxMatches: Number.NaN }), 'EINVAL');
    });

    it('grep with reportBinary lists the binary files it skipped, in path order, outside every limit', async () => {
      const bin = (s: string) => new Uint8Array([0, ...new TextEncoder().encode(s)]);
      const b = await make({ files: { '/a.bin': bin('foo'), '/b.txt': 'foo\nfoo\n', '/c.bin': bin('zzz'), '/d/e.bin': bin('x'), '/d/f.txt': 'bar\n' } });
      const rows = async (pattern: string, options: object) =>
        (await b.grep(pattern, options)).map((m) => (m.binary ? `${m.path} binary` : `${m.path}:${m.line}`));
      const all = ['/a.bin binary', '/b.txt:1', '/b.txt:2', '/c.bin binary', '/d/e.bin binary'];
      // Unindexed, then indexed (where the search filters skip files that cannot hold "foo" unread).
      for (const round of ['scanned', 'indexed']) {
        if (round === 'indexed') await b.prepareSearch();
        expect(await rows('foo', { reportBinary: true }), round).toEqual(all);
        expect(await rows('fo+', { reportBinary: true }), round).toEqual(all);
        expect(await rows('foo', {}), round).toEqual(['/b.txt:1', '/b.txt:2']);
        expect(await rows('foo', { reportBinary: true, maxMatches: 1 }), round).toEqual(['/a.bin binary', '/b.txt:1']);
        expect(await rows('foo', { reportBinary: true, path: '/d', glob: '*.bin' }), round).toEqual(['/d/e.bin binary']);
        expect(await rows('foo', { reportBinary: true, path: '/c.bin' }), round).toEqual(['/c.bin binary']);
      }
      expect((await b.grep('foo', { reportBinary: true }))[0]).toEqual({ path: '/a.bin', line: 0, column: 0, length: 0, text: '', binary: true });
    });

    it('uploadFiles and downloadFiles report per-path errors without failing the batch', async () => {
      const b = await make({ files: { '/dir/x': 'x' } });
      const up = await b.uploadFiles([
        ['/u/a.bin', new Uint8Array([1, 2])],
        ['/dir', new Uint8Array([3])],
        ['../escape', new Uint8Array([4])],
      ]);
      expect(up[0]).toEqual({ path: '/u/a.bin' });
      expect(up[1]!.error).toMatch(/EISDIR/);
      expect(up[2]!.error).toMatch(/EINVAL/);
      const down = await b.downloadFiles(['/u/a.bin', '/missing', '/dir']);
      expect([...down[0]!.content!]).toEqual([1, 2]);
      expect(down[1]).toMatchObject({ path: '/missing', content: null });
      expect(down[1]!.error).toMatch(/ENOENT/);
      expect(down[2]!.error).toMatch(/EISDIR/);
      // Failed entries name the normalized path too (relative to cwd), so results match by path.
      const relative = await make({ cwd: '/dir', files: { '/dir/x': 'x' } });
      expect((await relative.downloadFiles(['x', './nope//y'])).map((r) => r.path)).toEqual(['/dir/x', '/dir/nope/y']);
      const upRelative = await relative.uploadFiles([['x/under-a-file', new Uint8Array([1])]]);
      expect(upRelative[0]).toMatchObject({ path: '/dir/x/under-a-file', error: expect.stringMatching(/ENOTDIR/) });
    });

    it('uploadFiles: an entry that is no bytes (a function, a symbol, an unawaited Promise) is refused on its own; the others are written', async () => {
      const b = await make();
      const up = await b.uploadFiles([
        ['/ok.bin', new Uint8Array([1])],
        ['/fn.bin', (() => 1) as never],
        ['/symbol.bin', Symbol('s') as never],
        ['/promise.bin', Promise.resolve(new Uint8Array([2])) as never],
        (() => 1) as never,
        [Symbol('path') as never, new Uint8Array([3])],
        ['/nested.bin', [() => 1] as never],
        ['/last.bin', new Uint8Array([4])],
      ]);
      expect(up).toEqual([
        { path: '/ok.bin' },
        { path: '/fn.bin', error: 'EINVAL: Content for /fn.bin must be a Uint8Array, got function. Nothing was written.' },
        { path: '/symbol.bin', error: 'EINVAL: Content for /symbol.bin must be a Uint8Array, got symbol. Nothing was written.' },
        { path: '/promise.bin', error: 'EINVAL: Content for /promise.bin must be a Uint8Array, got object. Nothing was written.' },
        { path: 'files[4]', error: 'EINVAL: files[4] must be a [path, bytes] pair, got function. It was not written.' },
        { path: 'files[5]', error: 'EINVAL: files[5] must be a [path, bytes] pair, got an array without a path. It was not written.' },
        { path: '/nested.bin', error: 'EINVAL: Content for /nested.bin must be a Uint8Array, got object. Nothing was written.' },
        { path: '/last.bin' },
      ]);
      expect((await b.glob('**')).sort()).toEqual(['/last.bin', '/ok.bin']);
    });
  });

  describe('errors (SPEC §3)', () => {
    it('VfsError carries code and path, and isVfsError recognises its JSON form', async () => {
      const b = await make();
      try {
        await b.readFile('/nope.txt');
        expect.unreachable();
      } catch (error) {
        expect(isVfsError(error)).toBe(true);
        const e = error as { code: string; path: string; message: string };
        expect(e.code).toBe('ENOENT');
        expect(e.path).toBe('/nope.txt');
        expect(isVfsError(JSON.parse(JSON.stringify(error)))).toBe(true);
      }
      expect(isVfsError(new Error('x'))).toBe(false);
      expect(isVfsError({ name: 'VfsError', code: 'NOPE', message: '' })).toBe(false);
    });
  });

  describe('limits (SPEC §5)', () => {
    it('ETOOBIG before writing a file over maxFileBytes; the old content stays', async () => {
      const b = await make({ limits: { maxFileBytes: 10 }, files: { '/a': 'small' } });
      const e = await expectVfsError(b.writeFile('/a', 'x'.repeat(11)), 'ETOOBIG');
      expect(e.message).toMatch(/11 B.*10 B/);
      expect(await b.readText('/a')).toBe('small');
      await expectVfsError(b.edit('/a', 'small', 'x'.repeat(11)), 'ETOOBIG');
      expect(await b.readText('/a')).toBe('small');
    });

    it('EQUOTA on total bytes and file count; nothing written, no parent created', async () => {
      const b = await make({ limits: { maxTotalBytes: 10, maxFiles: 2 }, files: { '/a': '12345' } });
      await expectVfsError(b.writeFile('/new/dir/b', '123456'), 'EQUOTA');
      expect(await b.exists('/new')).toBe(false);
      await b.writeFile('/a', '1234567890');
      await b.writeFile('/a', '1');
      await b.writeFile('/b', '2');
      await expectVfsError(b.writeFile('/c', ''), 'EQUOTA');
      expect((await b.ls('/')).map((e) => e.name)).toEqual(['a', 'b']);
    });

    it('EQUOTA on directories (those a deep path implies too), before anything changes: writes, mkdir, rename, batches, restore', async () => {
      const b = await make({ limits: { maxDirectories: 3 }, files: { '/a/b/c/d.txt': 'd' } });
      const e = await expectVfsError(b.writeFile('/x/y.txt', 'y'), 'EQUOTA');
      expect(e.message).toMatch(/^Creating \/x\/y\.txt would exceed the limit of 3 directories \(1 more needed\)\. /);
      await expectVfsError(b.mkdir('/z'), 'EQUOTA');
      await expectVfsError(b.rename('/a/b/c/d.txt', '/q/d.txt'), 'EQUOTA');
      await expectVfsError(
        b.applyBatch([
          { path: '/a/e.txt', content: 'e' },
          { path: '/m/n.txt', content: 'n' },
        ]),
        'EQUOTA',
      );
      const before = await b.snapshot();
      const four = await make({ files: { '/p/q/r/s/t.txt': 't' } });
      await expectVfsError(b.restore(await four.snapshot()), 'ESNAPSHOT');
      // Nothing of any of them happened.
      expect(await b.glob('**')).toEqual(['/a/b/c/d.txt']);
      expect(await b.snapshot()).toEqual(before);
      // Room made by removing a directory is room again.
      await b.remove('/a/b', { recursive: true });
      await b.writeFile('/x/y/z.txt', 'z');
      expect(await b.exists('/x/y')).toBe(true);
    });

    it('path length limit is EINVAL', async () => {
      const b = await make({ limits: { maxPathLength: 20 } });
      const e = await expectVfsError(b.writeFile('/abcdefghij/abcdefghij', 'x'), 'EINVAL');
      expect(e.message).toMatch(/^Path is 22 characters, over the limit of 20: .*… No file was changed\. Use a shorter path\.$/);
      await expectVfsError(b.mkdir('/abcdefghij/abcdefghij'), 'EINVAL');
      expect(await b.ls('/')).toEqual([]);
    });
  });

  describe('snapshot / restore (SPEC §5)', () => {
    it('round-trips every file, directory, byte and timestamp', async () => {
      const clock = manualClock(1_000.5);
      const a = await make({ now: clock.now });
      await a.writeFile('/t.txt', 'héllo\r\n');
      clock.tick(10);
      await a.writeFile(
        '/bin/all.bin',
        Uint8Array.from({ length: 256 }, (_, i) => i),
      );
      await a.mkdir('/empty/dir');
      const snap = await a.snapshot();
      expect(snap).toBeInstanceOf(Uint8Array);
      const b = await make({ files: { '/other': 'gone after restore' } });
      await b.restore(snap);
      expect(await b.exists('/other')).toBe(false);
      expect(await b.readText('/t.txt')).toBe('héllo\r\n');
      expect([...(await b.readFile('/bin/all.bin'))]).toEqual([...(await a.readFile('/bin/all.bin'))]);
      expect((await b.stat('/empty/dir')).isDir).toBe(true);
      expect((await b.stat('/t.txt')).mtimeMs).toBe(1_000.5);
      expect((await b.stat('/bin/all.bin')).mtimeMs).toBe(1_010.5);
    });

    it('bad, truncated or foreign bytes give ESNAPSHOT and leave the state untouched', async () => {
      const a = await make({ files: { '/keep.txt': 'keep' } });
      const good = await a.snapshot();
      const flipped = good.slice();
      flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
      for (const bad of [new Uint8Array(0), utf8('{"files":{}}'), good.subarray(0, good.length - 3), flipped]) {
        await expectVfsError(a.restore(bad), 'ESNAPSHOT');
        expect((await a.ls('/')).map((e) => e.path)).toEqual(['/keep.txt']);
        expect(await a.readText('/keep.txt')).toBe('keep');
      }
    });

    it('restore(bytes, { copy: false }) restores the same state; bad bytes still give ESNAPSHOT, state and bytes untouched', async () => {
      const a = await make({ files: { '/a.txt': 'alpha', '/d/b.bin': new Uint8Array([0, 1, 2]) } });
      await a.mkdir('/empty');
      const snap = await a.snapshot();
      const b = await make({ files: { '/keep.txt': 'keep' } });
      const flipped = snap.slice();
      flipped[flipped.length - 2]! ^= 0xff;
      // Too big for the target: checksums pass, the limits refuse it.
      const small = await make({ limits: { maxFileBytes: 4 }, files: { '/keep.txt': 'keep' } });
      for (const [target, bad] of [
        [b, flipped],
        [b, snap.subarray(0, snap.length - 1)],
        [small, snap.slice()],
      ] as const) {
        const before = bad.slice();
        await expectVfsError(target.restore(bad, { copy: false }), 'ESNAPSHOT');
        expect(bad).toEqual(before);
        expect((await target.ls('/')).map((e) => e.path)).toEqual(['/keep.txt']);
        expect(await target.readText('/keep.txt')).toBe('keep');
      }
      const original = snap.slice();
      await b.restore(snap, { copy: false });
      expect((await b.ls('/')).map((e) => e.path)).toEqual(['/d', '/empty', '/a.txt']);
      expect(await b.readText('/a.txt')).toBe('alpha');
      expect([...(await b.readFile('/d/b.bin'))]).toEqual([0, 1, 2]);
      expect(await b.grep('alp')).toEqual([expect.objectContaining({ path: '/a.txt', line: 1 })]);
      // Later writes replace files; they never write into the adopted bytes.
      await b.writeFile('/a.txt', 'changed');
      expect(await b.readText('/a.txt')).toBe('changed');
      expect(snap).toEqual(original);
    });

    it('a snapshot over the target limits is refused whole', async () => {
      const big = await make({ files: { '/a': '1234567890', '/b': 'x' } });
      const small = await make({ limits: { maxFileBytes: 5 }, files: { '/mine': 'mine' } });
      await expectVfsError(small.restore(await big.snapshot()), 'ESNAPSHOT');
      expect((await small.ls('/')).map((e) => e.name)).toEqual(['mine']);
    });

    it('the restored state owns its bytes: changing the snapshot afterwards changes nothing', async () => {
      const a = await make({ files: { '/a.txt': 'alpha', '/d/b.txt': 'beta' } });
      const snap = await a.snapshot();
      const b = await make();
      await b.restore(snap);
      snap.fill(0x58);
      expect(await b.readText('/a.txt')).toBe('alpha');
      expect(await b.readText('/d/b.txt')).toBe('beta');
      await b.writeFile('/a.txt', 'changed');
      expect(await b.readText('/d/b.txt')).toBe('beta');
    });

    it('a path the tree accepts survives a round trip, however long its UTF-8 form', async () => {
      // 40 segments of 80 "日": 3,240 characters (under the 4,096 limit) but 9,640 UTF-8 bytes.
      const path = `/${Array.from({ length: 40 }, () => '日'.repeat(80)).join('/')}`;
      const a = await make({ files: { [path]: 'deep' } });
      const b = await make();
      await b.restore(await a.snapshot());
      expect(await b.readText(path)).toBe('deep');
    });

    it('restore invalidates earlier reads (versions are never reused)', async () => {
      const b = await make({ files: { '/a': 'a' } });
      const v = (await b.stat('/a')).version;
      await b.restore(await b.snapshot());
      expect((await b.stat('/a')).version).not.toBe(v);
    });
  });
}
