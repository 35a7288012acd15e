// createDurableObjectStore on a real SQLite-backed Durable Object's storage, inside workerd:
// each mutation is one transaction of what it changed, values over the 128 KiB limit are
// chunked, and the workspace survives the object being restarted.
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../../src/index.ts';
import { createDurableObjectStore, type DurableObjectStorageLike, openPersistent, readKeptAside } from '../../../src/persist/index.ts';
import { xxh32 } from '../../../src/snapshot/xxhash32.ts';

const stub = (name: string) => env.SESSIONS.get(env.SESSIONS.idFromName(name));
type Storage = DurableObjectStorageLike & { put(key: string, value: unknown): Promise<void>; delete(key: string): Promise<boolean> };
const inStorage = <R>(name: string, fn: (storage: Storage) => Promise<R>) =>
  runInDurableObject(stub(name), (_instance, state) => fn(state.storage as unknown as Storage));

describe('createDurableObjectStore (workerd, SQLite-backed storage)', () => {
  it('saves each mutation incrementally, chunks large files, and reopens after a restart', async () => {
    const big = new Uint8Array(700_000).map((_, i) => (i * 31) & 0xff);
    const keysAfter = await inStorage('store-a', async (storage) => {
      const { backend, restored } = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
      expect(restored.status).toBe('empty');
      await backend.writeFile('/big.bin', big);
      await backend.writeFile('/src/a.ts', 'export const a = 1;\n');
      await backend.edit('/src/a.ts', '1', '2');
      await backend.mkdir('/empty');
      return [...(await storage.list({ prefix: 'agentvfs:' })).keys()];
    });
    // One head and six 120 KiB chunks for the big file; the others fit one value each.
    expect(keysAfter.filter((k) => k.startsWith('agentvfs:c:f:/big.bin:'))).toHaveLength(6);
    expect(keysAfter.filter((k) => k.startsWith('agentvfs:v:')).sort()).toEqual([
      'agentvfs:v:d:/empty',
      'agentvfs:v:d:/src',
      'agentvfs:v:f:/big.bin',
      'agentvfs:v:f:/src/a.ts',
      'agentvfs:v:meta',
    ]);

    await abortAllDurableObjects();
    const reopened = await inStorage('store-a', async (storage) => {
      const { backend, restored } = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
      const out = {
        status: restored.status,
        a: await backend.readText('/src/a.ts'),
        big: await backend.readFile('/big.bin'),
        empty: (await backend.stat('/empty')).isDir,
      };
      // Replacing the big file with a small one removes its chunks in the same transaction.
      await backend.writeFile('/big.bin', 'small now');
      return { ...out, chunksLeft: [...(await storage.list({ prefix: 'agentvfs:c:' })).keys()].length };
    });
    expect(reopened).toMatchObject({ status: 'restored', a: 'export const a = 2;\n', empty: true, chunksLeft: 0 });
    expect(reopened.big).toEqual(big);
  });

  it('a file over the 2 MB value limit of SQLite-backed storage saves too: its chunks are stored as copies, not views of it', async () => {
    const big = new Uint8Array(3_000_000).map((_, i) => (i * 7) & 0xff);
    await inStorage('store-b', async (storage) => {
      const { backend } = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
      await backend.writeFile('/big.bin', big);
      await backend.writeFile('/after.txt', 'saved after it');
    });
    await abortAllDurableObjects();
    const back = await inStorage('store-b', async (storage) => {
      const { backend } = await openPersistent(createStateBackend(), createDurableObjectStore(storage));
      return { big: await backend.readFile('/big.bin'), after: await backend.readText('/after.txt') };
    });
    expect(back.after).toBe('saved after it');
    expect(back.big).toEqual(big);
  });

  it('leaves what was kept aside out of what it reads on every wake; readKeptAside reads it', async () => {
    const big = new Uint8Array(300_000).map((_, i) => i & 0xff);
    await inStorage('store-c', async (storage) => {
      const { backend } = await openPersistent(createStateBackend({ files: { '/keep.txt': 'keep\n' } }), createDurableObjectStore(storage), {
        durability: 'immediate',
      });
      await backend.writeFile('/big.bin', big); // a record in parts, so the aside is in parts too
      await storage.delete('agentvfs:v:meta'); // not an agentvfs workspace any more: kept aside on the next open
    });
    await abortAllDurableObjects();
    const seen = await inStorage('store-c', async (storage) => {
      const { restored } = await openPersistent(createStateBackend(), createDurableObjectStore(storage));
      const asideKeys = [...(await storage.list({ prefix: 'agentvfs:' })).keys()].filter((k) => k.includes(':aside:'));
      const store = createDurableObjectStore(storage);
      return { restored: restored.status, asideKeys, all: [...(await store.readAll()).keys()], kept: await readKeptAside(store) };
    });
    expect(seen.restored).toBe('corrupt');
    expect(seen.asideKeys.filter((k) => k.startsWith('agentvfs:c:aside:')).length).toBeGreaterThan(1);
    expect(seen.all).toEqual(['meta']); // the empty workspace opened beside it, not the aside
    expect(seen.kept).toHaveLength(1);
    expect(seen.kept[0]!.reason).toMatch(/no "meta" record/);
    const salvaged = createStateBackend();
    await salvaged.restore(seen.kept[0]!.salvaged!);
    expect(await salvaged.readText('/keep.txt')).toBe('keep\n');
    expect(await salvaged.readFile('/big.bin')).toEqual(big);
  });

  it('refuses to save a path whose hashed storage key another path holds, and changes nothing', async () => {
    const long = `/${'d/'.repeat(1000)}file.txt`; // over the 2 KiB key limit: stored under a hash
    const bytes = new TextEncoder().encode(`f:${long}`);
    const name = `#${[0, 1, 2].map((seed) => xxh32(bytes, seed).toString(16).padStart(8, '0')).join('')}`;
    const outcome = await inStorage('store-d', async (storage) => {
      const { backend } = await openPersistent(createStateBackend(), createDurableObjectStore(storage), { durability: 'immediate' });
      await backend.writeFile('/short.txt', 'x');
      await storage.put(`agentvfs:v:${name}`, { key: 'f:/another/path', value: new Uint8Array([1]) });
      const error = await backend.writeFile(long, 'y').then(
        () => null,
        (e: Error) => e.message,
      );
      return { error, head: await storage.get(`agentvfs:v:${name}`) };
    });
    expect(outcome.error).toMatch(/two paths hash to the same storage key #[0-9a-f]{24}.*nothing was saved/);
    expect(outcome.head).toEqual({ key: 'f:/another/path', value: new Uint8Array([1]) });
  });
});
