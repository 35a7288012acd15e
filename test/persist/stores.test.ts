// Every workspace store, one suite: batches are atomic, reopen gives what was committed, big
// values survive (Durable Object chunking), and a whole workspace round-trips through openPersistent.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { createFileStore, readWorkspaceFile } from '../../src/persist/node/index.ts';
import { encodeBatch } from '../../src/persist/batch-codec.ts';
import { xxh32 } from '../../src/snapshot/xxhash32.ts';
import {
  createDurableObjectStore,
  createIndexedDBAdapter,
  createIndexedDBStore,
  createMemoryStore,
  type DurableObjectStorageLike,
  type DurableObjectTransactionLike,
  openPersistent,
  readKeptAside,
  type WorkspaceStore,
} from '../../src/persist/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentvfs-stores-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

/** Durable Object storage as workerd gives it, in memory: a transaction's writes land together, or not at all when it throws. */
function fakeDurableObjectStorage(): DurableObjectStorageLike & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    async get(key) {
      return data.get(key);
    },
    async list({ prefix = '', start, end } = {}) {
      const inRange = (k: string) => k.startsWith(prefix) && (start === undefined || k >= start) && (end === undefined || k < end);
      return new Map([...data].filter(([k]) => inRange(k)).sort(([a], [b]) => (a < b ? -1 : 1)));
    },
    async transaction(work) {
      const staged = new Map(data);
      const result = await work({
        get: async (key) => staged.get(key),
        put: async (key, value) => {
          if (new TextEncoder().encode(key).length > 2048) throw new RangeError('Keys cannot be larger than 2048 bytes.');
          // Stored as workerd stores it: serialized with V8's serializer, which writes a view's
          // whole buffer, under the 128 KiB value limit of KV-backed storage.
          const size = serializedSize(value);
          if (size > 128 * 1024) throw new RangeError(`Values cannot be larger than 131072 bytes. A value of size ${size} was provided.`);
          staged.set(key, structuredClone(value));
        },
        delete: async (key) => staged.delete(key),
      });
      data.clear();
      for (const [k, v] of staged) data.set(k, v);
      return result;
    },
  };
}

/** About what V8's serializer writes for a stored value: a view's whole buffer, a string's UTF-8, and the rest of an object. */
function serializedSize(value: unknown): number {
  if (value instanceof Uint8Array) return value.buffer.byteLength;
  if (typeof value === 'string') return new TextEncoder().encode(value).length;
  if (typeof value === 'object' && value !== null) return Object.entries(value).reduce((n, [k, v]) => n + k.length + serializedSize(v), 0);
  return 8;
}

let files = 0;
const idb = new IDBFactory();

/** A store and a way to open it again as a new process would (same file, database or storage). */
function reopenable(name: string): { first: WorkspaceStore; again(): WorkspaceStore } {
  const n = ++files;
  if (name === 'file') return { first: createFileStore(join(dir, `r${n}.log`)), again: () => createFileStore(join(dir, `r${n}.log`)) };
  if (name === 'IndexedDB') {
    const make = () => createIndexedDBStore({ indexedDB: idb, IDBKeyRange, key: `r${n}` });
    return { first: make(), again: make };
  }
  if (name === 'Durable Object') {
    const storage = fakeDurableObjectStorage();
    const make = () => createDurableObjectStore(storage, { chunkBytes: 1_000 });
    return { first: make(), again: make };
  }
  const store = createMemoryStore();
  return { first: store, again: () => store };
}

