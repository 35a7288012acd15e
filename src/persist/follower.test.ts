// Two contexts on one store that can tell who writes (as IndexedDB does with Web Locks and
// BroadcastChannel, here a small in-memory hub): the second is refused, or follows the
// holder's commits read-only and takes over when the holder closes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Worker } from 'node:worker_threads';
import { closeAll, inWorkerThread, WORKER_SCRIPT } from '../../test/worker/factories.ts';
import { connect } from '../client/connect.ts';
import { type Backend, createStateBackend, createTools } from '../index.ts';
import { hub } from '../../test/persist/store-hub.ts';
import { openPersistent } from './persistent.ts';

afterEach(closeAll);

describe('a workspace another context holds', () => {
  it('is refused by default, with an error that names it and says what to do', async () => {
    const open = hub();
    await openPersistent(createStateBackend(), open());
    await expect(openPersistent(createStateBackend(), open())).rejects.toThrow(
      `agentvfs/persist: another tab or worker holds workspace "t" in the test hub. Close it there, or open with { ifHeld: 'follow' } to follow its changes read-only.`,
    );
  });

  it("ifHeld: 'follow': sees the holder's commits, refuses writes (methods and tools), takes over when the holder closes", async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a', '/d/x': 'x' } }), open(), { durability: 'immediate' });
    const b = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow' });
    expect(b.restored.status).toBe('restored');
    expect(a.backend.writable).toBe(true);
    expect(b.backend.writable).toBe(false);
    expect(await b.backend.readText('/a.txt')).toBe('a');

    await a.backend.writeFile('/a.txt', 'A');
    await a.backend.remove('/d', { recursive: true });
    await a.backend.mkdir('/e/f');
    await vi.waitFor(async () => expect(await b.backend.readText('/a.txt')).toBe('A'));
    await vi.waitFor(async () => expect(await b.backend.exists('/d')).toBe(false));
    await vi.waitFor(async () => expect((await b.backend.stat('/e/f')).isDir).toBe(true));

    await expect(b.backend.writeFile('/b.txt', 'no')).rejects.toThrow(/holds workspace "t" in the test hub; this tab follows its changes and cannot write/);
    const tools = createTools(b.backend);
    await tools.run('read_file', { path: '/a.txt' });
    const refused = await tools.run('write_file', { path: '/a.txt', content: 'no' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      'Error: read-only: agentvfs/persist: another tab or worker holds workspace "t" in the test hub; this tab follows its changes and cannot write. ' +
        'Write there, or close it: this tab then takes over. Nothing was changed; writing again fails until then.',
    );

    expect(await a.backend.whenWritable).toBe(true);
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    expect(b.backend.writable).toBe(true);
    await b.backend.writeFile('/b.txt', 'by b');
    await b.backend.close();
    const c = await openPersistent(createStateBackend(), open());
    expect(await c.backend.readText('/b.txt')).toBe('by b');
    expect(await c.backend.readText('/a.txt')).toBe('A');
    expect(await c.backend.exists('/d')).toBe(false);
  });

  it('a follower closed while it takes over writes nothing and closes what it opened; whenWritable is false', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend(), open(), { durability: 'immediate' });
    const store = open();
    const reads = { count: 0, release: () => {} };
    const readAll = store.readAll.bind(store);
    // The second read is the takeover's: it waits until the test lets it go.
    store.readAll = async () => (++reads.count === 2 ? new Promise<void>((r) => (reads.release = r)).then(readAll) : readAll());
    const written: string[] = [];
    const write = store.write.bind(store);
    store.write = async (batch, o) => {
      written.push(...batch.puts.map(([k]) => k));
      return write(batch, o);
    };
    const b = await openPersistent(createStateBackend(), store, { ifHeld: 'follow', durability: 'immediate' });
    await a.backend.close();
    await vi.waitFor(() => expect(reads.count).toBe(2)); // the takeover is under way
    const closing = b.backend.close();
    expect(await b.backend.whenWritable).toBe(false);
    reads.release();
    await closing;
    await new Promise((r) => setTimeout(r, 0)); // every promise of the in-memory takeover has settled
    expect(b.backend.writable).toBe(false);
    await expect(b.backend.writeFile('/late.txt', 'x')).rejects.toMatchObject({
      name: 'WorkspaceClosedError',
      message: expect.stringMatching(/this workspace is closed \(close\(\) was called\)/),
    });
    expect(written.filter((k) => k.includes('late'))).toEqual([]);
    const c = await openPersistent(createStateBackend(), open()); // the claim was given back
    expect(c.backend.writable).toBe(true);
  });

  it('a takeover that fails is reported to onError, gives the claim back, and whenWritable is false', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend(), open());
    const store = open();
    let reads = 0;
    const readAll = store.readAll.bind(store);
    store.readAll = async () => {
      if (++reads === 2) throw new Error('disk gone');
      return readAll();
    };
    const errors: string[] = [];
    const b = await openPersistent(createStateBackend(), store, { ifHeld: 'follow', onError: (e) => errors.push(e.message) });
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(false);
    expect(errors).toEqual(['disk gone']);
    const c = await openPersistent(createStateBackend(), open());
    expect(c.backend.writable).toBe(true);
  });

  it('tools made while following save as a writer once it took over: a failed save answers not saved, with what the call changed', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend(), open());
    const store = open();
    const b = await openPersistent(createStateBackend(), store, { ifHeld: 'follow', durability: 'immediate' });
    const tools = createTools(b.backend);
    expect((await tools.run('write_file', { path: '/c.txt', content: 'c' })).text).toMatch(/^Error: read-only: /);
    expect((await tools.preview('write_file', { path: '/c.txt', content: 'c' })).error?.text).toMatch(/^Error: read-only: /);
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    // The writer's tools preview now, and the preview writes nothing.
    expect((await tools.preview('write_file', { path: '/c.txt', content: 'c' })).changes.map((c) => c.path)).toEqual(['/c.txt']);
    expect(await b.backend.exists('/c.txt')).toBe(false);
    store.write = async () => {
      throw new Error('disk full');
    };
    const result = await tools.run('write_file', { path: '/c.txt', content: 'c' });
    expect(result.text).toMatch(/^Error: not saved: .*disk full/);
    expect(result.changed.map((c) => c.path)).toEqual(['/c.txt']);
    expect(await b.backend.readText('/c.txt')).toBe('c');
  });

  it('tools made while following stay one tool set after the takeover: no question while read-only, seq goes on, "always" holds, reads stay current', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a' } }), open());
    const b = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow', durability: 'immediate' });
    const approve = vi.fn(() => ({ allow: true as const, always: true }));
    const events: Array<{ seq: number; tool: string; ok: boolean; decision?: string }> = [];
    const tools = createTools(b.backend, { approve, onEvent: (e) => events.push(e) });
    await tools.run('read_file', { path: '/a.txt' });
    // Refused read-only before anyone is asked: approving it could not make it happen.
    expect((await tools.run('write_file', { path: '/a.txt', content: 'b' })).text).toMatch(/^Error: read-only: /);
    expect(approve).not.toHaveBeenCalled();
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    // Read while following: still current after the takeover (it changed nothing there), so no ESTALE.
    expect((await tools.run('write_file', { path: '/a.txt', content: 'c' })).text).toBe('Updated /a.txt (1 line, 1 byte).');
    expect((await tools.run('write_file', { path: '/a.txt', content: 'd' })).isError).toBe(false);
    expect(approve).toHaveBeenCalledTimes(1);
    expect(events.map((e) => [e.seq, e.tool, e.ok, e.decision])).toEqual([
      [1, 'read_file', true, undefined],
      [2, 'write_file', false, undefined],
      [3, 'write_file', true, 'always'],
      [4, 'write_file', true, 'always'],
    ]);
    expect(await b.backend.readText('/a.txt')).toBe('d');
  });

  it('over a backend in a worker too, a read made while following counts after the takeover', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a' } }), open());
    const b = await openPersistent(inWorkerThread(), open(), { ifHeld: 'follow', durability: 'immediate' });
    const tools = createTools(b.backend);
    await tools.run('read_file', { path: '/a.txt' });
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    const written = await tools.run('write_file', { path: '/a.txt', content: 'c' });
    expect(written.text).toBe('Updated /a.txt (1 line, 1 byte).');
    // Saved: a third context opening the store after this one closes sees it.
    await b.backend.close();
    const c = await openPersistent(createStateBackend(), open());
    expect(await c.backend.readText('/a.txt')).toBe('c');
    await c.backend.close();
  });

  it('over a backend in a worker, a save that fails after the takeover answers with what the call changed: the next edit is not refused', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a\n' } }), open());
    const store = open();
    const b = await openPersistent(inWorkerThread(), store, { ifHeld: 'follow', durability: 'immediate' });
    const tools = createTools(b.backend);
    await tools.run('read_file', { path: '/a.txt' });
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    const write = store.write;
    store.write = async () => {
      throw new Error('disk full');
    };
    const result = await tools.run('write_file', { path: '/a.txt', content: 'A\n' });
    expect(result.text).toMatch(/^Error: not saved: .*disk full/);
    expect(result.changed.map((c) => c.path)).toEqual(['/a.txt']);
    store.write = write;
    const edited = await tools.run('edit_file', { path: '/a.txt', old_string: 'A', new_string: 'AA' });
    expect(edited.isError, edited.text).toBe(false);
    await b.backend.close();
  });

  it('over a worker that dies after the takeover, a tool call rejects with WorkerGoneError, as the worker’s own tools do', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a\n' } }), open());
    const worker = new Worker(WORKER_SCRIPT, { workerData: { options: {} } });
    const remote = connect(worker);
    const b = await openPersistent(remote, open(), { ifHeld: 'follow', durability: 'immediate', onError: () => {} });
    const tools = createTools(b.backend);
    await tools.run('read_file', { path: '/a.txt' });
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    await worker.terminate();
    await expect(tools.run('write_file', { path: '/a.txt', content: 'b\n' })).rejects.toMatchObject({ name: 'WorkerGoneError' });
    await expect(tools.run('read_file', { path: '/a.txt' })).rejects.toMatchObject({ name: 'WorkerGoneError' });
    remote.close();
  });

  it('takes over in place: what it missed is applied, what did not change keeps its version', async () => {
    let quiet = false;
    const open = hub(() => quiet);
    const files = { '/keep.txt': 'k', '/change.txt': 'c1', '/gone.txt': 'g', '/kind': 'x', '/dir/f': 'f' };
    const a = await openPersistent(createStateBackend({ files }), open(), { durability: 'immediate' });
    const b = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow' });
    const tools = createTools(b.backend);
    await tools.run('read_file', { path: '/keep.txt' });
    const kept = (await b.backend.stat('/keep.txt')).version;
    quiet = true; // commits the follower never hears of
    await a.backend.writeFile('/change.txt', 'c2');
    await a.backend.remove('/gone.txt');
    await a.backend.remove('/kind');
    await a.backend.writeFile('/kind/in', 'i');
    await a.backend.remove('/dir', { recursive: true });
    await a.backend.writeFile('/new.txt', 'n');
    expect(await b.backend.readText('/change.txt')).toBe('c1');
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    const tree = async (backend: Backend) => (await backend.glob('**/*')).sort();
    const reopened = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow' });
    expect(await tree(b.backend)).toEqual(await tree(reopened.backend));
    expect(await tree(b.backend)).toEqual(['/change.txt', '/keep.txt', '/kind/in', '/new.txt']);
    expect(await b.backend.readText('/change.txt')).toBe('c2');
    expect((await b.backend.stat('/keep.txt')).version).toBe(kept);
    expect((await tools.run('write_file', { path: '/keep.txt', content: 'k2' })).isError).toBe(false);
  });

  it("a sound workspace over the follower's limits is refused (EQUOTA), not reported corrupt; it stops following", async () => {
    const open = hub();
    const files = { '/a.txt': 'x'.repeat(2_000), '/b.txt': 'y' };
    const a = await openPersistent(createStateBackend({ files }), open(), { durability: 'immediate' });
    const follower = open();
    const follow = vi.spyOn(follower, 'follow');
    const close = vi.spyOn(follower, 'close');
    await expect(openPersistent(createStateBackend({ limits: { maxFileBytes: 1_000 } }), follower, { ifHeld: 'follow' })).rejects.toMatchObject({
      code: 'EQUOTA',
      message: expect.stringMatching(/does not fit this backend: .* the store is unchanged/),
    });
    expect(close).toHaveBeenCalled();
    const stopped = follow.mock.results[0]!.value as () => boolean;
    expect(stopped()).toBe(false); // its listener was already removed
    await a.backend.writeFile('/c.txt', 'c');
    expect(await a.backend.readText('/a.txt')).toBe('x'.repeat(2_000));
  });

  it('a takeover in place that would cross a size limit half way restores the store whole instead', async () => {
    let quiet = false;
    const open = hub(() => quiet);
    const limits = { maxTotalBytes: 12 };
    const a = await openPersistent(createStateBackend({ files: { '/a': '1', '/b': '12345678' }, limits }), open(), { durability: 'immediate' });
    const errors: Error[] = [];
    const b = await openPersistent(createStateBackend({ limits }), open(), { ifHeld: 'follow', onError: (e) => errors.push(e) });
    quiet = true;
    await a.backend.writeFile('/b', '1');
    await a.backend.writeFile('/a', '12345678'); // written first in place, /a would go over the limit
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    expect(errors).toEqual([]);
    expect([await b.backend.readText('/a'), await b.backend.readText('/b')]).toEqual(['12345678', '1']);
  });

  it('after a takeover in place, the store keeps the times the files have in the tab that took over', async () => {
    let quiet = false;
    const open = hub(() => quiet);
    let t = 1_000_000;
    const clock = () => (t += 1_000);
    const a = await openPersistent(createStateBackend({ files: { '/x/a.txt': 'a', '/b.txt': 'b' }, now: clock }), open(), { durability: 'immediate' });
    const b = await openPersistent(createStateBackend({ now: clock }), open(), { ifHeld: 'follow' });
    quiet = true;
    await a.backend.writeFile('/x/a.txt', 'A');
    await a.backend.writeFile('/x/new/n.txt', 'N');
    await a.backend.close();
    expect(await b.backend.whenWritable).toBe(true);
    const times = async (backend: Backend) => {
      const paths = ['/x', '/x/a.txt', '/x/new', '/x/new/n.txt', '/b.txt'];
      return Promise.all(paths.map(async (p) => [p, (await backend.stat(p)).mtimeMs]));
    };
    const reopened = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow' });
    expect(await times(reopened.backend)).toEqual(await times(b.backend));
  });

  it('whenWritable: a follower closed before it could take over resolves false', async () => {
    const open = hub();
    const a = await openPersistent(createStateBackend(), open());
    const b = await openPersistent(createStateBackend(), open(), { ifHeld: 'follow' });
    await b.backend.close();
    expect(await b.backend.whenWritable).toBe(false);
    await a.backend.close();
    expect(b.backend.writable).toBe(false);
  });
});
