// readKeptAside: what a corrupt or foreign workspace held, read back with its reason, and what
// still reads of it restored into a backend.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { readKeptAside } from './kept-aside.ts';
import { createMemoryStore } from './memory-store.ts';
import { openPersistent } from './persistent.ts';
import { encodeRecord } from './records.ts';

const flipLastByte = (store: ReturnType<typeof createMemoryStore>, key: string) => {
  const damaged = store.entries.get(key)!.slice();
  damaged[damaged.length - 1] = damaged.at(-1)! ^ 1;
  (store.entries as Map<string, Uint8Array>).set(key, damaged);
};

describe('readKeptAside', () => {
  it('gives the reason, every record, and what still passes its check as a snapshot to restore', async () => {
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend({ files: { '/a': 'a', '/d/b': 'b' } }), store, { durability: 'immediate' });
    await backend.mkdir('/empty');
    await backend.close();
    expect(await readKeptAside(store)).toEqual([]);
    flipLastByte(store, 'f:/d/b');
    const { restored } = await openPersistent(createStateBackend(), store);
    const [kept, ...more] = await readKeptAside(store);
    expect(more).toEqual([]);
    expect(kept).toMatchObject({ key: expect.stringMatching(/^aside:\d+-/), reason: restored.status === 'corrupt' ? restored.reason : 'not corrupt' });
    expect(kept!.at).toBeGreaterThan(Date.now() - 60_000);
    expect([...kept!.records.keys()].sort()).toEqual(['d:/d', 'd:/empty', 'f:/a', 'f:/d/b', 'meta']);
    expect(kept!.damaged).toEqual(['f:/d/b']);
    const salvaged = createStateBackend();
    await salvaged.restore(kept!.salvaged!);
    expect(await salvaged.readText('/a')).toBe('a');
    expect(await salvaged.exists('/d/b')).toBe(false);
    expect((await salvaged.stat('/empty')).isDir).toBe(true);
    // It only reads: the store still holds it, and the workspace opens (empty) as before.
    expect(await readKeptAside(store)).toHaveLength(1);
    expect((await openPersistent(createStateBackend(), store)).restored.status).toBe('restored');
  });

  it('lists each time something was kept aside, oldest first; records of no agentvfs workspace are damaged', async () => {
    const store = createMemoryStore();
    await store.write({ puts: [['x:foreign', new Uint8Array([1])]], deletes: [] }, { durability: 'strict' });
    await openPersistent(createStateBackend(), store);
    await store.write({ puts: [['f:/x', encodeRecord('f:/other-key', 1, new Uint8Array([1]))]], deletes: [] }, { durability: 'strict' });
    const first = Date.now(); // the second key's time is later than the first's, whatever the timers do
    while (Date.now() <= first) await new Promise((resolve) => setTimeout(resolve, 1));
    await openPersistent(createStateBackend(), store);
    const kept = await readKeptAside(store);
    expect(kept.map((k) => k.reason)).toEqual([expect.stringContaining('no "meta" record'), expect.stringContaining('record "f:/x" fails its checksum')]);
    expect(kept.map((k) => k.damaged)).toEqual([['x:foreign'], ['f:/x']]);
    expect(kept.map((k) => k.salvaged)).toEqual([null, null]);
  });

  it('a record kept aside that is itself damaged is returned as it is', async () => {
    const store = createMemoryStore();
    await store.write({ puts: [['aside:5-x', new Uint8Array([255, 255, 255, 255, 1])]], deletes: [] }, { durability: 'strict' });
    const [kept] = await readKeptAside(store);
    expect(kept).toMatchObject({ key: 'aside:5-x', salvaged: null, damaged: ['aside:5-x'], reason: expect.stringMatching(/does not read/) });
    expect([...kept!.records.values()]).toEqual([new Uint8Array([255, 255, 255, 255, 1])]);
  });
});
