// Incremental persistence into a store: each mutation writes only the records it changed, in
// one batch; the store reopens to the same state; corrupt and foreign stores are kept aside.
import { describe, expect, it, vi } from 'vitest';
import { createStateBackend, createTools } from '../index.ts';
import { NotSavedError } from '../errors.ts';
import type { ToolsAround } from '../tool-host.ts';
import { createLocalTools } from '../tools/create-tools.ts';
import { createMemoryAdapter } from './adapter.ts';
import { createMemoryStore } from './memory-store.ts';
import { openPersistent } from './persistent.ts';
import { decodeAside, encodeRecord } from './records.ts';
import type { StoreBatch } from './store.ts';
import { closeAll, inWorkerThread } from '../../test/worker/factories.ts';

const bytesOf = (batch: StoreBatch) => batch.puts.reduce((n, [k, v]) => n + k.length + v.length, 0);

/** The whole state a backend holds, for comparison after a reopen. */
async function stateOf(backend: Awaited<ReturnType<typeof openPersistent>>['backend'] | ReturnType<typeof createStateBackend>) {
  const snapshot = await backend.snapshot();
  const copy = createStateBackend();
  await copy.restore(snapshot);
  const out: Record<string, string> = {};
  for (const path of await copy.glob('**/*', { path: '/' })) {
    const info = await copy.stat(path);
    out[path] = info.isDir ? `dir@${info.mtimeMs}` : `${await copy.readText(path)}@${info.mtimeMs}`;
  }
  return out;
}

