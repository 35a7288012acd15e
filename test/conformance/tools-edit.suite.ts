import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import { manualClock, utf8, type BackendFactory } from './harness.ts';

async function session(make: BackendFactory, files: Record<string, string | Uint8Array>, now?: () => number) {
  const backend = await make(now ? { files, now } : { files });
  const tools = createTools(backend);
  for (const path of Object.keys(files)) await tools.call('read_file', { path });
  return { backend, tools };
}

export function editToolSuite(make: BackendFactory) {
  describe('edit_file tool', () => {
    it('replaces once, names the count and shows the changed region with line numbers', async () => {
      const { backend, tools } = await session(make, { '/a.ts': 'l1\nl2\nl3\nold\nl5\nl6\nl7\nl8\n' });
      const out = await tools.call('edit_file', { path: '/a.ts', old_string: 'old', new_string: 'new\nextra' });
      expect(out.split('\n')[0]).toMatch(/^Edited \/a\.ts: 1 replacement/);
      expect(out).toContain('     4\tnew');
      expect(out).toContain('     5\textra');
      expect(out).toContain('     1\tl1');
      expect(await backend.readText('/a.ts')).toBe('l1\nl2\nl3\nnew\nextra\nl5\nl6\nl7\nl8\n');
    });

    it('refreshes the read version: a second edit needs no re-read', async () => {
      const { backend, tools } = await session(make, { '/a': 'alpha beta' });
      expect(await tools.call('edit_file', { path: '/a', old_string: 'alpha', new_string: 'A' })).toMatch(/^Edited/);
      expect(await tools.call('edit_file', { path: '/a', old_string: 'beta', new_string: 'B' })).toMatch(/^Edited/);
      expect(await backend.readText('/a')).toBe('A B');
    });

    it('ENOTREAD without a read, ESTALE after an outside change in the same millisecond', async () => {
      const clock = manualClock();
      const backend = await make({ now: clock.now, files: { '/a': 'x = 1' } });
      const tools = createTools(backend);
      expect(await tools.call('edit_file', { path: '/a', old_string: 'x', new_string: 'y' })).toMatch(/^Error: ENOTREAD.*unchanged/);
      await tools.call('read_file', { path: '/a' });
      await backend.writeFile('/a', 'x = 2');
      const stale = await tools.call('edit_file', { path: '/a', old_string: 'x', new_string: 'y' });
      expect(stale).toMatch(/^Error: ESTALE/);
      expect(stale).toMatch(/read/i);
      expect(await backend.readText('/a')).toBe('x = 2');
      expect(await tools.call('edit_file', { path: '/missing', old_string: 'x', new_string: 'y' })).toMatch(/^Error: ENOENT/);
      // A directory is EISDIR, not ENOTREAD: read_file could never make that edit possible.
      await backend.mkdir('/d');
      expect(await tools.call('edit_file', { path: '/d', old_string: 'x', new_string: 'y' })).toBe(
        'Error: EISDIR: /d is a directory; edit_file edits a file. The directory is unchanged. Use ls on it to find the file to edit.',
      );
    });

    it('a file that is not valid UTF-8 (Latin-1 café) is refused, byte-identical: an edit would rewrite its bad bytes too', async () => {
      const latin1 = new Uint8Array([...utf8('hello\ncaf'), 0xe9, 0x0a]);
      const { backend, tools } = await session(make, { '/l1.txt': latin1 });
      const out = await tools.run('edit_file', { path: '/l1.txt', old_string: 'hello', new_string: 'HELLO' });
      expect(out).toMatchObject({ isError: true, code: 'EBINARY', changed: [] });
      expect(out.text).toMatch(/not valid UTF-8 text \(line 2 /);
      const patch = createTools(backend, { dialect: 'openai' });
      expect((await patch.run('apply_patch', { input: '*** Begin Patch\n*** Update File: /l1.txt\n-hello\n+HELLO\n*** End Patch' })).code).toBe('EBINARY');
      expect([...(await backend.readFile('/l1.txt'))]).toEqual([...latin1]);
    });

    it('ENOMATCH shows the closest candidate lines and leaves the file unchanged', async () => {
      const original = 'function alpha() {\n  return computeTotal(items);\n}\n';
      const { backend, tools } = await session(make, { '/a.js': original });
      const out = await tools.call('edit_file', { path: '/a.js', old_string: 'return computeTotals(items);', new_string: 'x' });
      expect(out).toMatch(/^Error: ENOMATCH/);
      expect(out).toContain('computeTotal(items)');
      expect(out).toMatch(/\b2\b/);
      expect(out).toMatch(/unchanged/);
      expect(await backend.readText('/a.js')).toBe(original);
    });

    it("ENOMATCH for read_file's rows of a long line joined with line breaks says the rows have none", async () => {
      const long = `${'x'.repeat(5000)}${'y'.repeat(1000)}z`;
      const { backend, tools } = await session(make, { '/min.js': `a\n${long}\nb\n` });
      const joined = `${'x'.repeat(5000)}\n${'y'.repeat(1000)}z`;
      const out = await tools.call('edit_file', { path: '/min.js', old_string: joined, new_string: 'w' });
      expect(out).toMatch(/^Error: ENOMATCH: /);
      expect(out).toMatch(
        /\nLines over 5,000 characters are shown by read_file in rows \(N, N\.1, N\.2, …\) with no line break between them: where old_string spans such rows, join them without one\.$/,
      );
      expect(await backend.readText('/min.js')).toBe(`a\n${long}\nb\n`);
      // Joined without it, the edit lands; with no long line in the file, no such note.
      expect(await tools.call('edit_file', { path: '/min.js', old_string: joined.replace('\n', ''), new_string: 'w' })).toMatch(/^Edited/);
      expect(await tools.call('edit_file', { path: '/min.js', old_string: 'a\nq', new_string: 'w' })).not.toContain('Lines over');
    });

    it('EAMBIGUOUS names the count and line numbers; replace_all replaces every one', async () => {
      const original = 'x\nfoo\ny\nfoo\nfoo\n';
      const { backend, tools } = await session(make, { '/a': original });
      const out = await tools.call('edit_file', { path: '/a', old_string: 'foo', new_string: 'bar' });
      expect(out).toMatch(/^Error: EAMBIGUOUS/);
      expect(out).toMatch(/3/);
      expect(out).toMatch(/2, 4, 5/);
      expect(await backend.readText('/a')).toBe(original);
      expect(await tools.call('edit_file', { path: '/a', old_string: 'foo', new_string: 'bar', replace_all: true })).toMatch(/3 replacements/);
      expect(await backend.readText('/a')).toBe('x\nbar\ny\nbar\nbar\n');
    });

    it('replace_all over a whole file shows each change with a line around it, and where the rest are', async () => {
      const lines = Array.from({ length: 1000 }, (_, i) => (i % 100 === 50 ? `call(oldName, ${i});` : `line ${i + 1}`));
      const { tools } = await session(make, { '/a.js': `${lines.join('\n')}\n` });
      const out = await tools.call('edit_file', { path: '/a.js', old_string: 'oldName', new_string: 'newName', replace_all: true });
      const window = (n: number) =>
        `${String(n - 1).padStart(6)}\tline ${n - 1}\n${String(n).padStart(6)}\tcall(newName, ${n - 1});\n${String(n + 1).padStart(6)}\tline ${n + 1}`;
      expect(out).toBe(`Edited /a.js: 10 replacements.\n${[51, 151, 251, 351, 451, 551, 651, 751, 851, 951].map(window).join('\n...\n')}`);
      // Past 40 lines shown: how many more, and where.
      const many = Array.from({ length: 100 }, (_, i) => `x${i} = oldName;`).join('\n\n');
      const { tools: t2 } = await session(make, { '/b.js': many });
      const more = await t2.call('edit_file', { path: '/b.js', old_string: 'oldName', new_string: 'newName', replace_all: true });
      expect(more.split('\n').filter((l) => /^\s+\d+\t/.test(l))).toHaveLength(40);
      expect(more).toMatch(/\n\.\.\. \[80 more replacements, lines 41-199; use read_file to see them\]$/);
      // Nothing left to show: said, not an empty line.
      const { tools: t3 } = await session(make, { '/c': 'x\nx\nx\n' });
      expect(await t3.call('edit_file', { path: '/c', old_string: 'x\n', new_string: '', replace_all: true })).toBe(
        'Edited /c: 3 replacements. The file is now empty.',
      );
    });

    it('ENOCHANGE when old_string equals new_string', async () => {
      const { tools } = await session(make, { '/a': 'same' });
      expect(await tools.call('edit_file', { path: '/a', old_string: 'same', new_string: 'same' })).toMatch(/^Error: ENOCHANGE/);
    });

    it('replacement is literal: $& and $1 stay as typed', async () => {
      const { backend, tools } = await session(make, { '/a': 'price: X' });
      await tools.call('edit_file', { path: '/a', old_string: 'X', new_string: '$& $1 $$' });
      expect(await backend.readText('/a')).toBe('price: $& $1 $$');
    });

    it('an LF old_string matches a CRLF file; untouched lines stay byte-identical', async () => {
      const original = 'keep\r\nmixed\nold one\r\nold two\r\ntail\r\n';
      const { backend, tools } = await session(make, { '/w.txt': original });
      const out = await tools.call('edit_file', { path: '/w.txt', old_string: 'old one\nold two', new_string: 'new one\nnew two' });
      expect(out).toMatch(/^Edited/);
      expect(out.toLowerCase()).toMatch(/line ending/);
      expect(await backend.readText('/w.txt')).toBe('keep\r\nmixed\nnew one\r\nnew two\r\ntail\r\n');
    });

    it('corrects over-escaped strings, trailing whitespace and indentation, saying which', async () => {
      const { backend, tools } = await session(make, {
        '/esc.js': 'const s = "a\\nb";\nsay("hi");\n',
        '/ws.txt': 'alpha   \nbeta\t\n',
        '/ind.py': 'def f():\n    if x:\n        return 1\n',
      });
      const esc = await tools.call('edit_file', { path: '/esc.js', old_string: 'say(\\"hi\\");', new_string: 'say(\\"bye\\");' });
      expect(esc).toMatch(/^Edited/);
      expect(await backend.readText('/esc.js')).toBe('const s = "a\\nb";\nsay("bye");\n');
      const ws = await tools.call('edit_file', { path: '/ws.txt', old_string: 'alpha\nbeta', new_string: 'gamma\ndelta' });
      expect(ws).toMatch(/^Edited/);
      expect(ws.toLowerCase()).toMatch(/whitespace/);
      expect(await backend.readText('/ws.txt')).toBe('gamma\ndelta\n');
      const ind = await tools.call('edit_file', { path: '/ind.py', old_string: 'if x:\n    return 1', new_string: 'if y:\n    return 2' });
      expect(ind).toMatch(/^Edited/);
      expect(ind.toLowerCase()).toMatch(/indent/);
      expect(await backend.readText('/ind.py')).toBe('def f():\n    if y:\n        return 2\n');
    });

    it('keeps the BOM and the missing final newline', async () => {
      const { backend, tools } = await session(make, { '/b.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('one\ntwo')]) });
      await tools.call('edit_file', { path: '/b.txt', old_string: 'two', new_string: 'three' });
      expect([...(await backend.readFile('/b.txt'))]).toEqual([0xef, 0xbb, 0xbf, ...utf8('one\nthree')]);
    });

    it('refuses a binary file, leaving it byte-identical', async () => {
      const backend = await make({ files: { '/bin': new Uint8Array([97, 0, 98]) } });
      const tools = createTools(backend);
      expect(await tools.call('read_file', { path: '/bin' })).toMatch(/^Error: EBINARY/);
      expect(await tools.call('edit_file', { path: '/bin', old_string: 'a', new_string: 'c' })).toMatch(/^Error: /);
      expect([...(await backend.readFile('/bin'))]).toEqual([97, 0, 98]);
    });
  });
}
