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
    ])('rejects %j with EINVAL naming the path, the problem and what to do', async (input, words) => {
      const b = await make();
      const e = await expectVfsError(b.writeFile(input, 'x'), 'EINVAL');
      expect(e.message.replaceAll('"', '')).toContain(words.replaceAll('"', '')); // (quotes aside)
      if (input !== '') expect(e.message).toContain(JSON.stringify(input).slice(1, 20));
      expect(await b.ls('/')).toEqual([]);
    });

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
      expect(nfc.message).toContain('looks the same but is written with other Unicode code points (/docs/cafe\\u{301}.md)');
      // A missing path of any length is named clipped (one read is not checked for length).
      const long = await expectVfsError(d.readFile(`/${'a/'.repeat(30_000)}x`), 'ENOENT');
      expect(long.message.length).toBeLessThan(700);
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