describe.each(['memory', 'file', 'IndexedDB', 'Durable Object'])('%s store', (name) => {
  it('applies batches: puts, overwrites and deletes, as one', async () => {
    const { first, again } = reopenable(name);
    expect(await first.readAll()).toEqual(new Map());
    await first.write(
      {
        puts: [
          ['a', bytes('1')],
          ['b', bytes('2')],
          ['big', new Uint8Array(5_000).fill(7)],
        ],
        deletes: [],
      },
      { durability: 'strict' },
    );
    await first.write(
      {
        puts: [
          ['b', bytes('22')],
          ['big', new Uint8Array(2_500).fill(9)],
        ],
        deletes: ['a', 'missing'],
      },
      { durability: 'default' },
    );
    await first.close?.();
    const all = await again().readAll();
    expect([...all.keys()].sort()).toEqual(['b', 'big']);
    expect(text(all.get('b'))).toBe('22');
    expect(all.get('big')).toEqual(new Uint8Array(2_500).fill(9));
  });

  it('holds a workspace across a reopen, one record per file', async () => {
    const { first, again } = reopenable(name);
    const { backend } = await openPersistent(createStateBackend({ files: { '/a/b.txt': 'b', '/big.bin': new Uint8Array(300_000).fill(3) } }), first, {
      durability: 'immediate',
    });
    await backend.writeFile('/a/c.txt', 'c');
    await backend.remove('/a/b.txt');
    await backend.mkdir('/empty');
    await backend.close();
    const { backend: reopened, restored } = await openPersistent(createStateBackend(), again());
    expect(restored.status).toBe('restored');
    expect(await reopened.glob('**', { path: '/' })).toEqual(['/a/c.txt', '/big.bin']);
    expect((await reopened.stat('/empty')).isDir).toBe(true);
    expect((await reopened.readFile('/big.bin')).length).toBe(300_000);
    await reopened.close();
  });
});

