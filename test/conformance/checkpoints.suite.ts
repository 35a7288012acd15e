import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import { expectVfsError, manualClock, text, type BackendFactory } from './harness.ts';

async function tree(b: Awaited<ReturnType<BackendFactory>>) {
  const out: Record<string, string> = {};
  for (const p of await b.glob('**/*')) out[p] = await b.readText(p);
  return out;
}

export function checkpointSuite(make: BackendFactory) {
  describe('checkpoints (rollback and diff)', () => {
    it('lists checkpoints with labels, parents and how much changed', async () => {
      const clock = manualClock(5_000);
      const b = await make({ now: clock.now, files: { '/a': '1', '/b': '2' } });
      const first = await b.checkpoint('start');
      await b.writeFile('/a', '1!');
      clock.tick(10);
      const second = await b.checkpoint();
      expect(await b.listCheckpoints()).toEqual([
        { id: first, label: 'start', createdAt: 5_000, parent: null, changedPaths: 2 },
        { id: second, label: null, createdAt: 5_010, parent: first, changedPaths: 1 },
      ]);
    });

    it('rollback returns files, directories and removals to the checkpoint', async () => {
      const b = await make({ files: { '/src/a.ts': 'a1\n', '/src/b.ts': 'b1\n', '/docs/x.md': 'x\n' } });
      const start = await b.checkpoint('start');
      await b.writeFile('/src/a.ts', 'a2\n');
      await b.remove('/src/b.ts');
      await b.writeFile('/src/new.ts', 'new\n');
      await b.rename('/docs', '/moved/docs');
      await b.mkdir('/empty');
      await b.rollback(start);
      expect(await tree(b)).toEqual({ '/src/a.ts': 'a1\n', '/src/b.ts': 'b1\n', '/docs/x.md': 'x\n' });
      expect(await b.exists('/empty')).toBe(false);
      expect(await b.exists('/moved')).toBe(false);
    });

    it('branches: rolling back and moving on keeps every checkpoint reachable', async () => {
      const b = await make({ files: { '/f': 'v0' } });
      const c1 = await b.checkpoint();
      await b.writeFile('/f', 'v1');
      const c2 = await b.checkpoint();
      await b.rollback(c1);
      await b.writeFile('/f', 'v1b');
      await b.writeFile('/g', 'g');
      const c3 = await b.checkpoint();
      expect((await b.listCheckpoints()).find((c) => c.id === c3)!.parent).toBe(c1);
      await b.rollback(c2);
      expect(await tree(b)).toEqual({ '/f': 'v1' });
      await b.rollback(c3);
      expect(await tree(b)).toEqual({ '/f': 'v1b', '/g': 'g' });
      await b.rollback(c1);
      expect(await tree(b)).toEqual({ '/f': 'v0' });
    });

    it('rollback keeps file versions: a read of that content stays valid, a read of later content goes stale', async () => {
      const b = await make({ files: { '/a': 'original' } });
      const tools = createTools(b);
      await tools.call('read_file', { path: '/a' });
      const cp = await b.checkpoint();
      await b.writeFile('/a', 'changed by someone');
      await b.rollback(cp);
      expect(await tools.call('edit_file', { path: '/a', old_string: 'original', new_string: 'edited' })).toMatch(/^Edited/);
      const cp2 = await b.checkpoint();
      await tools.call('edit_file', { path: '/a', old_string: 'edited', new_string: 'edited twice' });
      const later = createTools(b); // a session that only ever saw the later content
      await later.call('read_file', { path: '/a' });
      await b.rollback(cp2);
      expect(await later.call('edit_file', { path: '/a', old_string: 'edited', new_string: 'x' })).toMatch(/^Error: ESTALE/);
      expect(await later.call('write_file', { path: '/a', content: 'x' })).toMatch(/^Error: ESTALE/);
      expect(text(await b.readFile('/a'))).toBe('edited');
    });

    it('after a rollback, a session that had read (or written) the restored version edits it again without re-reading', async () => {
      const b = await make({ files: { '/a': 'v1\n', '/b': 'b1\n' } });
      const tools = createTools(b);
      await tools.call('read_file', { path: '/a' });
      await tools.call('read_file', { path: '/b' });
      const cp = await b.checkpoint();
      // This session moves on (edits, overwrites), then the state goes back to the checkpoint.
      expect(await tools.call('edit_file', { path: '/a', old_string: 'v1', new_string: 'v2' })).toMatch(/^Edited/);
      expect(await tools.call('write_file', { path: '/b', content: 'b2\n' })).toMatch(/^Updated/);
      await b.rollback(cp);
      expect(await tools.call('edit_file', { path: '/a', old_string: 'v1', new_string: 'v3' })).toMatch(/^Edited \/a/);
      expect(await tools.call('write_file', { path: '/b', content: 'b3\n' })).toMatch(/^Updated \/b/);
      expect(text(await b.readFile('/a'))).toBe('v3\n');
      // And back again to the version it wrote itself.
      const cp2 = await b.checkpoint();
      await b.writeFile('/a', 'by someone else\n');
      expect(await tools.call('edit_file', { path: '/a', old_string: 'v3', new_string: 'v4' })).toMatch(/^Error: ESTALE/);
      await b.rollback(cp2);
      expect(await tools.call('edit_file', { path: '/a', old_string: 'v3', new_string: 'v4' })).toMatch(/^Edited/);
    });

    it('survives a restore: a checkpoint taken before it can still be rolled back to', async () => {
      const b = await make({ files: { '/mine': 'mine' } });
      const cp = await b.checkpoint();
      const other = await make({ files: { '/theirs': 'theirs' } });
      await b.restore(await other.snapshot());
      expect(await tree(b)).toEqual({ '/theirs': 'theirs' });
      await b.rollback(cp);
      expect(await tree(b)).toEqual({ '/mine': 'mine' });
    });

    it('the root is never a changed path: restoring the same files changes nothing a diff shows, and the count leaves "/" out', async () => {
      const files = { '/a.txt': 'a\n', '/d/b.txt': 'b\n' };
      const b = await make({ files });
      const snapshot = await b.snapshot();
      const first = await b.checkpoint();
      await b.restore(snapshot.slice());
      const second = await b.checkpoint();
      expect(await b.diff(first, second)).toEqual({ added: [], removed: [], modified: [], patch: '' });
      expect(await b.diff(first)).toEqual({ added: [], removed: [], modified: [], patch: '' });
      // A restore gives every path a new version: each counts as changed, but "/" does not (as in the first checkpoint).
      expect((await b.listCheckpoints()).map((c) => c.changedPaths)).toEqual([3, 3]);
      await b.restore(snapshot.slice());
      await b.rollback(first);
      expect(await tree(b)).toEqual(files);
      expect(await b.diff(second)).toEqual({ added: [], removed: [], modified: [], patch: '' });
    });

    it('diff lists added, removed and modified paths with a unified diff', async () => {
      const b = await make({ files: { '/keep': 'same\n', '/mod.txt': 'one\ntwo\nthree\n', '/gone.txt': 'bye\n', '/img.bin': new Uint8Array([0, 1]) } });
      const from = await b.checkpoint();
      await b.writeFile('/mod.txt', 'one\n2\nthree\n');
      await b.remove('/gone.txt');
      await b.writeFile('/new.txt', 'hello\n');
      await b.writeFile('/img.bin', new Uint8Array([0, 2]));
      await b.writeFile('/keep', 'same\n'); // rewritten, identical bytes: not a modification
      const d = await b.diff(from);
      expect(d.added).toEqual(['/new.txt']);
      expect(d.removed).toEqual(['/gone.txt']);
      expect(d.modified).toEqual(['/img.bin', '/mod.txt']);
      expect(d.patch).toBe(
        [
          'Binary files a/img.bin and b/img.bin differ', // first: lines that name a file without showing it
          'diff --git a/gone.txt b/gone.txt',
          'deleted file mode 100644',
          '--- a/gone.txt',
          '+++ /dev/null',
          '@@ -1,1 +0,0 @@',
          '-bye',

          'diff --git a/mod.txt b/mod.txt',
          '--- a/mod.txt',
          '+++ b/mod.txt',
          '@@ -1,3 +1,3 @@',
          ' one',
          '-two',
          '+2',
          ' three',
          'diff --git a/new.txt b/new.txt',
          'new file mode 100644',
          '--- /dev/null',
          '+++ b/new.txt',
          '@@ -0,0 +1,1 @@',
          '+hello',
          '', // ends with a line break, as git diff writes it
        ].join('\n'),
      );
      const to = await b.checkpoint();
      expect(await b.diff(from, to)).toEqual(d);
      expect(await b.diff(to)).toEqual({ added: [], removed: [], modified: [], patch: '' });
    });

    it('an unknown checkpoint id is EINVAL and changes nothing', async () => {
      const b = await make({ files: { '/a': 'a' } });
      await expectVfsError(b.rollback('nope'), 'EINVAL');
      await expectVfsError(b.diff('nope'), 'EINVAL');
      await expectVfsError(b.deleteCheckpoint('nope'), 'EINVAL');
      expect(await b.readText('/a')).toBe('a');
    });

    it('deleteCheckpoint forgets one checkpoint; every other one keeps its exact state', async () => {
      const b = await make({ files: { '/f': 'v0', '/keep': 'k' } });
      const c1 = await b.checkpoint('one');
      await b.writeFile('/f', 'v1');
      await b.writeFile('/tmp', 'made in c2');
      const c2 = await b.checkpoint('two');
      await b.remove('/tmp');
      await b.writeFile('/g', 'g');
      const c3 = await b.checkpoint('three');
      await b.rollback(c2); // a branch from the checkpoint about to go
      await b.writeFile('/h', 'h');
      const c4 = await b.checkpoint('four');
      const states: Record<string, Record<string, string>> = {};
      for (const id of [c1, c3, c4]) {
        await b.rollback(id);
        states[id] = await tree(b);
      }
      const diff13 = await b.diff(c1, c3);

      await b.deleteCheckpoint(c2);
      const list = await b.listCheckpoints();
      expect(list.map((c) => [c.id, c.parent])).toEqual([
        [c1, null],
        [c3, c1],
        [c4, c1],
      ]);
      // c3 relative to c1: /f changed and /g added (/tmp came and went: no change).
      expect(list.find((c) => c.id === c3)!.changedPaths).toBe(2);
      for (const id of [c1, c3, c4]) {
        await b.rollback(id);
        expect(await tree(b), id).toEqual(states[id]);
      }
      expect(await b.diff(c1, c3)).toEqual(diff13);
      await expectVfsError(b.rollback(c2), 'EINVAL');
    });

    it('deleting the checkpoint the current state descends from keeps later checkpoints and diffs right', async () => {
      const b = await make({ files: { '/f': 'v0' } });
      const c1 = await b.checkpoint();
      await b.writeFile('/f', 'v1');
      const c2 = await b.checkpoint();
      await b.writeFile('/g', 'new since c2');
      await b.deleteCheckpoint(c2);
      const c3 = await b.checkpoint();
      expect((await b.listCheckpoints()).find((c) => c.id === c3)!.parent).toBe(c1);
      expect((await b.diff(c1, c3)).modified).toEqual(['/f']);
      expect((await b.diff(c1, c3)).added).toEqual(['/g']);
      await b.rollback(c1);
      expect(await tree(b)).toEqual({ '/f': 'v0' });
      await b.rollback(c3);
      expect(await tree(b)).toEqual({ '/f': 'v1', '/g': 'new since c2' });
      // Deleting every checkpoint leaves the files alone; the next one starts afresh.
      await b.deleteCheckpoint(c1);
      await b.deleteCheckpoint(c3);
      expect(await b.listCheckpoints()).toEqual([]);
      expect(await tree(b)).toEqual({ '/f': 'v1', '/g': 'new since c2' });
      const c5 = await b.checkpoint();
      expect((await b.listCheckpoints())[0]).toMatchObject({ id: c5, parent: null, changedPaths: 2 });
    });
  });
}
