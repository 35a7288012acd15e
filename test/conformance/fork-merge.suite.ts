import { describe, expect, it } from 'vitest';
import { createTools, type WatchEvent } from '../../src/index.ts';
import { expectVfsError, text, utf8, type BackendFactory } from './harness.ts';

type Backend = Awaited<ReturnType<BackendFactory>>;

async function files(b: Backend): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const p of await b.glob('**/*')) out[p] = await b.readText(p);
  return out;
}

const lines = (n: number, change: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => change[i + 1] ?? `line ${i + 1}`)
    .map((l) => `${l}\n`)
    .join('');

export function forkMergeSuite(make: BackendFactory) {
  describe('fork and merge', () => {
    it('a fork starts with the same files; writes on either side are invisible to the other', async () => {
      const parent = await make({ files: { '/a.txt': 'a', '/src/b.txt': 'b' } });
      const fork = await parent.fork();
      expect(await files(fork)).toEqual({ '/a.txt': 'a', '/src/b.txt': 'b' });
      await fork.writeFile('/a.txt', 'fork');
      await fork.writeFile('/new.txt', 'new');
      await parent.remove('/src', { recursive: true });
      expect(await files(parent)).toEqual({ '/a.txt': 'a' });
      expect(await files(fork)).toEqual({ '/a.txt': 'fork', '/new.txt': 'new', '/src/b.txt': 'b' });
      // Forks of forks, each on its own.
      const grandchild = await fork.fork();
      await grandchild.writeFile('/a.txt', 'grandchild');
      expect(await fork.readText('/a.txt')).toBe('fork');
      expect(await grandchild.readText('/new.txt')).toBe('new');
      expect(await parent.exists('/new.txt')).toBe(false);
    });

    it('an applyBatch in a fork leaves the parent as it was, and merges back', async () => {
      const parent = await make({ files: { '/a.txt': 'a', '/gone.txt': 'g' } });
      const fork = await parent.fork();
      await fork.applyBatch([
        { path: '/a.txt', content: 'A' },
        { path: '/gone.txt', content: null },
      ]);
      expect(await files(parent)).toEqual({ '/a.txt': 'a', '/gone.txt': 'g' });
      expect((await parent.merge(fork)).merged).toEqual(['/a.txt', '/gone.txt']);
      expect(await files(parent)).toEqual({ '/a.txt': 'A' });
    });

    it('merges edits to different regions of one file, creations, removals and renames', async () => {
      const parent = await make({ files: { '/f.txt': lines(10), '/gone.txt': 'x', '/old/name.ts': 'moved\n', '/keep.txt': 'k' } });
      const fork = await parent.fork();
      await parent.writeFile('/f.txt', lines(10, { 2: 'parent two' }));
      await fork.writeFile('/f.txt', lines(10, { 9: 'fork nine' }));
      await fork.remove('/gone.txt');
      await fork.rename('/old/name.ts', '/new/name.ts');
      await fork.writeFile('/added.txt', 'added');
      const result = await parent.merge(fork);
      expect(result.conflicts).toEqual([]);
      expect(result.merged).toEqual(['/added.txt', '/f.txt', '/gone.txt', '/new', '/new/name.ts', '/old/name.ts']);
      expect(await files(parent)).toEqual({
        '/added.txt': 'added',
        '/f.txt': lines(10, { 2: 'parent two', 9: 'fork nine' }),
        '/keep.txt': 'k',
        '/new/name.ts': 'moved\n',
      });
      expect(result.patch).toContain('+fork nine');
      expect(result.patch).not.toContain('parent two\n+'); // ours' own change is not part of what the merge did
    });

    it('a rename in the fork carries the parent’s edit of that file to its new path', async () => {
      const parent = await make({ files: { '/a.ts': lines(6) } });
      const fork = await parent.fork();
      await fork.rename('/a.ts', '/b.ts');
      await parent.edit('/a.ts', 'line 2', 'parent 2');
      const result = await parent.merge(fork);
      expect(result.conflicts).toEqual([]);
      expect(await files(parent)).toEqual({ '/b.ts': lines(6, { 2: 'parent 2' }) });
    });

    it('both sides moving a file to one path, one of them also editing it, merge to the edited file there (two subagents told the same rename)', async () => {
      for (const editor of ['fork', 'parent'] as const) {
        const parent = await make({ files: { '/a.ts': lines(6) } });
        const fork = await parent.fork();
        await parent.rename('/a.ts', '/b.ts');
        await fork.rename('/a.ts', '/b.ts');
        await (editor === 'fork' ? fork : parent).edit('/b.ts', 'line 4', `${editor} 4`);
        const result = await parent.merge(fork);
        expect(result.conflicts, editor).toEqual([]);
        expect(await files(parent)).toEqual({ '/b.ts': lines(6, { 4: `${editor} 4` }) });
      }
    });

    it("a file one side moved and edited takes the other side's edit at its new path, as git's rename detection does", async () => {
      for (const mover of ['fork', 'parent'] as const) {
        const parent = await make({ files: { '/src/a.ts': lines(20), '/other.ts': lines(20, { 1: 'other' }) } });
        const fork = await parent.fork();
        const [moving, staying] = mover === 'fork' ? [fork, parent] : [parent, fork];
        await moving.rename('/src/a.ts', '/lib/a.ts');
        await moving.edit('/lib/a.ts', 'line 2\n', 'moved two\n');
        await staying.edit('/src/a.ts', 'line 19\n', 'stayed nineteen\n');
        const result = await parent.merge(fork);
        expect(result.conflicts, mover).toEqual([]);
        expect(await files(parent), mover).toEqual({
          '/lib/a.ts': lines(20, { 2: 'moved two', 19: 'stayed nineteen' }),
          '/other.ts': lines(20, { 1: 'other' }),
        });
        // The other side left it alone: the moved file arrives with its edit.
        const p2 = await make({ files: { '/src/a.ts': lines(20) } });
        const f2 = await p2.fork();
        const m2 = mover === 'fork' ? f2 : p2;
        await m2.rename('/src/a.ts', '/lib/a.ts');
        await m2.edit('/lib/a.ts', 'line 2\n', 'moved two\n');
        expect((await p2.merge(f2)).conflicts, mover).toEqual([]);
        expect(await files(p2), mover).toEqual({ '/lib/a.ts': lines(20, { 2: 'moved two' }) });
      }
    });

    it('both sides moving a file to one path and both editing it merge as one file; edits of one line there are a content conflict', async () => {
      const parent = await make({ files: { '/a.ts': lines(10) } });
      const fork = await parent.fork();
      for (const side of [parent, fork]) await side.rename('/a.ts', '/b.ts');
      await parent.edit('/b.ts', 'line 2\n', 'parent 2\n');
      await fork.edit('/b.ts', 'line 9\n', 'fork 9\n');
      expect((await parent.merge(fork)).conflicts).toEqual([]);
      expect(await files(parent)).toEqual({ '/b.ts': lines(10, { 2: 'parent 2', 9: 'fork 9' }) });
      // The same line edited on both sides: one conflict at the new path, with its hunk.
      const again = await make({ files: { '/a.ts': lines(10) } });
      const f2 = await again.fork();
      await again.rename('/a.ts', '/c.ts');
      await again.edit('/c.ts', 'line 5\n', 'here 5\n');
      await f2.edit('/a.ts', 'line 5\n', 'fork 5\n');
      const result = await again.merge(f2);
      expect(result.conflicts.map((c) => [c.path, c.kind, c.hunks?.length])).toEqual([['/c.ts', 'content', 1]]);
      expect(await files(again)).toEqual({ '/c.ts': lines(10, { 5: 'here 5' }) });
    });

    it('a moved file is found by its lines only when it keeps at least half of its text; the most similar new file wins', async () => {
      const parent = await make({ files: { '/a.ts': lines(10) } });
      const fork = await parent.fork();
      await fork.remove('/a.ts');
      // Keeps 4 of 10 lines: a removal and an unrelated creation, not a move.
      await fork.writeFile('/mostly-new.ts', lines(10, { 1: 'x1', 2: 'x2', 3: 'x3', 4: 'x4', 5: 'x5', 6: 'x6' }));
      // Keeps 8 and 9 of 10: the closer one is the move, whatever its name.
      await fork.writeFile('/b.ts', lines(10, { 1: 'b1', 2: 'b2' }));
      await fork.writeFile('/zz.ts', lines(10, { 1: 'z1' }));
      await parent.edit('/a.ts', 'line 10\n', 'parent ten\n');
      const result = await parent.merge(fork);
      expect(result.conflicts).toEqual([]);
      expect(await files(parent)).toEqual({
        '/b.ts': lines(10, { 1: 'b1', 2: 'b2' }),
        '/mostly-new.ts': lines(10, { 1: 'x1', 2: 'x2', 3: 'x3', 4: 'x4', 5: 'x5', 6: 'x6' }),
        '/zz.ts': lines(10, { 1: 'z1', 10: 'parent ten' }),
      });
      // A file of blank lines and one changed line does not look like a moved file of blank lines.
      const blanks = await make({ files: { '/t.txt': `a\n${'\n'.repeat(8)}` } });
      const fb = await blanks.fork();
      await fb.remove('/t.txt');
      await fb.writeFile('/u.txt', `completely different first line\n${'\n'.repeat(8)}`);
      await blanks.writeFile('/t.txt', `A\n${'\n'.repeat(8)}`);
      expect((await blanks.merge(fb)).conflicts.map((c) => c.kind)).toEqual(['delete-modify']);
    });

    it("with markers, a file the fork moved and changed that cannot land as a move keeps the fork's changes", async () => {
      const edited = lines(10, { 3: 'fork three' });
      const moveAndEdit = async (fork: Backend, to: string) => {
        await fork.rename('/a.ts', to);
        await fork.writeFile(to, edited);
      };
      // Moved two ways: the fork's changed file is kept where it put it, beside this side's.
      const parent = await make({ files: { '/a.ts': lines(10) } });
      const fork = await parent.fork();
      await parent.rename('/a.ts', '/c.ts');
      await moveAndEdit(fork, '/b.ts');
      const result = await parent.merge(fork, { conflicts: 'markers' });
      expect(result.conflicts.map((c) => [c.path, c.kind])).toEqual([['/a.ts', 'content']]);
      expect(await files(parent)).toEqual({ '/b.ts': edited, '/c.ts': lines(10) });
      // Moved to a path this side filled: both files between markers, as for a path both created.
      const p2 = await make({ files: { '/a.ts': lines(10) } });
      const f2 = await p2.fork();
      await p2.writeFile('/b.ts', 'here\n');
      await moveAndEdit(f2, '/b.ts');
      const r2 = await p2.merge(f2, { conflicts: 'markers' });
      expect(r2.conflicts.map((c) => [c.path, c.kind])).toEqual([['/b.ts', 'add-add']]);
      const b = await p2.readText('/b.ts');
      expect(b).toContain('fork three');
      expect(b).toContain('here');
      expect(await p2.exists('/a.ts')).toBe(false);
      // This side turned the file into a directory: the fork's moved file is still created.
      const p3 = await make({ files: { '/a.ts': lines(10) } });
      const f3 = await p3.fork();
      await p3.remove('/a.ts');
      await p3.writeFile('/a.ts/x', 'x\n');
      await moveAndEdit(f3, '/b.ts');
      const r3 = await p3.merge(f3, { conflicts: 'markers' });
      expect(r3.conflicts.map((c) => [c.path, c.kind])).toEqual([['/a.ts', 'type']]);
      expect(await files(p3)).toEqual({ '/a.ts/x': 'x\n', '/b.ts': edited });
    });

    it('a file moved here, and removed in the fork that made an unrelated file at that path: a conflict, not a silent replacement', async () => {
      const parent = await make({ files: { '/q.txt': lines(5) } });
      const fork = await parent.fork();
      await parent.rename('/q.txt', '/p.txt');
      await fork.remove('/q.txt');
      await fork.writeFile('/p.txt', 'unrelated\n');
      const result = await parent.merge(fork);
      expect(result.conflicts.map((c) => c.kind).sort()).toEqual(['add-add', 'delete-modify']);
      expect(result.merged).toEqual([]);
      expect(await files(parent)).toEqual({ '/p.txt': lines(5) });
    });

    it('a file moved here and removed in the fork: the conflict says it was moved here', async () => {
      const parent = await make({ files: { '/a.ts': lines(2) } });
      const fork = await parent.fork();
      await parent.rename('/a.ts', '/b.ts');
      await fork.remove('/a.ts');
      expect((await parent.merge(fork)).conflicts).toEqual([
        { path: '/b.ts', kind: 'delete-modify', detail: '/a.ts was removed in the fork and moved to /b.ts here; kept as it is here.' },
      ]);
    });

    it('a fork taking in its parent: the conflicts name the parent as the other side, not "the fork"', async () => {
      const parent = await make({ files: { '/gone.ts': 'g1\ng2\n', '/moved.ts': lines(4) } });
      const fork = await parent.fork();
      await parent.remove('/gone.ts');
      await fork.edit('/gone.ts', 'g1', 'g1 fork');
      await parent.rename('/moved.ts', '/p.ts');
      await fork.rename('/moved.ts', '/f.ts');
      const details = (await fork.merge(parent)).conflicts.map((c) => c.detail);
      expect(details).toEqual([
        '/gone.ts was removed in the parent and changed here; kept as it is here.',
        '/moved.ts was moved to /f.ts here and to /p.ts in the parent; kept at /f.ts.',
      ]);
      // The other way round, the fork is the other side.
      expect((await parent.merge(fork)).conflicts.map((c) => c.detail)).toEqual([
        "/gone.ts was removed here and changed in the fork; with markers the fork's file is kept.",
        '/moved.ts was moved to /p.ts here and to /f.ts in the fork; kept at /p.ts.',
      ]);
    });

    it("'report' describes each conflict and changes nothing", async () => {
      const parent = await make({ files: { '/f.txt': lines(5), '/del.txt': 'd', '/bin': utf8('a\0b') } });
      const fork = await parent.fork();
      await parent.writeFile('/f.txt', lines(5, { 3: 'parent three' }));
      await fork.writeFile('/f.txt', lines(5, { 3: 'fork three' }));
      await parent.remove('/del.txt');
      await fork.writeFile('/del.txt', 'changed');
      await parent.writeFile('/bin', utf8('p\0'));
      await fork.writeFile('/bin', utf8('f\0'));
      await parent.writeFile('/both.txt', 'parent\n');
      await fork.writeFile('/both.txt', 'fork\n');
      await fork.writeFile('/clean.txt', 'would merge');
      const before = await parent.snapshot();
      const seen: WatchEvent[][] = [];
      const stop = parent.watch((events) => seen.push(events));
      const result = await parent.merge(fork);
      stop();
      expect(result.merged).toEqual([]);
      expect(result.patch).toBe('');
      expect(result.conflicts.map((c) => [c.path, c.kind])).toEqual([
        ['/bin', 'binary'],
        ['/both.txt', 'add-add'],
        ['/del.txt', 'delete-modify'],
        ['/f.txt', 'content'],
      ]);
      const content = result.conflicts.find((c) => c.kind === 'content')!;
      expect(content.hunks).toEqual([{ line: 3, base: 'line 3\n', ours: 'parent three\n', theirs: 'fork three\n' }]);
      expect(content.detail).toMatch(/1 region/);
      expect(await parent.snapshot()).toEqual(before);
      expect(seen).toEqual([]);
      // Nothing was merged, so the fork can still be merged once its conflicts are settled.
      await fork.writeFile('/f.txt', lines(5, { 3: 'parent three' }));
      await fork.remove('/del.txt');
      await fork.writeFile('/bin', utf8('p\0'));
      await fork.writeFile('/both.txt', 'parent\n');
      const second = await parent.merge(fork);
      expect(second.conflicts).toEqual([]);
      expect(second.merged).toEqual(['/clean.txt']);
    });

    it('a file one side turned into a directory, or a directory into a file, merges when the other side left it alone', async () => {
      const parent = await make({ files: { '/notes': 'flat\n', '/d/x': 'x\n', '/other': 'o\n' } });
      const fork = await parent.fork();
      await fork.remove('/notes');
      await fork.writeFile('/notes/index.md', 'now a directory\n');
      await fork.remove('/d', { recursive: true });
      await fork.writeFile('/d', 'now a file\n');
      const result = await parent.merge(fork);
      expect(result.conflicts).toEqual([]);
      expect(await files(parent)).toEqual({ '/d': 'now a file\n', '/notes/index.md': 'now a directory\n', '/other': 'o\n' });
      expect(await files(parent)).toEqual(await files(fork));
      // Whatever order the files were made in: a fork that removed /z and moved /b under it merges.
      for (const made of [
        { '/b': 'B', '/z': 'Z' },
        { '/z': 'Z', '/b': 'B' },
      ]) {
        const p = await make({ files: made });
        const f = await p.fork();
        await f.remove('/z');
        await f.rename('/b', '/z/b');
        expect((await p.merge(f)).conflicts).toEqual([]);
        expect(await files(p)).toEqual({ '/z/b': 'B' });
      }
    });

    it('where one side changed what the other turned into a directory, the conflict keeps this side whole, with markers too', async () => {
      const parent = await make({ files: { '/notes': 'flat\n', '/d/x': 'x\n' } });
      const fork = await parent.fork();
      await parent.writeFile('/notes', 'flat, edited here\n');
      await parent.writeFile('/d/y', 'new here\n');
      await fork.remove('/notes');
      await fork.writeFile('/notes/index.md', 'dir\n');
      await fork.remove('/d', { recursive: true });
      await fork.writeFile('/d', 'file\n');
      const result = await parent.merge(fork, { conflicts: 'markers' });
      expect(result.conflicts.map((c) => [c.path, c.kind])).toEqual([
        ['/d', 'type'],
        ['/notes', 'type'],
      ]);
      expect(await files(parent)).toEqual({ '/d/y': 'new here\n', '/notes': 'flat, edited here\n' });
    });

    it('a path both sides filled (a move onto a new file, a new file onto a move) is a conflict, never a file lost or a throw', async () => {
      for (const markers of [false, true]) {
        const conflicts = markers ? ('markers' as const) : ('report' as const);
        // Here /A moved to /B; the fork made a new /B.
        const p1 = await make({ files: { '/A': 'a\n' } });
        const f1 = await p1.fork();
        await p1.rename('/A', '/B');
        await f1.writeFile('/B', 'fork B\n');
        const r1 = await p1.merge(f1, { conflicts });
        expect(r1.conflicts.map((c) => [c.path, c.kind])).toEqual([['/B', 'add-add']]);
        expect(await p1.readText('/B')).toBe(markers ? '<<<<<<< ours\na\n=======\nfork B\n>>>>>>> theirs\n' : 'a\n');
        // The fork moved /A to /B; here a new /B was written, or /C moved there.
        for (const fill of ['write', 'rename'] as const) {
          const p2 = await make({ files: { '/A': 'a\n', '/C': 'c\n' } });
          const f2 = await p2.fork();
          await f2.rename('/A', '/B');
          if (fill === 'write') await p2.writeFile('/B', 'ours B\n');
          else await p2.rename('/C', '/B');
          const before = await files(p2);
          const r2 = await p2.merge(f2, { conflicts });
          expect(r2.conflicts.map((c) => [c.path, c.kind])).toEqual([['/B', 'add-add']]);
          expect(r2.conflicts[0]!.detail).toMatch(/The fork moved \/A to \/B, which also exists here/);
          expect(await files(p2)).toEqual(before);
        }
      }
    });

    it("'markers' writes git-style markers and merges the rest", async () => {
      const parent = await make({ files: { '/f.txt': lines(5) } });
      const fork = await parent.fork();
      await parent.writeFile('/f.txt', lines(5, { 3: 'parent three' }));
      await fork.writeFile('/f.txt', lines(5, { 3: 'fork three', 5: 'fork five' }));
      await fork.writeFile('/g.txt', 'g');
      const result = await parent.merge(fork, { conflicts: 'markers' });
      expect(result.conflicts.map((c) => c.kind)).toEqual(['content']);
      expect(result.merged).toEqual(['/f.txt', '/g.txt']);
      expect(await parent.readText('/f.txt')).toBe('line 1\nline 2\n<<<<<<< ours\nparent three\n=======\nfork three\n>>>>>>> theirs\nline 4\nfork five\n');
      expect(await parent.readText('/g.txt')).toBe('g');
    });

    it('a fork takes in its parent’s changes with fork.merge(parent); a conflict settled there then merges cleanly', async () => {
      const parent = await make({ files: { '/README.md': 'intro\nshown with `formatPrice`.\nend\n' } });
      const fork = await parent.fork();
      await parent.writeFile('/README.md', 'intro\nshown with `formatMoney`.\nend\n');
      await parent.writeFile('/parent-only.txt', 'p');
      await fork.writeFile('/README.md', 'intro\nshown with `formatPrice`. Tested.\nend\n');
      const refused = await parent.merge(fork);
      expect(refused.conflicts.map((c) => [c.path, c.kind])).toEqual([['/README.md', 'content']]);
      // In the fork: bring the parent's changes in, with markers where both changed.
      const update = await fork.merge(parent, { conflicts: 'markers' });
      expect(update.merged).toEqual(['/README.md', '/parent-only.txt']);
      expect(await fork.readText('/README.md')).toBe(
        'intro\n<<<<<<< ours\nshown with `formatPrice`. Tested.\n=======\nshown with `formatMoney`.\n>>>>>>> theirs\nend\n',
      );
      await fork.writeFile('/README.md', 'intro\nshown with `formatMoney`. Tested.\nend\n');
      const result = await parent.merge(fork);
      expect(result.conflicts).toEqual([]);
      expect(result.merged).toEqual(['/README.md']);
      expect(await parent.readText('/README.md')).toBe('intro\nshown with `formatMoney`. Tested.\nend\n');
      // The fork's new base is the parent's state it took in: a later parent write is still invisible to it.
      await parent.writeFile('/parent-only.txt', 'p2');
      expect(await fork.readText('/parent-only.txt')).toBe('p');
    });

    it('merging a fork twice, a fork of another backend, or a bad option is a clear error', async () => {
      const parent = await make({ files: { '/a': 'a' } });
      const other = await make();
      const fork = await parent.fork();
      await fork.writeFile('/b', 'b');
      const grandchild = await fork.fork();
      // Through a worker, another worker's fork is not even found there.
      expect((await expectVfsError(other.merge(fork), 'EINVAL')).message).toMatch(/fork made by this backend|not served by this worker/);
      expect((await expectVfsError(parent.merge(grandchild), 'EINVAL')).message).toMatch(/fork made by this backend/);
      await expectVfsError(parent.merge(fork, { conflicts: 'theirs' as never }), 'EINVAL');
      await parent.merge(fork);
      expect((await expectVfsError(parent.merge(fork), 'EINVAL')).message).toMatch(/already merged/);
      expect(await files(parent)).toEqual({ '/a': 'a', '/b': 'b' });
    });

    it('a merge that would break a limit changes nothing', async () => {
      const parent = await make({ files: { '/a': 'a' }, limits: { maxFiles: 3 } });
      const fork = await parent.fork();
      await fork.writeFile('/b', 'b');
      await parent.writeFile('/c', 'c');
      await fork.writeFile('/d', 'd');
      const before = await parent.snapshot();
      await expectVfsError(parent.merge(fork), 'EQUOTA');
      expect(await parent.snapshot()).toEqual(before);
    });

    it('a refused merge leaves nothing for the next checkpoint to count: it holds only what changed', async () => {
      const parent = await make({ files: { '/a': '1' }, limits: { maxFiles: 3 } });
      await parent.checkpoint('c1');
      const fork = await parent.fork();
      await fork.writeFile('/f1', '1');
      await fork.writeFile('/f2', '2');
      await parent.writeFile('/p', 'p');
      await expectVfsError(parent.merge(fork), 'EQUOTA');
      const c2 = await parent.checkpoint('c2');
      expect((await parent.listCheckpoints()).find((c) => c.id === c2)?.changedPaths).toBe(1);
    });

    it('a file the fork took back to its base bytes, or whose changes are here already, is left as it is: same version, no event, reads still count', async () => {
      const parent = await make({ files: { '/a.ts': 'const x = 1;\n', '/b.txt': lines(5), '/c.txt': 'c\n' } });
      const fork = await parent.fork();
      await fork.edit('/a.ts', '1', '2');
      await fork.edit('/a.ts', '2', '1'); // taken back
      await fork.writeFile('/b.txt', lines(5, { 1: 'one' }));
      await fork.remove('/c.txt');
      await fork.writeFile('/c.txt', 'c\n'); // removed and written again as it was
      await parent.writeFile('/a.ts', 'const x = 10;\n');
      await parent.writeFile('/b.txt', lines(5, { 1: 'one', 5: 'five' })); // the fork's edit, and one more
      await parent.remove('/c.txt');
      const tools = createTools(parent);
      await tools.call('read_file', { path: '/a.ts' });
      const versions = [(await parent.stat('/a.ts')).version, (await parent.stat('/b.txt')).version];
      const seen: WatchEvent[] = [];
      parent.watch((events) => seen.push(...events));
      expect(await parent.merge(fork)).toEqual({ merged: [], conflicts: [], patch: '' });
      expect([(await parent.stat('/a.ts')).version, (await parent.stat('/b.txt')).version]).toEqual(versions);
      expect(await parent.exists('/c.txt')).toBe(false); // removed here, unchanged there: no delete-modify conflict
      expect(seen).toEqual([]);
      expect(await tools.call('edit_file', { path: '/a.ts', old_string: '10', new_string: '11' })).toMatch(/^Edited \/a\.ts: 1 replacement\./);
    });

    it('a file written again with its own bytes, or a restore of the fork point, is unchanged, as git sees it: no conflict, and a move after it is followed', async () => {
      const bin = new Uint8Array([0, 1, 2]);
      // This side wrote a file again with the same bytes; the fork removed it.
      let parent = await make({ files: { '/a.txt': 'a\n' } });
      let fork = await parent.fork();
      await parent.writeFile('/a.txt', 'a\n');
      await fork.remove('/a.txt');
      expect((await parent.merge(fork)).conflicts).toEqual([]);
      expect(await parent.exists('/a.txt')).toBe(false);
      // This side restored the fork point (every file gets a new version); the fork removed a file and changed a binary one.
      parent = await make({ files: { '/notes.txt': 'n\n', '/img.bin': bin } });
      fork = await parent.fork();
      await parent.restore(await parent.snapshot());
      await fork.remove('/notes.txt');
      await fork.writeFile('/img.bin', new Uint8Array([0, 9]));
      expect((await parent.merge(fork)).conflicts).toEqual([]);
      expect(await parent.exists('/notes.txt')).toBe(false);
      expect([...(await parent.readFile('/img.bin'))]).toEqual([0, 9]);
      // This side wrote a file again, then moved it; the fork edited it: the edit follows the move.
      parent = await make({ files: { '/a.txt': '1\n2\n3\n' } });
      fork = await parent.fork();
      await parent.writeFile('/a.txt', '1\n2\n3\n');
      await parent.rename('/a.txt', '/b.txt');
      await fork.writeFile('/a.txt', '1\n2\nF\n');
      expect((await parent.merge(fork)).conflicts).toEqual([]);
      expect(await files(parent)).toEqual({ '/b.txt': '1\n2\nF\n' });
      // ...and when the fork removed it instead, that is a conflict, as without the write.
      parent = await make({ files: { '/d/c.txt': 'c\n' } });
      fork = await parent.fork();
      await parent.writeFile('/d/c.txt', 'c\n');
      await parent.rename('/d/c.txt', '/e/c.txt');
      await fork.remove('/d/c.txt');
      expect((await parent.merge(fork)).conflicts.map((c) => c.kind)).toEqual(['delete-modify']);
      // Two files of the same bytes: a move known by the file's identity is not taken by one found by its bytes.
      parent = await make({ files: { '/a': 'same\n', '/b': 'same\n' } });
      fork = await parent.fork();
      await fork.writeFile('/b', 'same\n');
      await fork.rename('/b', '/c');
      await fork.rename('/a', '/d');
      await parent.remove('/b');
      expect((await parent.merge(fork)).conflicts.map((c) => c.kind)).toEqual(['delete-modify']);
    });

    it('a UTF-8 BOM the fork added or removed merges like a line: it carries over when this side changed other lines', async () => {
      const bom = '\uFEFF';
      const parent = await make({ files: { '/add.txt': lines(5), '/drop.txt': bom + lines(5) } });
      const fork = await parent.fork();
      await fork.writeFile('/add.txt', bom + lines(5));
      await fork.writeFile('/drop.txt', lines(5));
      await parent.writeFile('/add.txt', lines(5, { 5: 'five' }));
      await parent.writeFile('/drop.txt', bom + lines(5, { 5: 'five' }));
      expect(await parent.merge(fork)).toMatchObject({ merged: ['/add.txt', '/drop.txt'], conflicts: [] });
      const bytes = async (path: string) => [...(await parent.readFile(path)).subarray(0, 3)];
      expect(await bytes('/add.txt')).toEqual([0xef, 0xbb, 0xbf]);
      expect(await bytes('/drop.txt')).toEqual([...new TextEncoder().encode('lin')]);
      expect(await parent.readText('/add.txt')).toBe(lines(5, { 5: 'five' }));
    });

    it('watchers see what the merge changed, as one commit', async () => {
      const parent = await make({ files: { '/a': 'a', '/b': 'b' } });
      const fork = await parent.fork();
      await fork.writeFile('/a', 'a2');
      await fork.rename('/b', '/c');
      const seen: WatchEvent[][] = [];
      parent.watch((events) => seen.push(events));
      await parent.merge(fork);
      expect(seen.map((batch) => batch.map((e) => `${e.type} ${e.oldPath ? `${e.oldPath}→` : ''}${e.path}`))).toEqual([['rename /b→/c', 'modify /a']]);
    });

    it('diff(fork) says what differs from this backend to the fork', async () => {
      const parent = await make({ files: { '/a.txt': 'one\n', '/b.txt': 'b\n' } });
      const fork = await parent.fork();
      await fork.writeFile('/a.txt', 'two\n');
      await fork.remove('/b.txt');
      await fork.writeFile('/c.txt', 'c\n');
      const d = await parent.diff(fork);
      expect([d.added, d.removed, d.modified]).toEqual([['/c.txt'], ['/b.txt'], ['/a.txt']]);
      expect(d.patch).toContain('-one\n+two');
      const back = await fork.diff(parent);
      expect([back.added, back.removed, back.modified]).toEqual([['/b.txt'], ['/c.txt'], ['/a.txt']]);
      await expectVfsError(parent.diff(await make()), 'EINVAL');
    });

    it('checkpoints and snapshots work on a fork: its snapshot is an ordinary snapshot', async () => {
      const parent = await make({ files: { '/a': 'a' } });
      const cp = await parent.checkpoint();
      const fork = await parent.fork();
      expect(await fork.listCheckpoints()).toEqual([]);
      const forkCp = await fork.checkpoint('fork start');
      await fork.writeFile('/a', 'fork');
      await fork.rollback(forkCp);
      expect(await fork.readText('/a')).toBe('a');
      await fork.writeFile('/b', 'b');
      const restored = await make();
      await restored.restore(await fork.snapshot());
      expect(await files(restored)).toEqual({ '/a': 'a', '/b': 'b' });
      await parent.writeFile('/a', 'parent');
      await parent.rollback(cp);
      expect(await parent.readText('/a')).toBe('a');
      expect(await fork.readText('/b')).toBe('b');
    });

    it('N sessions editing one file read at the same version: exactly one lands, the rest are ESTALE, and after re-reading all land', async () => {
      const b = await make({ files: { '/shared.ts': Array.from({ length: 6 }, (_, i) => `const v${i} = 0;\n`).join('') } });
      const sessions = Array.from({ length: 6 }, () => createTools(b));
      await Promise.all(sessions.map((t) => t.run('read_file', { path: '/shared.ts' })));
      const edit = (t: (typeof sessions)[number], i: number) =>
        t.run('edit_file', { path: '/shared.ts', old_string: `v${i} = 0`, new_string: `v${i} = ${i + 1}` });
      const first = await Promise.all(sessions.map(edit));
      expect(first.filter((r) => !r.isError)).toHaveLength(1);
      expect(first.filter((r) => r.code === 'ESTALE')).toHaveLength(5);
      for (const [i, t] of sessions.entries()) {
        if (!first[i]!.isError) continue;
        await t.run('read_file', { path: '/shared.ts' });
        expect((await edit(t, i)).isError).toBe(false);
      }
      expect(text(await b.readFile('/shared.ts'))).toBe(Array.from({ length: 6 }, (_, i) => `const v${i} = ${i + 1};\n`).join(''));
    });
  });
}
