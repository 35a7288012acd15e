import { describe, expect, it } from 'vitest';
import { createTools, type WatchEvent } from '../../src/index.ts';
import { expectVfsError, manualClock, utf8, type BackendFactory } from './harness.ts';

type Backend = Awaited<ReturnType<BackendFactory>>;

/** Collects each commit's events; through a worker they arrive before the call's own answer. */
function record(b: Backend, options?: { path?: string; glob?: string; directories?: boolean }) {
  const batches: WatchEvent[][] = [];
  const stop = b.watch((events) => batches.push(events), options);
  const take = () => batches.splice(0);
  return { batches, stop, take };
}

export function watchSuite(make: BackendFactory) {
  describe('watch', () => {
    it('reports every committed mutation, one batch per call, one event per file, in commit order; directories too with directories: true', async () => {
      const b = await make({ files: { '/src/a.ts': 'a\n', '/src/lib/b.ts': 'b\n', '/src/lib/c.ts': 'c\n' } });
      const w = record(b);
      const all = record(b, { directories: true });
      const created = await b.writeFile('/new/x.ts', 'x');
      const modified = await b.writeFile('/src/a.ts', 'a2\n');
      const edited = await b.edit('/src/a.ts', 'a2', 'a3');
      const dir = await b.mkdir('/empty');
      await b.remove('/src/lib', { recursive: true });
      const moved = await b.rename('/new', '/old');
      const movedFile = await b.stat('/old/x.ts');
      const withDirectories = [
        [
          { type: 'create', path: '/new', version: expect.any(Number), isDir: true },
          { type: 'create', path: '/new/x.ts', version: created.version, isDir: false },
        ],
        [{ type: 'modify', path: '/src/a.ts', version: modified.version, isDir: false }],
        [{ type: 'modify', path: '/src/a.ts', version: edited.version, isDir: false }],
        [{ type: 'create', path: '/empty', version: dir.version, isDir: true }],
        [
          { type: 'remove', path: '/src/lib', isDir: true },
          { type: 'remove', path: '/src/lib/b.ts', isDir: false },
          { type: 'remove', path: '/src/lib/c.ts', isDir: false },
        ],
        [
          { type: 'rename', path: '/old', oldPath: '/new', version: moved.version, isDir: true },
          { type: 'rename', path: '/old/x.ts', oldPath: '/new/x.ts', version: movedFile.version, isDir: false },
        ],
      ];
      expect(all.take()).toEqual(withDirectories);
      // By default one event per file: a recursive remove gives one remove per file; a call that changed only directories, nothing.
      expect(w.take()).toEqual([
        [{ type: 'create', path: '/new/x.ts', version: created.version, isDir: false }],
        [{ type: 'modify', path: '/src/a.ts', version: modified.version, isDir: false }],
        [{ type: 'modify', path: '/src/a.ts', version: edited.version, isDir: false }],
        [
          { type: 'remove', path: '/src/lib/b.ts', isDir: false },
          { type: 'remove', path: '/src/lib/c.ts', isDir: false },
        ],
        [{ type: 'rename', path: '/old/x.ts', oldPath: '/new/x.ts', version: movedFile.version, isDir: false }],
      ]);
    });

    it('sends nothing for refused calls; a partly failed upload reports the files that went in', async () => {
      const b = await make({ files: { '/a': 'a' }, limits: { maxFileBytes: 10 } });
      const w = record(b);
      await expectVfsError(b.remove('/missing'), 'ENOENT');
      await expectVfsError(b.writeFile('/a', 'x', { expectedVersion: 12345 }), 'ESTALE');
      await expectVfsError(b.writeFile('/big', 'x'.repeat(11)), 'ETOOBIG');
      await expectVfsError(b.edit('/a', 'zzz', 'y'), 'ENOMATCH');
      await expectVfsError(b.rename('/a', '/a/b'), 'EINVAL');
      expect(w.take()).toEqual([]);
      const results = await b.uploadFiles([
        ['/ok.bin', utf8('ok')],
        ['/too-big.bin', utf8('x'.repeat(11))],
      ]);
      expect(results[1]!.error).toMatch(/ETOOBIG/);
      const ok = await b.stat('/ok.bin');
      expect(w.take()).toEqual([[{ type: 'create', path: '/ok.bin', version: ok.version, isDir: false }]]);
    });

    it('tool calls are reported like any mutation', async () => {
      const b = await make({ files: { '/a.ts': 'const a = 1;\n' } });
      const w = record(b);
      const tools = createTools(b);
      await tools.run('read_file', { path: '/a.ts' });
      const edit = await tools.run('edit_file', { path: '/a.ts', old_string: '1', new_string: '2' });
      const stale = await tools.run('write_file', { path: '/a.ts', content: 'x' });
      await b.writeFile('/a.ts', 'changed behind the session');
      const refused = await tools.run('edit_file', { path: '/a.ts', old_string: 'changed', new_string: 'y' });
      expect(refused.code).toBe('ESTALE');
      expect(w.take().flat()).toEqual([
        { type: 'modify', path: '/a.ts', version: edit.changed[0]!.version, isDir: false },
        { type: 'modify', path: '/a.ts', version: stale.changed[0]!.version, isDir: false },
        { type: 'modify', path: '/a.ts', version: (await b.stat('/a.ts')).version, isDir: false },
      ]);
    });

    it('an applyBatch (apply_patch) is one commit: one batch with every file it wrote or removed', async () => {
      const b = await make({ files: { '/a.txt': 'a', '/gone.txt': 'g' } });
      const w = record(b);
      await b.applyBatch([
        { path: '/a.txt', content: 'A' },
        { path: '/new/b.txt', content: 'b' },
        { path: '/gone.txt', content: null },
      ]);
      const batches = w.take();
      expect(batches).toHaveLength(1);
      expect(batches[0]!.map((e) => `${e.type} ${e.path}`).sort()).toEqual(['create /new/b.txt', 'modify /a.txt', 'remove /gone.txt']);
    });

    it('a merge that renames a file and edits it reports one event for it, with the version it ends at', async () => {
      const b = await make({ files: { '/ren.txt': 'r1\nr2\nr3\nr4\nr5\n' } });
      const fork = await b.fork();
      await fork.rename('/ren.txt', '/moved.txt');
      await b.writeFile('/ren.txt', 'r1\nr2\nr3\nr4\nR5\n');
      const w = record(b);
      const { merged } = await b.merge(fork);
      expect(merged).toEqual(['/moved.txt', '/ren.txt']);
      const { version } = await b.stat('/moved.txt');
      expect(w.take()).toEqual([[{ type: 'rename', path: '/moved.txt', oldPath: '/ren.txt', version, isDir: false }]]);
      expect(await b.readText('/moved.txt')).toBe('r1\nr2\nr3\nr4\nR5\n');
    });

    it('path and glob filters pick the events, matched against old and new paths', async () => {
      const b = await make({ files: { '/src/a.ts': 'a', '/src/a.md': 'm', '/docs/x.md': 'x' } });
      const src = record(b, { path: '/src' });
      const ts = record(b, { path: '/src', glob: '**/*.ts' });
      const whole = record(b, { glob: '/src/*.ts' }); // a glob starting with / matches whole paths, as glob() takes it
      await b.writeFile('/src/a.ts', 'a2');
      await b.writeFile('/src/a.md', 'm2');
      await b.writeFile('/docs/x.md', 'x2');
      await b.rename('/src/a.ts', '/lib/a.ts');
      expect(src.take().map((batch) => batch.map((e) => `${e.type} ${e.path}`))).toEqual([['modify /src/a.ts'], ['modify /src/a.md'], ['rename /lib/a.ts']]);
      expect(ts.take().map((batch) => batch.map((e) => `${e.type} ${e.oldPath ?? e.path}`))).toEqual([['modify /src/a.ts'], ['rename /src/a.ts']]);
      expect(whole.take().map((batch) => batch.map((e) => `${e.type} ${e.oldPath ?? e.path}`))).toEqual([['modify /src/a.ts'], ['rename /src/a.ts']]);
    });

    it('restore and rollback report exactly the paths that differ', async () => {
      const clock = manualClock();
      const b = await make({ now: clock.now, files: { '/same': 's', '/changed': 'c1', '/gone': 'g' } });
      const snap = await b.snapshot();
      const cp = await b.checkpoint();
      clock.tick(5);
      await b.writeFile('/changed', 'c2');
      await b.remove('/gone');
      await b.writeFile('/extra/new', 'n');
      const w = record(b, { directories: true });
      await b.rollback(cp);
      const afterRollback = w.take();
      expect(afterRollback).toHaveLength(1);
      expect(afterRollback[0]!.map((e) => `${e.type} ${e.path}`).sort()).toEqual(['create /gone', 'modify /changed', 'remove /extra', 'remove /extra/new']);
      await b.writeFile('/changed', 'c3');
      await b.mkdir('/d');
      w.take();
      await b.restore(snap);
      expect(
        w
          .take()[0]!
          .map((e) => `${e.type} ${e.path}`)
          .sort(),
      ).toEqual(['modify /changed', 'remove /d']);
      await expectVfsError(b.restore(utf8('not a snapshot')), 'ESNAPSHOT');
      expect(w.take()).toEqual([]);
    });

    it('unsubscribe stops one listener and leaves the others', async () => {
      const b = await make();
      const one = record(b);
      const two = record(b);
      await b.writeFile('/a', '1');
      one.stop();
      one.stop(); // twice is harmless
      await b.writeFile('/a', '2');
      expect(one.take()).toHaveLength(1);
      expect(two.take()).toHaveLength(2);
      two.stop();
      await b.writeFile('/a', '3');
      expect(two.take()).toEqual([]);
    });

    it('a listener that changes the backend: every listener still sees the commits in order; one stopped by another hears no more', async () => {
      const b = await make();
      let removing: Promise<unknown> = Promise.resolve();
      const stopCleaner = b.watch((events) => {
        for (const e of events) if (e.type === 'create' && e.path.endsWith('.tmp')) removing = b.remove(e.path);
      });
      const mirror = new Set<string>();
      const order: string[] = [];
      let stopLate = () => {};
      const stopMirror = b.watch((events) => {
        for (const e of events) {
          order.push(`${e.type} ${e.path}`);
          if (e.type === 'remove') mirror.delete(e.path);
          else mirror.add(e.path);
        }
        stopLate(); // the listener after this one is stopped while this batch is being handed out
      });
      const late: string[] = [];
      stopLate = b.watch((events) => late.push(...events.map((e) => e.path)));
      await b.writeFile('/x.tmp', 'junk');
      await removing;
      await b.writeFile('/after', 'a');
      expect(await b.exists('/x.tmp')).toBe(false);
      expect(order).toEqual(['create /x.tmp', 'remove /x.tmp', 'create /after']);
      expect([...mirror]).toEqual(['/after']);
      expect(late).toEqual([]);
      stopCleaner();
      stopMirror();
    });

    it('a listener that throws does not undo the call nor silence the others', async () => {
      const b = await make();
      const errors: unknown[] = [];
      const g = globalThis as { reportError?: (e: unknown) => void };
      const saved = g.reportError;
      g.reportError = (e) => errors.push(e); // where a throwing listener's error goes (in this realm)
      try {
        const stop = b.watch(() => {
          throw new Error('listener bug');
        });
        const w = record(b);
        await b.writeFile('/a', 'kept');
        expect(w.take()).toHaveLength(1);
        expect(await b.readText('/a')).toBe('kept');
        stop();
      } finally {
        if (saved) g.reportError = saved;
        else delete g.reportError;
      }
      // The listener runs on the caller's side, in process or not: its error is reported there.
      expect(errors.map((e) => (e as Error).message)).toEqual(['listener bug']);
    });
  });
}