describe('file store', () => {
  it('cuts off a batch torn by a kill (the state before it opens) and appends after it', async () => {
    const path = join(dir, 'torn.log');
    const store = createFileStore(path);
    await store.readAll();
    await store.write({ puts: [['a', bytes('1')]], deletes: [] }, { durability: 'strict' });
    const good = readFileSync(path).length;
    await store.write(
      {
        puts: [
          ['a', bytes('2')],
          ['b', bytes('3')],
        ],
        deletes: [],
      },
      { durability: 'strict' },
    );
    await store.close?.();
    const whole = readFileSync(path);
    for (const cut of [good + 1, good + 8, whole.length - 1]) {
      writeFileSync(path, whole.subarray(0, cut));
      const reopened = createFileStore(path);
      const all = await reopened.readAll();
      expect([...all].map(([k, v]) => [k, text(v)])).toEqual([['a', '1']]);
      await reopened.write({ puts: [['c', bytes('4')]], deletes: [] }, { durability: 'strict' });
      await reopened.close?.();
      const check = createFileStore(path);
      expect([...(await check.readAll()).keys()].sort()).toEqual(['a', 'c']);
      await check.close?.();
    }
  });

  it('refuses a file that is not its log, and leaves it as it is', async () => {
    const path = join(dir, 'foreign.log');
    writeFileSync(path, 'hello, not a log');
    await expect(createFileStore(path).readAll()).rejects.toThrow('is not an agentvfs workspace log');
    expect(readFileSync(path, 'utf8')).toBe('hello, not a log');
  });

  it('damage before the last batch is reported, not skipped', async () => {
    const path = join(dir, 'damaged.log');
    const store = createFileStore(path);
    await store.readAll();
    await store.write({ puts: [['a', bytes('first')]], deletes: [] }, { durability: 'strict' });
    await store.write({ puts: [['b', bytes('second')]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const whole = readFileSync(path);
    whole[20] = whole[20]! ^ 0xff; // inside the first batch
    writeFileSync(path, whole);
    await expect(createFileStore(path).readAll()).rejects.toThrow(/damaged at byte 8 .*nothing of it was opened/);
  });

  it('a batch whose checksums hold but whose content does not decode is reported as damage, naming the byte', async () => {
    const path = join(dir, 'bad-payload.log');
    const store = createFileStore(path);
    await store.readAll();
    await store.write({ puts: [['a', bytes('first')]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const payload = new Uint8Array(3);
    const frame = new Uint8Array(12 + payload.length);
    const view = new DataView(frame.buffer);
    view.setUint32(0, payload.length, true);
    view.setUint32(4, xxh32(payload), true);
    view.setUint32(8, xxh32(frame.subarray(0, 8)), true);
    const whole = Buffer.concat([readFileSync(path), frame]);
    writeFileSync(path, whole);
    await expect(createFileStore(path).readAll()).rejects.toThrow(/is damaged at byte \d+ \(a batch does not decode: .+\); it was left as it is/);
    expect(readFileSync(path)).toEqual(whole);
  });

  it.each([
    ['a length grown by one bad bit (format 1 took it for a torn end and dropped the batches after it)', 'length'],
    ['a bad bit in the last whole batch (not a torn end: the batch is all there)', 'last'],
  ])('%s is reported, and the file left as it is', async (_, where) => {
    const path = join(dir, `damaged-${where}.log`);
    const store = createFileStore(path);
    await store.readAll();
    const starts: number[] = [];
    for (const k of ['a', 'b', 'c']) {
      starts.push(store.fileBytes);
      await store.write({ puts: [[k, bytes(`value of ${k}`)]], deletes: [] }, { durability: 'strict' });
    }
    await store.close?.();
    const whole = readFileSync(path);
    // The second batch's length, or the last byte of the last batch.
    const at = where === 'length' ? starts[1]! + 2 : whole.length - 1;
    whole[at] = whole[at]! ^ (where === 'length' ? 0x10 : 0x01);
    writeFileSync(path, whole);
    await expect(createFileStore(path).readAll()).rejects.toThrow(/is damaged at byte \d+ .*nothing of it was opened/);
    expect(readFileSync(path)).toEqual(whole);
  });

  it('a last batch that power loss left all zeros is cut, not damage: the batches before it open', async () => {
    const path = join(dir, 'power-loss.log');
    const store = createFileStore(path);
    await store.readAll();
    await store.write({ puts: [['a', bytes('kept')]], deletes: [] }, { durability: 'strict' });
    const start = store.fileBytes;
    await store.write({ puts: [['b', bytes('x'.repeat(2000))]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const whole = readFileSync(path);
    whole.fill(0, start);
    writeFileSync(path, whole);
    const reopened = createFileStore(path);
    expect([...(await reopened.readAll())].map(([k, v]) => [k, text(v)])).toEqual([['a', 'kept']]);
    // The next write goes where the lost batch began.
    await reopened.write({ puts: [['c', bytes('after')]], deletes: [] }, { durability: 'strict' });
    await reopened.close?.();
    expect([...(await createFileStore(path).readAll()).keys()].sort()).toEqual(['a', 'c']);
  });

  // Content ending in zeros (a padded binary file): zeros at the end of the file are no proof of a power loss.
  const paddedBinary = () => new Uint8Array(2024).fill(0x7a, 0, 1000);
  it.each([
    ['a bad bit in an earlier batch header, the last batch ending in zeros', 'earlier header'],
    ['a bad bit in the last batch, whose content ends in zeros', 'last payload'],
    ['the last batch zeroed from inside it (its content could be those zeros)', 'zeroed inside'],
  ])('%s is damage: reported, the file left as it is', async (_, where) => {
    const path = join(dir, `zeros-${where.replace(' ', '-')}.log`);
    const store = createFileStore(path);
    await store.readAll();
    await store.write({ puts: [['a', bytes('first')]], deletes: [] }, { durability: 'strict' });
    const second = store.fileBytes;
    await store.write({ puts: [['b', bytes('second, acknowledged')]], deletes: [] }, { durability: 'strict' });
    const last = store.fileBytes;
    await store.write({ puts: [['c', paddedBinary()]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const whole = readFileSync(path);
    if (where === 'earlier header') whole[second + 9] = whole[second + 9]! ^ 0x01;
    else if (where === 'last payload') whole[last + 12 + 30] = whole[last + 12 + 30]! ^ 0x01;
    else whole.fill(0, Math.ceil((last + 40) / 512) * 512);
    writeFileSync(path, whole);
    await expect(createFileStore(path).readAll()).rejects.toThrow(/is damaged at byte \d+ .*nothing of it was opened/);
    expect(() => readWorkspaceFile(path)).toThrow(/is damaged at byte/);
    expect(readFileSync(path)).toEqual(whole);
  });

  it('zeros inside a batch that is not the last are still damage, and the file is left as it is', async () => {
    const path = join(dir, 'zeros-inside.log');
    const store = createFileStore(path);
    await store.readAll();
    await store.write({ puts: [['a', bytes('y'.repeat(2000))]], deletes: [] }, { durability: 'strict' });
    await store.write({ puts: [['b', bytes('second')]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    const whole = readFileSync(path);
    whole.fill(0, 1024, 1536); // a sector of the first batch
    writeFileSync(path, whole);
    await expect(createFileStore(path).readAll()).rejects.toThrow(/damaged at byte 8 /);
    expect(readFileSync(path)).toEqual(whole);
  });

  it('opens a log of format 1 (AVFSLOG1), appends to it in that format, and rewrites it in format 2 when it compacts', async () => {
    const path = join(dir, 'format1.log');
    // Format 1 by hand: the magic, then u32 length | u32 xxh32(payload) | payload per batch.
    const payload = encodeBatch({ puts: [['a', bytes('from format 1')]], deletes: [] });
    const head = new Uint8Array(8);
    new DataView(head.buffer).setUint32(0, payload.length, true);
    new DataView(head.buffer).setUint32(4, xxh32(payload), true);
    writeFileSync(path, Buffer.concat([Buffer.from('AVFSLOG1'), head, payload]));
    const store = createFileStore(path);
    expect(text((await store.readAll()).get('a'))).toBe('from format 1');
    await store.write({ puts: [['b', bytes('appended')]], deletes: [] }, { durability: 'strict' });
    await store.close?.();
    expect(readFileSync(path).subarray(0, 8).toString('latin1')).toBe('AVFSLOG1');
    const again = createFileStore(path);
    expect([...(await again.readAll()).keys()].sort()).toEqual(['a', 'b']);
    for (let i = 0; i < 30; i++) await again.write({ puts: [['big', new Uint8Array(300_000).fill(i)]], deletes: [] }, { durability: 'default' });
    await again.close?.();
    expect(readFileSync(path).subarray(0, 8).toString('latin1')).toBe('AVFSLOG2');
    expect(text((await createFileStore(path).readAll()).get('a'))).toBe('from format 1');
  });

  it('compacts: rewriting one file many times keeps the log near the live size', async () => {
    const path = join(dir, 'compact.log');
    const store = createFileStore(path);
    const { backend } = await openPersistent(createStateBackend(), store, { durability: 'immediate' });
    for (let i = 0; i < 60; i++) await backend.writeFile('/f', new Uint8Array(200_000).fill(i));
    expect(store.fileBytes).toBeLessThan(2 * 200_000 + 4 * 1024 * 1024 + 250_000);
    await backend.close();
    const { backend: reopened } = await openPersistent(createStateBackend(), createFileStore(path));
    expect((await reopened.readFile('/f'))[0]).toBe(59);
  });
});

describe('file store over a snapshot file (what `agentvfs mcp --save` wrote before the log)', () => {
  it('opens the snapshot, and its first save replaces it with a log atomically; a later open reads the log', async () => {
    const path = join(dir, 'legacy.snap');
    const source = createStateBackend({ files: { '/src/a.ts': 'a\n', '/b.bin': new Uint8Array([0, 255]) } });
    const snapshot = await source.snapshot();
    writeFileSync(path, snapshot);
    const { backend, restored } = await openPersistent(createStateBackend(), createFileStore(path), { durability: 'immediate' });
    expect(restored).toEqual({ status: 'restored', bytes: snapshot.byteLength });
    expect(await backend.readText('/src/a.ts')).toBe('a\n');
    expect(readFileSync(path).subarray(0, 8).toString('latin1')).toBe('AVFSLOG2'); // migrated on open
    await backend.writeFile('/src/a.ts', 'changed\n');
    await backend.close();
    const { backend: again } = await openPersistent(createStateBackend(), createFileStore(path));
    expect(await again.readText('/src/a.ts')).toBe('changed\n');
    expect([...(await again.readFile('/b.bin'))]).toEqual([0, 255]);
    await again.close();
  });

  it('refuses any batch but the migrating one while the file still holds the snapshot, leaving it as it was', async () => {
    const path = join(dir, 'legacy-held.snap');
    const snapshot = await createStateBackend({ files: { '/x': 'x' } }).snapshot();
    writeFileSync(path, snapshot);
    const store = createFileStore(path);
    expect(await store.readAll()).toEqual(new Map());
    expect(await store.readLegacy?.()).toEqual(snapshot);
    await expect(store.write({ puts: [['a', bytes('1')]], deletes: [] }, { durability: 'strict' })).rejects.toThrow('still holds a snapshot');
    expect(new Uint8Array(readFileSync(path))).toEqual(snapshot);
  });
});

describe('a store of your own', () => {
  it.each([
    ['an ArrayBuffer', new Uint8Array([1, 2, 3]).buffer],
    ['a string', 'not bytes'],
    ['null', null],
  ])('a row holding %s is reported and kept aside with what it held, never a raw error', async (_, odd) => {
    const memory = createMemoryStore();
    const first = await openPersistent(createStateBackend(), memory, { durability: 'immediate' });
    await first.backend.writeFile('/a.txt', 'hello\n');
    await first.backend.close();
    const rows = new Map<string, unknown>(await memory.readAll());
    rows.set('f:/odd', odd);
    const store: WorkspaceStore = {
      readAll: async () => new Map(rows) as Map<string, Uint8Array>,
      write: async (batch) => {
        for (const k of batch.deletes) rows.delete(k);
        for (const [k, v] of batch.puts) rows.set(k, v);
      },
    };
    const { backend, restored } = await openPersistent(createStateBackend(), store);
    expect(restored.status).toBe('corrupt');
    expect(restored.status === 'corrupt' && restored.reason).toContain('"f:/odd"');
    const [aside] = await readKeptAside(store);
    const kept = new Map(aside!.records);
    expect(text(kept.get('f:/odd'))).toBe(odd instanceof ArrayBuffer ? '\x01\x02\x03' : `not bytes: ${JSON.stringify(odd)}`);
    expect(text(kept.get('f:/a.txt'))).toContain('hello');
    await backend.close();
  });
});

describe('readWorkspaceFile', () => {
  it('gives a log as a snapshot of its live records without writing to it, a snapshot as it is, null for no file', async () => {
    const path = join(dir, 'read.log');
    const { backend } = await openPersistent(createStateBackend(), createFileStore(path), { durability: 'immediate' });
    await backend.writeFile('/keep.txt', 'kept');
    await backend.writeFile('/gone.txt', 'gone');
    await backend.remove('/gone.txt');
    await backend.close();
    const before = readFileSync(path);
    const restored = createStateBackend();
    await restored.restore(readWorkspaceFile(path)!);
    expect(await restored.readText('/keep.txt')).toBe('kept');
    expect(await restored.exists('/gone.txt')).toBe(false);
    expect(readFileSync(path)).toEqual(before);
    const snapshot = await restored.snapshot();
    writeFileSync(join(dir, 'plain.snap'), snapshot);
    expect(readWorkspaceFile(join(dir, 'plain.snap'))).toEqual(snapshot);
    expect(readWorkspaceFile(join(dir, 'none.log'))).toBeNull();
  });
});

describe('IndexedDB store', () => {
  it('opens a workspace the IndexedDB adapter saved, and drops the old snapshot in the same transaction', async () => {
    const factory = new IDBFactory();
    const adapter = createIndexedDBAdapter({ indexedDB: factory, key: 'old' });
    const old = await openPersistent(createStateBackend(), adapter, { durability: 'immediate' });
    await old.backend.writeFile('/notes.md', 'from the adapter');
    const { backend, restored } = await openPersistent(createStateBackend(), createIndexedDBStore({ indexedDB: factory, IDBKeyRange, key: 'old' }));
    expect(restored.status).toBe('restored');
    expect(await backend.readText('/notes.md')).toBe('from the adapter');
    expect(await adapter.load()).toBeNull();
    await backend.writeFile('/notes.md', 'now incremental');
    await backend.close();
    const again = await openPersistent(createStateBackend(), createIndexedDBStore({ indexedDB: factory, IDBKeyRange, key: 'old' }));
    expect(await again.backend.readText('/notes.md')).toBe('now incremental');
    // The adapter still works on the same database (both open version 2).
    await createIndexedDBAdapter({ indexedDB: factory, key: 'other' }).save(await createStateBackend({ files: { '/x': 'x' } }).snapshot());
  });
});

describe('Durable Object store', () => {
  it('a value over the limit is chunked, and overwriting it with a small one removes the chunks', async () => {
    const storage = fakeDurableObjectStorage();
    const store = createDurableObjectStore(storage, { chunkBytes: 1_000 });
    await store.write({ puts: [['k', new Uint8Array(3_500).fill(1)]], deletes: [] }, { durability: 'strict' });
    expect([...storage.data.keys()].filter((k) => k.includes(':c:'))).toHaveLength(4);
    await store.write({ puts: [['k', bytes('small')]], deletes: [] }, { durability: 'strict' });
    expect([...storage.data.keys()]).toEqual(['agentvfs:v:k']);
    expect(text((await store.readAll()).get('k'))).toBe('small');
  });

  it('a damaged head claiming a billion parts is reported and kept aside, no hang: only the parts that are there are removed', async () => {
    const storage = fakeDurableObjectStorage();
    const first = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
    await first.backend.writeFile('/a.txt', 'hello\n');
    await first.backend.close();
    const [head] = [...storage.data.keys()].filter((k) => k.includes(':v:') && k.endsWith('/a.txt'));
    storage.data.set(head!, { chunks: 1e9 });
    let deletes = 0;
    const counted = {
      ...storage,
      transaction: <T>(work: (txn: DurableObjectTransactionLike) => Promise<T>) =>
        storage.transaction((txn) => work({ ...txn, get: (k) => txn.get(k), put: (k, v) => txn.put(k, v), delete: (k) => (deletes++, txn.delete(k)) })),
    };
    const { backend, restored } = await openPersistent(createStateBackend(), createDurableObjectStore(counted));
    expect(restored.status).toBe('corrupt');
    expect(await backend.exists('/a.txt')).toBe(false);
    expect(deletes).toBeLessThan(20);
  });

  it('a 300 KiB file saves with the default chunks (copies: a view would be stored with its whole buffer)', async () => {
    const storage = fakeDurableObjectStorage();
    const big = new Uint8Array(300 * 1024).map((_, i) => i % 251);
    const first = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
    await first.backend.writeFile('/big.bin', big);
    await first.backend.writeFile('/small.txt', 'after it');
    const { backend } = await openPersistent(createStateBackend(), createDurableObjectStore(storage));
    expect(await backend.readFile('/big.bin')).toEqual(big);
    expect(await backend.readText('/small.txt')).toBe('after it');
  });

  it('a path too long for a 2 KiB key is stored under a hash of it: saved, reopened, replaced and removed', async () => {
    const storage = fakeDurableObjectStorage();
    const deep = `/${Array.from({ length: 10 }, (_, i) => `${i}`.repeat(250)).join('/')}`;
    const first = await openPersistent(createStateBackend(), createDurableObjectStore(storage, { chunkBytes: 1_000 }), { durability: 'immediate' });
    await first.backend.writeFile(`${deep}/small.txt`, 'small');
    await first.backend.writeFile(`${deep}/big.bin`, new Uint8Array(5_000).fill(3));
    const again = await openPersistent(createStateBackend(), createDurableObjectStore(storage, { chunkBytes: 1_000 }), { durability: 'immediate' });
    expect(await again.backend.readText(`${deep}/small.txt`)).toBe('small');
    expect(await again.backend.readFile(`${deep}/big.bin`)).toEqual(new Uint8Array(5_000).fill(3));
    await again.backend.writeFile(`${deep}/big.bin`, 'small now');
    await again.backend.remove(`${deep}/small.txt`);
    // Each hashed record holds its path (over 1,900 bytes), more than these 1,000-byte values: one part each, small.txt's gone.
    const hashed = [...storage.data.keys()].filter((k) => k.startsWith('agentvfs:v:#')).map((k) => `agentvfs:c:${k.slice(11)}:0`);
    expect(hashed).toHaveLength(4); // big.bin and the three deepest directories
    expect([...storage.data.keys()].filter((k) => k.includes(':c:')).sort()).toEqual(hashed.sort());
    const third = await openPersistent(createStateBackend(), createDurableObjectStore(storage));
    expect(await third.backend.readText(`${deep}/big.bin`)).toBe('small now');
    expect(await third.backend.exists(`${deep}/small.txt`)).toBe(false);
  });

  it('a deep path beside content just under the value limit is saved in parts: the path counts too', async () => {
    const storage = fakeDurableObjectStorage();
    const deep = `/${'文'.repeat(80)}`.repeat(50); // 4,050 characters, 12,050 bytes: stored under a hash, the path inside
    const content = new Uint8Array(120 * 1024 - 16).fill(7); // its record alone fills one 120 KiB value
    const first = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
    await first.backend.writeFile(`${deep}/f.bin`, content);
    const { backend } = await openPersistent(createStateBackend(), createDurableObjectStore(storage));
    expect(await backend.readFile(`${deep}/f.bin`)).toEqual(content);
  });

  it('a hashed record naming a key that is not stored under that hash is kept aside once, then gone', async () => {
    const storage = fakeDurableObjectStorage();
    await (await openPersistent(createStateBackend({ files: { '/a': 'a' } }), createDurableObjectStore(storage), { durability: 'immediate' })).backend.close();
    storage.data.set(`agentvfs:v:#${'0'.repeat(24)}`, { key: 'f:/planted', value: new Uint8Array([1, 2, 3]) });
    expect((await openPersistent(createStateBackend(), createDurableObjectStore(storage))).restored.status).toBe('corrupt');
    expect([...storage.data.keys()].filter((k) => k.includes('#'))).toEqual([]);
    expect((await openPersistent(createStateBackend(), createDurableObjectStore(storage))).restored.status).toBe('restored');
    expect([...storage.data.keys()].filter((k) => k.includes(':aside:'))).toHaveLength(1);
  });

  it('a value that is not ours (null, a string) is reported and kept aside, not a crash', async () => {
    for (const junk of [null, 'garbage']) {
      const storage = fakeDurableObjectStorage();
      await (
        await openPersistent(createStateBackend({ files: { '/a': 'a' } }), createDurableObjectStore(storage), { durability: 'immediate' })
      ).backend.close();
      storage.data.set('agentvfs:v:junk', junk);
      const { restored } = await openPersistent(createStateBackend(), createDurableObjectStore(storage));
      expect(restored.status).toBe('corrupt');
    }
  });
});

describe('createFileStore on a full disk', () => {
  it('a batch the disk refuses part way is cut off: later saves land and the log opens with every acknowledged one', async () => {
    const path = join(dir, 'full.log');
    const writer = new URL('./disk-full-writer.mjs', import.meta.url).pathname;
    // 1,024 blocks of 512 bytes: the 2 MB file does not fit, the small ones do.
    const { stdout } = await promisify(execFile)('bash', ['-c', `ulimit -f 1024 && exec "${process.execPath}" "${writer}" "${path}"`]);
    expect(stdout.trim().split('\n')).toEqual(['saved', 'NotSavedError', 'saved']);
    const { backend, restored } = await openPersistent(createStateBackend(), createFileStore(path));
    expect(restored.status).toBe('restored');
    expect(await backend.readText('/first.txt')).toBe('first\n');
    expect(await backend.readText('/after.txt')).toBe('after\n');
    expect(await backend.exists('/big.bin')).toBe(false);
  });
});

describe('createFileStore: one process at a time', () => {
  it('a second process is refused while the first lives, and takes over once it is gone (killed, no close)', async () => {
    const path = join(dir, 'held.log');
    const holder = spawn(process.execPath, [new URL('./file-holder.mjs', import.meta.url).pathname, path], { stdio: ['ignore', 'pipe', 'inherit'] });
    const gone = new Promise((resolve) => holder.on('close', resolve));
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('open') && resolve());
      holder.on('close', () => reject(new Error('the holder ended before it opened the file')));
    });
    const refused = await createFileStore(path)
      .readAll()
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(refused).toBe(
      `agentvfs/persist: ${path} is open in another process (pid ${holder.pid}); two would write over each other's saves, so it was not opened. Close that one first, or use another file. (If no such process uses it, delete ${path}.lock.)`,
    );
    holder.kill('SIGKILL');
    await gone;
    const store = createFileStore(path);
    expect([...(await store.readAll()).keys()]).toEqual(['meta']); // what the holder saved, the lock taken over
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await store.close?.();
    expect(existsSync(`${path}.lock`)).toBe(false); // given back on close
  });

  it('of processes starting together, from no lock or from one a killed process left, exactly one opens', async () => {
    for (const stale of [false, true]) {
      const path = join(dir, `raced-${stale}.log`);
      if (stale) writeFileSync(`${path}.lock`, JSON.stringify({ pid: 999_999_999, host: hostname(), token: 'gone' }));
      const at = Date.now() + 1_500; // most spawned by then, released together
      const said: string[] = [];
      // Whoever opened holds the file until all five have answered (two openers would both wait here).
      const answered = (word: string) => (said.push(word), said.length === 5 && writeFileSync(`${path}.release`, ''));
      const racers = Array.from({ length: 5 }, () =>
        promisify(execFile)(process.execPath, [new URL('./file-racer.mjs', import.meta.url).pathname, path, String(at)]),
      );
      const children = racers.map((r) => (r as unknown as { child: import('node:child_process').ChildProcess }).child);
      for (const child of children) child.stdout!.on('data', (chunk: Buffer) => answered(chunk.toString().trim()));
      await Promise.all(racers);
      expect(said.sort(), `stale lock: ${stale}`).toEqual(['opened', 'refused', 'refused', 'refused', 'refused']);
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
  }, 30_000);

  it('two stores of one file in one process share the lock; the one that did not write last is refused at its write, nothing lost', async () => {
    const path = join(dir, 'shared.log');
    const a = await openPersistent(createStateBackend(), createFileStore(path), { durability: 'immediate' });
    const b = await openPersistent(createStateBackend(), createFileStore(path), { durability: 'immediate' });
    await a.backend.writeFile('/a.txt', 'from A, acknowledged\n');
    // B would append at the end it read, over A's batch: refused, nothing written.
    await expect(b.backend.writeFile('/b.txt', 'from B\n')).rejects.toThrow(
      /shared\.log was written by another store of this process since this one opened it; nothing was written/,
    );
    // A reader beside the open workspace still reads it (kept-aside records too).
    const reader = createFileStore(path);
    expect(await readKeptAside(reader)).toEqual([]);
    await reader.close?.();
    await a.backend.close();
    // B's close cannot save its change either (so B keeps the file open, for a close that can).
    await expect(b.backend.close()).rejects.toThrow(/written by another store of this process/);
    const c = await openPersistent(createStateBackend(), createFileStore(path));
    expect(await c.backend.glob('**')).toEqual(['/a.txt']);
    await c.backend.close();
  });
});
