// The IndexedDB store's layout (indexeddb-layout.ts), seen in the rows it leaves: a big save
// becomes a few packs, a small one loose records, a removal a tombstone; compaction packs loose
// records, rewrites a mostly dead pack and drops tombstones no pack needs; a follower reads packed keys; a pack that does not
// decode is kept aside; a workspace saved one record per file (the layout before packs) opens.
import { IDBFactory, IDBKeyRange, IDBObjectStore } from 'fake-indexeddb';
import { describe, expect, it, vi } from 'vitest';
import { createStateBackend } from '../index.ts';
import { PACK_BYTES } from './indexeddb-layout.ts';
import { createIndexedDBStore } from './indexeddb-store.ts';
import { openPersistent } from './persistent.ts';
import { decodeAside, encodeMeta, encodeRecord, fileKey } from './records.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);
const strict = { durability: 'strict' } as const;
const records = (n: number, size = 100, prefix = 'k') =>
  Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(4, '0')}`, new Uint8Array(size).fill(i % 256)] as [string, Uint8Array]);

/** Every row of `workspace` in the database, as the store left it: packs (number keys) and loose records (string keys). */
async function rows(factory: IDBFactory, workspace = 'default'): Promise<{ packs: number[]; loose: Map<string, number> }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = factory.open('agentvfs');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction('workspaces', 'readonly');
  const range = IDBKeyRange.bound([workspace], [workspace, []]);
  const keys = tx.objectStore('workspaces').getAllKeys(range);
  const values = tx.objectStore('workspaces').getAll(range);
  await new Promise((resolve) => (tx.oncomplete = resolve));
  db.close();
  const out = { packs: [] as number[], loose: new Map<string, number>() };
  (keys.result as Array<[string, string | number]>).forEach(([, k], i) => {
    if (typeof k === 'number') out.packs.push(k);
    else out.loose.set(k, (values.result[i] as Uint8Array).length);
  });
  return out;
}

async function putRow(factory: IDBFactory, key: [string, string | number], value: unknown): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve) => {
    const request = factory.open('agentvfs', 2);
    request.onupgradeneeded = () => {
      for (const name of ['snapshots', 'workspaces']) if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
    };
    request.onsuccess = () => resolve(request.result);
  });
  const tx = db.transaction('workspaces', 'readwrite');
  tx.objectStore('workspaces').put(value, key);
  await new Promise((resolve) => (tx.oncomplete = resolve));
  db.close();
}

async function packValue(factory: IDBFactory, n: number): Promise<Uint8Array> {
  const db = await new Promise<IDBDatabase>((resolve) => {
    const request = factory.open('agentvfs');
    request.onsuccess = () => resolve(request.result);
  });
  const tx = db.transaction('workspaces', 'readonly');
  const request = tx.objectStore('workspaces').get(['default', n]);
  await new Promise((resolve) => (tx.oncomplete = resolve));
  db.close();
  return request.result as Uint8Array;
}

const storeOn = (factory: IDBFactory) => createIndexedDBStore({ indexedDB: factory, IDBKeyRange });

describe('IndexedDB store layout', () => {
  it('a failed commit changes neither the rows nor what the store knows of them: the next big save is packed again', async () => {
    const factory = new IDBFactory();
    const store = storeOn(factory);
    await store.readAll();
    await store.write({ puts: records(100), deletes: [] }, strict);
    const before = await rows(factory);
    const put = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementationOnce(() => {
      throw new Error('quota exceeded');
    });
    await expect(store.write({ puts: [['k0001', bytes('new')]], deletes: ['k0002'] }, strict)).rejects.toThrow('quota exceeded');
    put.mockRestore();
    expect(await rows(factory)).toEqual(before);
    await store.write({ puts: records(100, 100, 'z'), deletes: ['k0002'] }, strict);
    const after = await rows(factory);
    expect(after.packs.length).toBeGreaterThan(before.packs.length);
    expect([...after.loose.keys()]).toEqual(['k0002']); // a tombstone: a pack holds it
    expect(text((await storeOn(factory).readAll()).get('k0001'))).toBe(text(records(100)[1]![1]));
    await store.close?.();
  });

  it('writes a big save as packs of up to PACK_BYTES, a small one as loose records, and a removal of a packed key as a tombstone', async () => {
    const factory = new IDBFactory();
    const store = storeOn(factory);
    await store.readAll();
    await store.write({ puts: records(300, 10_000), deletes: [] }, strict); // 3 MB
    let layout = await rows(factory);
    expect(layout.packs.length).toBe(Math.ceil(300 / Math.floor(PACK_BYTES / 10_000))); // whole records, each pack up to PACK_BYTES
    expect(layout.loose.size).toBe(0);

    await store.write(
      {
        puts: [
          ['k0001', bytes('edited')],
          ['new', bytes('n')],
        ],
        deletes: ['k0002', 'absent'],
      },
      strict,
    );
    layout = await rows(factory);
    expect(Object.fromEntries(layout.loose)).toEqual({ k0001: 6, new: 1, k0002: 0 });

    await store.write({ puts: [], deletes: ['new'] }, strict); // only loose: deleted outright
    expect(Object.fromEntries((await rows(factory)).loose)).toEqual({ k0001: 6, k0002: 0 });
    await store.close?.();

    const all = await storeOn(factory).readAll();
    expect(all.size).toBe(299);
    expect(text(all.get('k0001'))).toBe('edited');
    expect(all.has('k0002')).toBe(false);
    expect(all.get('k0299')).toEqual(new Uint8Array(10_000).fill(299 % 256));
  });

  it('drops a pack, and the tombstones only it needed, once every record in it is gone', async () => {
    const factory = new IDBFactory();
    const store = storeOn(factory);
    await store.readAll();
    const keys = records(100).map(([k]) => k);
    await store.write({ puts: records(100), deletes: [] }, strict);
    await store.write({ puts: [], deletes: keys.slice(0, 10) }, strict);
    expect((await rows(factory)).loose.size).toBe(10);
    await store.write({ puts: [], deletes: keys.slice(10) }, strict);
    expect(await rows(factory)).toEqual({ packs: [], loose: new Map() });
    await store.close?.();
  });

  it('compaction moves loose records into a pack once enough are waiting', async () => {
    const factory = new IDBFactory();
    const store = storeOn(factory);
    await store.readAll();
    for (const record of records(300)) await store.write({ puts: [record], deletes: [] }, strict);
    await store.readAll(); // queued behind the compaction steps started so far
    const layout = await rows(factory);
    expect(layout.packs).toHaveLength(1); // the first 256, packed once the 256th was written
    expect(layout.loose.size).toBe(300 - 256);
    await store.close?.();
    const all = await storeOn(factory).readAll();
    expect([...all.keys()]).toEqual(records(300).map(([k]) => k));
  });

  it('compaction rewrites a pack that is mostly dead, keeping its live records', async () => {
    const factory = new IDBFactory();
    const store = storeOn(factory);
    await store.readAll();
    await store.write({ puts: records(100), deletes: [] }, strict);
    const [old] = (await rows(factory)).packs;
    await store.write({ puts: records(60).map(([k]) => [k, bytes('over')]), deletes: [] }, strict);
    await store.readAll();
    const layout = await rows(factory);
    expect(layout.packs).toHaveLength(1);
    expect(layout.packs[0]).not.toBe(old);
    expect(layout.loose.size).toBe(60);
    const all = await store.readAll();
    expect(text(all.get('k0000'))).toBe('over');
    expect(all.get('k0099')).toEqual(new Uint8Array(100).fill(99));
    await store.close?.();
  });

  it('a write before any read keeps every removal as a tombstone; the next opener drops those no pack needs once it saves', async () => {
    const factory = new IDBFactory();
    const first = storeOn(factory);
    await first.readAll();
    await first.write(
      {
        puts: [
          ['x', bytes('x')],
          ['y', bytes('y')],
        ],
        deletes: [],
      },
      strict,
    );
    await first.close?.();
    await storeOn(factory).write({ puts: [], deletes: ['x'] }, strict); // this store never read the rows
    expect(Object.fromEntries((await rows(factory)).loose)).toEqual({ x: 0, y: 1 });
    const next = storeOn(factory);
    expect([...(await next.readAll()).keys()]).toEqual(['y']);
    // Compaction waits for a save: the opener may yet keep the rows aside.
    expect(Object.fromEntries((await rows(factory)).loose)).toEqual({ x: 0, y: 1 });
    await next.write({ puts: [['z', bytes('z')]], deletes: [] }, strict);
    await next.readAll(); // queued behind the compaction step the save started
    expect(Object.fromEntries((await rows(factory)).loose)).toEqual({ y: 1, z: 1 });
    await next.close?.();
  });

  it("two writers nothing coordinates (no Web Locks) never replace each other's packs: the second saves loose", async () => {
    const factory = new IDBFactory();
    const [a, b] = [storeOn(factory), storeOn(factory)];
    await a.readAll();
    await b.readAll();
    // Each learned an empty workspace, so each plans its first pack under the same number.
    await a.write({ puts: records(100, 100, 'a'), deletes: [] }, strict);
    await b.write({ puts: records(100, 100, 'b'), deletes: [] }, strict);
    const { packs, loose } = await rows(factory);
    expect(packs).toHaveLength(1);
    expect(loose.size).toBe(100);
    const all = await storeOn(factory).readAll();
    expect(all.size).toBe(200);
    expect(text(all.get('a0007'))).toBe(text(new Uint8Array(100).fill(7)));
    expect(text(all.get('b0099'))).toBe(text(new Uint8Array(100).fill(99)));
  });

  it("a compaction step that finds its pack's number taken by another writer forgets the layout: that writer's later values stay", async () => {
    const factory = new IDBFactory();
    const value = (tag: string) => bytes(tag.padEnd(200, '.'));
    const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `K${String(from + i).padStart(3, '0')}`);
    const a = storeOn(factory);
    await a.readAll();
    await a.write({ puts: keys(0, 100).map((k) => [k, value('v1')]), deletes: [] }, strict); // a: pack 0
    const b = storeOn(factory);
    await b.readAll();
    // b: pack 1, newer values of K000–K049 (pack 0 stays half live for b: no rewrite of its own).
    await b.write({ puts: [...keys(0, 50).map((k): [string, Uint8Array] => [k, value('v2')]), ...records(20, 200, 'x')], deletes: [] }, strict);
    // a: 60 loose overwrites leave its pack 0 40% live; its rewrite plans pack 1, which b took.
    await a.write({ puts: keys(40, 100).map((k) => [k, value('v3')]), deletes: [] }, strict);
    // Each save waits for the compaction step queued before it, and queues the next.
    await a.write({ puts: [['y', value('y')]], deletes: [] }, strict);
    await a.write({ puts: [['z', value('z')]], deletes: [] }, strict);
    await a.close?.();
    await b.close?.();
    const all = await storeOn(factory).readAll();
    expect(new Set(keys(0, 40).map((k) => text(all.get(k))!.slice(0, 2)))).toEqual(new Set(['v2']));
    expect(new Set(keys(40, 100).map((k) => text(all.get(k))!.slice(0, 2)))).toEqual(new Set(['v3']));
  });

  it('a follower reads keys that are packed, loose or removed', async () => {
    const factory = new IDBFactory();
    const writer = storeOn(factory);
    await writer.readAll();
    await writer.write({ puts: records(100), deletes: [] }, strict);
    await writer.write({ puts: [['k0001', bytes('loose')]], deletes: ['k0002'] }, strict);
    const values = await storeOn(factory).readKeys!(['k0000', 'k0001', 'k0002', 'k0099', 'absent']);
    expect([...values.keys()].sort()).toEqual(['k0000', 'k0001', 'k0099']);
    expect(text(values.get('k0001'))).toBe('loose');
    expect(values.get('k0099')).toEqual(new Uint8Array(100).fill(99));
    await writer.close?.();
  });

  it('a follower told of a removal reads no pack for it; a key written again after is looked up again', async () => {
    const factory = new IDBFactory();
    const writer = storeOn(factory);
    await writer.readAll();
    await writer.write({ puts: records(100), deletes: [] }, strict); // packs
    await writer.write({ puts: [['n1', bytes('one')]], deletes: [] }, strict); // loose, in no pack
    const follower = storeOn(factory);
    const heard: string[][] = [];
    const unfollow = follower.follow!((keys) => heard.push(keys));
    await writer.write({ puts: [], deletes: ['n1'] }, strict);
    await vi.waitFor(() => expect(heard).toEqual([['n1']]));
    const packReads = vi.spyOn(IDBObjectStore.prototype, 'get');
    expect([...(await follower.readKeys!(['n1'])).keys()]).toEqual([]);
    expect(packReads.mock.calls.filter(([key]) => typeof (key as unknown[])[1] === 'number')).toEqual([]);
    packReads.mockRestore();
    // Written again, into a pack this time: the follower looks for it in the packs again.
    await writer.write({ puts: [['n1', bytes('again')], ...records(79, 10, 'm')], deletes: [] }, strict);
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    expect((await rows(factory)).loose.has('n1')).toBe(false); // packed
    expect(text((await follower.readKeys!(['n1'])).get('n1'))).toBe('again');
    unfollow();
    await writer.close?.();
    await follower.close?.();
  });

  it('a pack that does not decode is kept aside with everything else, and the workspace starts afresh', async () => {
    const factory = new IDBFactory();
    const first = await openPersistent(
      createStateBackend({ files: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`/f${i}`, `file ${i}`])) }),
      storeOn(factory),
      {
        durability: 'immediate',
      },
    );
    await first.backend.close();
    const [pack] = (await rows(factory)).packs;
    await putRow(factory, ['default', pack!], bytes('not a pack'));
    const { backend, restored } = await openPersistent(createStateBackend(), storeOn(factory));
    expect(restored).toMatchObject({ status: 'corrupt', reason: expect.stringContaining('kept aside') });
    // The pack held "meta" too: the reason names the damaged pack, not a foreign store without one.
    expect(restored).toMatchObject({ reason: expect.stringContaining(`record "pack:${pack}" (an IndexedDB pack of many records) does not decode`) });
    expect(await backend.glob('**', { path: '/' })).toEqual([]);
    await backend.close();
    const layout = await rows(factory);
    const aside = [...layout.loose.keys()].filter((k) => k.startsWith('aside:'));
    expect(aside).toHaveLength(1);
    expect(layout.packs).toEqual([]);
    const kept = decodeAside((await storeOn(factory).readAll()).get(aside[0]!)!);
    expect(kept.records.find(([k]) => k === `pack:${pack}`)?.[1]).toEqual(bytes('not a pack'));
  });

  it('a flipped bit that turns one path in a pack into another of the same pack is reported, not read as one file fewer', async () => {
    const factory = new IDBFactory();
    const files = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`/p/f${i}.txt`, `file ${i}\n`]));
    const first = await openPersistent(createStateBackend({ files }), storeOn(factory), { durability: 'immediate' });
    await first.backend.close();
    const [pack] = (await rows(factory)).packs;
    const value = (await packValue(factory, pack!)).slice();
    const key = bytes('/p/f29.txt');
    const at = value.findIndex((_, i) => key.every((b, j) => value[i + j] === b));
    expect(at).toBeGreaterThan(0);
    value[at + 4] = value[at + 4]! ^ 0b1; // "2" becomes "3": /p/f39.txt, which the pack holds too
    await putRow(factory, ['default', pack!], value);
    const { backend, restored } = await openPersistent(createStateBackend(), storeOn(factory));
    expect(restored).toMatchObject({ status: 'corrupt', reason: expect.stringContaining('kept aside') });
    await backend.close();
  });

  it.each([
    ['a pack whose record count is damaged (it would read as a shorter pack)', 'count'],
    ['a loose record that holds no bytes (a string: read as bytes it would be empty, a deletion)', 'string'],
  ])('%s is reported and kept aside, not opened as a smaller workspace', async (_, damage) => {
    const factory = new IDBFactory();
    // Two packs' worth: the first holds only files (the meta record goes last, into the second).
    const files = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`/f${i}`, `${i}`.padEnd(PACK_BYTES / 50, '.')]));
    const first = await openPersistent(createStateBackend({ files }), storeOn(factory), { durability: 'immediate' });
    await first.backend.writeFile('/loose.txt', 'one small save: a loose record');
    await first.backend.close();
    const all = await storeOn(factory).readAll();
    if (damage === 'count') {
      const { packs } = await rows(factory);
      expect(packs.length).toBeGreaterThan(1);
      const pack = Math.min(...packs);
      const value = new Uint8Array(await packValue(factory, pack!));
      const view = new DataView(value.buffer);
      view.setUint32(0, view.getUint32(0, true) - 1, true); // one record fewer: the last would be dropped unseen
      await putRow(factory, ['default', pack!], value);
    } else {
      expect(all.has(fileKey('/loose.txt'))).toBe(true);
      await putRow(factory, ['default', fileKey('/loose.txt')], 'garbage');
    }
    const { restored } = await openPersistent(createStateBackend(), storeOn(factory));
    expect(restored.status).toBe('corrupt');
    if (damage === 'string') {
      // Kept aside with what the row held, as text: nothing is lost.
      const aside = [...(await storeOn(factory).readAll())].find(([k]) => k.startsWith('aside:'))!;
      const kept = decodeAside(aside[1]).records.find(([k]) => k === fileKey('/loose.txt'))!;
      expect(text(kept[1])).toBe('not bytes: "garbage"');
    }
  });

  it('opens a workspace saved one record per file (the layout before packs)', async () => {
    const factory = new IDBFactory();
    await putRow(factory, ['default', 'meta'], encodeMeta());
    for (let i = 0; i < 5; i++) await putRow(factory, ['default', fileKey(`/f${i}`)], encodeRecord(fileKey(`/f${i}`), 1_000 + i, bytes(`old ${i}`)));
    const { backend, restored } = await openPersistent(createStateBackend(), storeOn(factory), { durability: 'immediate' });
    expect(restored.status).toBe('restored');
    expect(await backend.readText('/f4')).toBe('old 4');
    await backend.remove('/f0');
    await backend.close();
    const again = await openPersistent(createStateBackend(), storeOn(factory));
    expect((await again.backend.glob('**', { path: '/' })).sort()).toEqual(['/f1', '/f2', '/f3', '/f4']);
    await again.backend.close();
  });

  it('a small edit in a packed workspace writes only its records: the packs are untouched', async () => {
    const factory = new IDBFactory();
    const files = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`/src/f${i}.ts`, 'x'.repeat(5_000)]));
    const { backend } = await openPersistent(createStateBackend({ files }), storeOn(factory), { durability: 'immediate' });
    const before = await rows(factory);
    await backend.writeFile('/src/f7.ts', 'small edit');
    const after = await rows(factory);
    expect(after.packs).toEqual(before.packs);
    expect([...after.loose.keys()].filter((k) => !before.loose.has(k)).sort()).toEqual(['f:/src/f7.ts']);
    await backend.close();
    const again = await openPersistent(createStateBackend(), storeOn(factory));
    expect(await again.backend.readText('/src/f7.ts')).toBe('small edit');
    await again.backend.close();
  });
});