describe('openPersistent(backend, store)', () => {
  it('writes one small batch per mutation, whatever the size of the workspace', async () => {
    const store = createMemoryStore();
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`/src/m${i}/file${i}.ts`] = 'x'.repeat(10_000);
    let clock = 1_000;
    const { backend } = await openPersistent(createStateBackend({ files, now: () => (clock += 1) }), store, { durability: 'immediate' });
    expect(store.batches).toHaveLength(1); // the initial state, once
    expect(bytesOf(store.batches[0]!)).toBeGreaterThan(2_000_000);

    await backend.writeFile('/src/m7/file7.ts', 'small edit');
    expect(store.batches).toHaveLength(2);
    const edit = store.batches[1]!;
    expect(edit.puts.map(([k]) => k).sort()).toEqual(['f:/src/m7/file7.ts']);
    expect(bytesOf(edit)).toBeLessThan(200);

    await backend.writeFile('/src/new/deep/a.txt', 'new'); // and its new parents
    expect(store.batches[2]!.puts.map(([k]) => k).sort()).toEqual(['d:/src/new', 'd:/src/new/deep', 'f:/src/new/deep/a.txt']);

    await backend.remove('/src/m3', { recursive: true });
    expect([...store.batches[3]!.deletes].sort()).toEqual(['d:/src/m3', 'f:/src/m3/file3.ts']);

    await backend.rename('/src/m4', '/moved');
    const rename = store.batches[4]!;
    expect(rename.puts.map(([k]) => k).sort()).toEqual(['d:/moved', 'f:/moved/file4.ts']);
    expect([...rename.deletes].sort()).toEqual(['d:/src/m4', 'f:/src/m4/file4.ts']);

    const saved = store.batches.length;
    const reopened = await openPersistent(createStateBackend(), store, { durability: 'immediate' });
    expect(reopened.restored.status).toBe('restored');
    expect(await stateOf(reopened.backend)).toEqual(await stateOf(backend));
    expect(store.batches).toHaveLength(saved); // opening writes nothing
    await reopened.backend.writeFile('/src/m9/file9.ts', 'after reopen');
    expect(store.batches[saved]!.puts.map(([k]) => k)).toEqual(['f:/src/m9/file9.ts']);
  });

  it('an upload, a rollback and a restore are one batch each', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ files: { '/a': 'a' } }), store, { durability: 'immediate' });
    const before = await backend.checkpoint();
    const n = store.batches.length;
    await backend.uploadFiles([
      ['/u/1', new TextEncoder().encode('1')],
      ['/u/2', new TextEncoder().encode('2')],
      ['/a', new TextEncoder().encode('A')],
    ]);
    expect(store.batches).toHaveLength(n + 1);
    expect(store.batches[n]!.puts.map(([k]) => k).sort()).toEqual(['d:/u', 'f:/a', 'f:/u/1', 'f:/u/2']);
    await backend.rollback(before);
    expect(store.batches).toHaveLength(n + 2);
    expect([...store.batches[n + 1]!.deletes].sort()).toEqual(['d:/u', 'f:/u/1', 'f:/u/2']);
    const other = createStateBackend({ files: { '/x/y': 'y' } });
    await backend.restore(await other.snapshot());
    expect(store.batches).toHaveLength(n + 3);
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await stateOf(reopened.backend)).toEqual(await stateOf(other));
  });

  it('saves what tools write, and nothing for a read or a failed edit', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ files: { '/a.txt': 'hello' } }), store, { durability: 'immediate' });
    const tools = createTools(backend);
    const n = store.batches.length;
    await tools.run('read_file', { path: '/a.txt' });
    expect((await tools.run('edit_file', { path: '/a.txt', old_string: 'nope', new_string: 'x' })).isError).toBe(true);
    expect(store.batches).toHaveLength(n);
    await tools.run('edit_file', { path: '/a.txt', old_string: 'hello', new_string: 'bye' });
    expect(store.batches).toHaveLength(n + 1);
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/a.txt')).toBe('bye');
  });

  it('debounced: a burst is one batch; flush() commits at once', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend(), store, { debounceMs: 60_000, maxWaitMs: 60_000 });
    const n = store.batches.length;
    for (let i = 0; i < 20; i++) await backend.writeFile(`/f${i % 5}`, String(i));
    expect(store.batches).toHaveLength(n);
    await backend.flush();
    expect(store.batches).toHaveLength(n + 1);
    expect(store.batches[n]!.puts.filter(([k]) => k.startsWith('f:'))).toHaveLength(5);
    await backend.close();
  });

  it('a corrupt record: the whole stored workspace is kept aside with the reason, nothing is half applied', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ files: { '/a': 'a', '/b': 'b' } }), store, { durability: 'immediate' });
    await backend.writeFile('/c', 'c');
    const damaged = store.entries.get('f:/b')!.slice();
    damaged[damaged.length - 1] = damaged.at(-1)! ^ 1;
    (store.entries as Map<string, Uint8Array>).set('f:/b', damaged);
    const fresh = createStateBackend();
    const { restored } = await openPersistent(fresh, store);
    expect(restored).toEqual({ status: 'corrupt', reason: expect.stringContaining('record "f:/b" fails its checksum') });
    expect(await fresh.exists('/a')).toBe(false); // nothing of it applied
    const aside = [...store.entries].filter(([k]) => k.startsWith('aside:'));
    expect(aside).toHaveLength(1);
    const kept = decodeAside(aside[0]![1]);
    expect(kept.reason).toContain('fails its checksum');
    expect(kept.records.map(([k]) => k).sort()).toEqual(['f:/a', 'f:/b', 'f:/c', 'meta']);
    expect([...store.entries.keys()].filter((k) => !k.startsWith('aside:')).sort()).toEqual(['meta']);
  });

  it('a foreign store (no meta, or another format) is kept aside, not read', async () => {
    for (const [key, value, problem] of [
      ['f:/x', encodeRecord('f:/x', 1, new Uint8Array([1])), 'no "meta" record'],
      ['meta', new TextEncoder().encode('{"format":"other","version":1}'), 'names format "other"'],
      ['meta', new TextEncoder().encode('{"format":"agentvfs-workspace","version":9}'), 'workspace format version 9'],
    ] as const) {
      const store = createMemoryStore();
      await store.write({ puts: [[key, value]], deletes: [] }, { durability: 'strict' });
      const { restored } = await openPersistent(createStateBackend(), store);
      expect(restored.status === 'corrupt' && restored.reason).toContain(problem);
    }
  });

  it('a failed commit rejects an immediate mutation; the next save rewrites what was missed', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend(), store, { durability: 'immediate' });
    const write = store.write.bind(store);
    let fail = true;
    store.write = async (batch, options) => {
      if (fail) throw new Error('disk full');
      return write(batch, options);
    };
    await expect(backend.writeFile('/lost-then-saved', '1')).rejects.toThrow('applied in memory but could not be saved: disk full');
    fail = false;
    await backend.writeFile('/other', '2');
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/lost-then-saved')).toBe('1');
    expect(await reopened.backend.readText('/other')).toBe('2');
  });

  it('a tool call whose save fails tells the model the change was made and must not be made again', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ files: { '/notes.md': 'one\n' } }), store, { durability: 'immediate' });
    const write = store.write.bind(store);
    let fail = true;
    store.write = async (batch, options) => {
      if (fail) throw new Error('disk full');
      return write(batch, options);
    };
    await expect(backend.writeFile('/direct', 'x')).rejects.toBeInstanceOf(NotSavedError);
    const events: { tool: string; ok: boolean; changed: { path: string }[] }[] = [];
    const tools = createTools(backend, { dialect: 'anthropic', onEvent: (e) => events.push(e) });
    const view = await tools.run('str_replace_based_edit_tool', { command: 'view', path: '/notes.md' });
    expect(view.isError).toBe(false);
    const insert = await tools.run('str_replace_based_edit_tool', { command: 'insert', path: '/notes.md', insert_line: 1, new_str: 'two' });
    expect(insert.isError).toBe(true);
    expect(insert.text).toBe(
      'Error: not saved: agentvfs/persist: the change was applied in memory but could not be saved: disk full. ' +
        'The change is in the workspace: do not make it again; the next save writes it too.',
    );
    expect(insert.changed.map((c) => c.path)).toEqual(['/notes.md']); // it did write the file
    // The audit trail says the same: not ok, and what it changed.
    expect(events.map((e) => [e.ok, e.changed.map((c) => c.path)])).toEqual([
      [true, []],
      [false, ['/notes.md']],
    ]);
    expect(await backend.readText('/notes.md')).toBe('one\ntwo\n');
    // The session saw its own write: the next edit of that file is not refused as stale.
    const replaced = await tools.run('str_replace_based_edit_tool', { command: 'str_replace', path: '/notes.md', old_str: 'two', new_str: 'three' });
    expect(replaced.text).toMatch(/^Error: not saved: /);
    fail = false;
    await backend.writeFile('/later', 'y');
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/notes.md')).toBe('one\nthree\n');
    expect(await reopened.backend.readText('/direct')).toBe('x');
  });

  it('a tool host (tools running where the backend lives) whose save fails answers not saved, never rejects', async () => {
    const inner = createStateBackend({ files: { '/a.txt': 'a\n' } });
    // What a worker's RemoteBackend is to persistence: a backend that runs tool calls itself.
    const host = new Proxy(inner, {
      get: (target, key) => {
        if (key === 'createToolSession') return (options: object, around?: ToolsAround) => createLocalTools(target, options, around);
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = createMemoryStore();
    const { backend } = await openPersistent(host, store, { durability: 'immediate' });
    store.write = async () => {
      throw new Error('disk full');
    };
    const events: { ok: boolean }[] = [];
    const result = await createTools(backend, { onEvent: (e) => events.push(e) }).run('write_file', { path: '/b.txt', content: 'b\n' });
    expect(result.isError).toBe(true);
    expect(events.map((e) => e.ok)).toEqual([false]); // the host's audit saw the save fail too
    expect(result.text).toMatch(/^Error: not saved: .*disk full\. The change is in the workspace/);
    expect(result.changed.map((c) => c.path)).toEqual(['/b.txt']);
    expect(await inner.readText('/b.txt')).toBe('b\n');
  });

  it('a tool host that ignores the wrapper (written for createToolSession(options)) is still saved after each call', async () => {
    const inner = createStateBackend();
    const host = new Proxy(inner, {
      get: (target, key) => {
        if (key === 'createToolSession') return (options: object) => createLocalTools(target, options);
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const store = createMemoryStore();
    const { backend } = await openPersistent(host, store, { durability: 'immediate' });
    const n = store.batches.length;
    const result = await createTools(backend).run('write_file', { path: '/a.txt', content: 'a\n' });
    expect(result.isError).toBe(false);
    expect(store.batches.slice(n).flatMap((b) => b.puts.map(([k]) => k))).toContain('f:/a.txt');
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/a.txt')).toBe('a\n');
  });

  it('migrates a snapshot saved by the snapshot adapter: opened, rewritten as records, the old copy dropped in the same batch', async () => {
    // What the current code wrote: persist(backend, adapter) saved whole snapshots.
    const adapter = createMemoryAdapter();
    const old = await openPersistent(createStateBackend(), adapter, { durability: 'immediate' });
    await old.backend.writeFile('/notes/a.md', '# saved by the snapshot adapter');
    const legacy = adapter.current!;
    const store = Object.assign(createMemoryStore(), { readLegacy: async () => legacy });
    const { backend, restored } = await openPersistent(createStateBackend(), store);
    expect(restored).toEqual({ status: 'restored', bytes: legacy.byteLength });
    expect(await backend.readText('/notes/a.md')).toBe('# saved by the snapshot adapter');
    expect(store.batches[0]!.dropLegacy).toBe(true);
    expect(store.entries.has('f:/notes/a.md')).toBe(true);
  });
});

describe('after close()', () => {
  it('with the backend in a worker: a preview answers read-only as the call does, and never reaches the closed worker', async () => {
    const remote = inWorkerThread({ files: { '/a.txt': 'a\n' } });
    try {
      const { backend } = await openPersistent(remote, createMemoryStore(), { durability: 'immediate' });
      const tools = createTools(backend);
      await tools.run('read_file', { path: '/a.txt' });
      await backend.close();
      const args = { path: '/c.txt', content: 'x' };
      const run = await tools.run('write_file', args);
      expect(run.text).toMatch(/^Error: read-only: agentvfs\/persist: this workspace is closed/);
      expect(await tools.preview('write_file', args)).toEqual({ changes: [], error: { text: run.text } });
    } finally {
      await closeAll();
    }
  });

  const targets = { 'a store': createMemoryStore, 'a snapshot adapter': createMemoryAdapter };
  for (const [label, make] of Object.entries(targets)) {
    it(`with ${label}: every mutation and tool write is refused, nothing changes, reads still answer`, async () => {
      const target = make();
      const { backend } = await openPersistent(createStateBackend(), target, { durability: 'immediate' });
      await backend.writeFile('/a.txt', 'saved');
      const asked: string[] = [];
      const tools = createTools(backend);
      const approving = createTools(backend, { approve: async (request) => (asked.push(request.path), { allow: true }) });
      await backend.close();
      expect(backend.writable).toBe(false);
      const closed = { name: 'WorkspaceClosedError', message: 'agentvfs/persist: this workspace is closed (close() was called); open it again to write.' };
      await expect(backend.writeFile('/a.txt', 'lost?')).rejects.toMatchObject(closed);
      await expect(backend.remove('/a.txt')).rejects.toMatchObject(closed);
      await expect(backend.uploadFiles([['/b.txt', new Uint8Array([1])]])).rejects.toMatchObject(closed);
      for (const t of [tools, approving]) {
        const result = await t.run('write_file', { path: '/c.txt', content: 'x' });
        expect(result).toMatchObject({ isError: true, changed: [] });
        expect(result.text).toBe(`Error: read-only: ${closed.message} Nothing was changed; writing again fails too.`);
        // A preview says the call would fail so, and shows no change that cannot happen.
        expect(await t.preview('write_file', { path: '/c.txt', content: 'x' })).toEqual({ changes: [], error: { text: result.text } });
      }
      expect(asked).toEqual([]); // no one is asked to approve a write that cannot happen
      expect(await backend.readText('/a.txt')).toBe('saved');
      expect(await backend.exists('/b.txt')).toBe(false);
      expect(await backend.exists('/c.txt')).toBe(false);
      const { backend: again } = await openPersistent(createStateBackend(), target);
      expect(await again.readText('/a.txt')).toBe('saved');
    });

    it(`with ${label}, through a tool host: a tool write after close() is refused; one running (waiting for approval) when it is called is saved first`, async () => {
      const target = make();
      const inner = createStateBackend();
      // What a worker's RemoteBackend is to persistence: a backend that runs tool calls itself.
      const host = new Proxy(inner, {
        get: (t, key) => {
          if (key === 'createToolSession') return (options: object, around?: ToolsAround) => createLocalTools(t, options, around);
          const value = Reflect.get(t, key);
          return typeof value === 'function' ? value.bind(t) : value;
        },
      });
      const { backend } = await openPersistent(host, target, { durability: 'debounced' });
      let answer: (allow: boolean) => void = () => {};
      let asked: () => void = () => {};
      const waiting = new Promise<void>((r) => (asked = r));
      const approving = createTools(backend, {
        approve: () => {
          asked();
          return new Promise((r) => (answer = (allow) => r({ allow })));
        },
      });
      const pending = approving.run('write_file', { path: '/pending.txt', content: 'y' });
      await waiting;
      let closed = false;
      const closing = backend.close().then(() => (closed = true));
      await new Promise((r) => setTimeout(r, 10));
      expect(closed).toBe(false); // it waits for the call under way
      answer(true);
      expect((await pending).isError).toBe(false);
      await closing;
      const after = await createTools(backend).run('write_file', { path: '/after.txt', content: 'x' });
      expect(after.text).toMatch(/^Error: read-only: agentvfs\/persist: this workspace is closed/);
      const { backend: again } = await openPersistent(createStateBackend(), target);
      expect(await again.readText('/pending.txt')).toBe('y');
      expect(await again.exists('/after.txt')).toBe(false);
      expect(await inner.exists('/after.txt')).toBe(false);
    });

    it(`with ${label}: a write running when close() is called finishes first and is saved (debounced and immediate)`, async () => {
      for (const durability of ['debounced', 'immediate'] as const) {
        const target = make();
        const { backend } = await openPersistent(createStateBackend(), target, { durability });
        const writing = backend.writeFile('/late.txt', durability);
        const uploading = backend.uploadFiles([['/up.txt', new Uint8Array([7])]]);
        await backend.close();
        await writing;
        await uploading;
        const { backend: again } = await openPersistent(createStateBackend(), target);
        expect(await again.readText('/late.txt')).toBe(durability);
        expect(await again.readFile('/up.txt')).toEqual(new Uint8Array([7]));
      }
    });
  }
});

describe('where the changed paths come from', () => {
  it('without watch(), from the calls table: the same batches', async () => {
    const store = createMemoryStore();
    const inner = createStateBackend({ files: { '/d/a': 'a', '/d/b': 'b' } });
    // A backend as another implementation might be: every method but watch.
    const bare = Object.fromEntries(
      Object.getOwnPropertyNames(Object.getPrototypeOf(inner))
        .filter((k) => k !== 'constructor' && k !== 'watch' && typeof (inner as unknown as Record<string, unknown>)[k] === 'function')
        .map((k) => [k, (...a: unknown[]) => (inner as unknown as Record<string, (...x: unknown[]) => unknown>)[k]!(...a)]),
    ) as unknown as ReturnType<typeof createStateBackend>;
    expect('watch' in bare).toBe(false);
    const { backend } = await openPersistent(bare, store, { durability: 'immediate' });
    const n = store.batches.length;
    await backend.writeFile('/d/a', 'A');
    await backend.rename('/d', '/e');
    expect(store.batches[n]!.puts.map(([k]) => k)).toEqual(['f:/d/a']);
    expect(store.batches[n + 1]!.puts.map(([k]) => k).sort()).toEqual(['d:/e', 'f:/e/a', 'f:/e/b']);
    expect([...store.batches[n + 1]!.deletes].sort()).toEqual(['d:/d', 'f:/d/a', 'f:/d/b']);
  });

  it('with watch(), a change made on the backend directly is saved too (debounced: scheduled by it)', async () => {
    const store = createMemoryStore();
    const inner = createStateBackend();
    const { backend } = await openPersistent(inner, store, { debounceMs: 60_000, maxWaitMs: 60_000 });
    await inner.writeFile('/direct.txt', 'behind the wrapper');
    await backend.flush();
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/direct.txt')).toBe('behind the wrapper');
  });

  it("with 'immediate', a change made on the backend directly is saved by a debounced save; a wrapped call's own needs none", async () => {
    const store = createMemoryStore();
    const writes: StoreBatch[] = [];
    const write = store.write.bind(store);
    store.write = (batch, options) => (writes.push(batch), write(batch, options));
    const inner = createStateBackend();
    const { backend } = await openPersistent(inner, store, { durability: 'immediate', debounceMs: 5, maxWaitMs: 50 });
    writes.length = 0;
    vi.useFakeTimers();
    try {
      await backend.writeFile('/wrapped.txt', 'saved before it resolves');
      expect(writes).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0); // nothing left to save: no timer keeps a process alive
      await inner.writeFile('/direct.txt', 'behind the wrapper');
      expect(vi.getTimerCount()).toBeGreaterThan(0); // the debounced save's (and its longest wait's) timer
      await vi.advanceTimersByTimeAsync(5);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1]!.puts.map(([key]) => key)).toContain('f:/direct.txt');
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/direct.txt')).toBe('behind the wrapper');
  });

  it('a change committed on the backend directly while a batch is being read is saved by the next one', async () => {
    const store = createMemoryStore();
    const inner = createStateBackend();
    let sneak = false;
    // The backend as the saver sees it: a direct write commits while it downloads the changed files.
    const hooked = new Proxy(inner, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (key === 'downloadFiles')
          return async (paths: string[]) => {
            const out = await inner.downloadFiles(paths);
            if (sneak) {
              sneak = false;
              await inner.writeFile('/sneaked-in.txt', 'committed while saving');
            }
            return out;
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { backend } = await openPersistent(hooked, store, { durability: 'immediate' });
    sneak = true;
    await backend.writeFile('/a.txt', 'a');
    await backend.close();
    const reopened = await openPersistent(createStateBackend(), store);
    expect(await reopened.backend.readText('/sneaked-in.txt')).toBe('committed while saving');
    expect(await reopened.backend.readText('/a.txt')).toBe('a');
  });

  it('a rollback that changes only a directory saves that directory, so the store reopens as the backend is (its time too)', async () => {
    let t = 1_000;
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ now: () => (t += 1) }), store, { durability: 'immediate' });
    await backend.mkdir('/a');
    const checkpoint = await backend.checkpoint();
    await backend.remove('/a', { recursive: true });
    await backend.mkdir('/a');
    await backend.rollback(checkpoint);
    const time = (await backend.stat('/a')).mtimeMs;
    await backend.close();
    const reopened = await openPersistent(createStateBackend(), store);
    expect((await reopened.backend.stat('/a')).mtimeMs).toBe(time);
  });

  it('a sound workspace that does not fit the backend it is opened into is refused, not kept aside: the store is unchanged', async () => {
    const store = createMemoryStore();
    const files = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`/f${i}.txt`, 'x'.repeat(2_000)]));
    await (await openPersistent(createStateBackend({ files }), store, { durability: 'immediate' })).backend.close();
    const held = [...(await store.readAll()).keys()].sort();
    for (const limits of [{ maxFileBytes: 1_000 }, { maxFiles: 5 }]) {
      await expect(openPersistent(createStateBackend({ limits }), store)).rejects.toMatchObject({
        code: 'EQUOTA',
        message: expect.stringMatching(/does not fit this backend: .* the store is unchanged/),
      });
      expect([...(await store.readAll()).keys()].sort()).toEqual(held);
    }
    const reopened = await openPersistent(createStateBackend(), store);
    expect(reopened.restored.status).toBe('restored');
    expect(await reopened.backend.readText('/f9.txt')).toBe('x'.repeat(2_000));
  });

  it('a workspace saved with a name holding a lone surrogate (before paths refused them) opens, the name with U+FFFD', async () => {
    const store = createMemoryStore();
    await (await openPersistent(createStateBackend({ files: { '/keep.txt': 'kept' } }), store, { durability: 'immediate' })).backend.close();
    // As an earlier version saved it: the key a JS string, lone surrogate and all.
    const key = 'f:/notes\uD800x.txt';
    await store.write({ puts: [[key, encodeRecord(key, 5, new TextEncoder().encode('old'))]], deletes: [] }, { durability: 'strict' });
    const { backend, restored } = await openPersistent(createStateBackend(), store);
    expect(restored.status).toBe('restored');
    expect(await backend.readText('/notes\uFFFDx.txt')).toBe('old');
    expect(await backend.readText('/keep.txt')).toBe('kept');
  });

  it('a snapshot saved by the snapshot adapter that does not fit the backend is refused, and kept as it is', async () => {
    const legacy = await createStateBackend({ files: { '/big.txt': 'x'.repeat(5_000) } }).snapshot();
    const store = Object.assign(createMemoryStore(), { readLegacy: async () => legacy });
    await expect(openPersistent(createStateBackend({ limits: { maxFileBytes: 1_000 } }), store)).rejects.toMatchObject({ code: 'EQUOTA' });
    expect(store.batches).toEqual([]); // nothing written: the snapshot is still the store's
  });
});
