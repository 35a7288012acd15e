// The IndexedDB store against a plain map, on seeded random saves: big ones (packs) and small ones
// (loose records, tombstones), readwrite transactions that abort at random (a save that rejects
// changed nothing), stores closed and reopened, and a follower's readKeys after some saves. At the
// end a fresh store must read exactly the map: nothing lost, stale or back from the dead.
import { IDBDatabase, IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndexedDBStore } from './indexeddb-store.ts';
import type { WorkspaceStore } from './store.ts';
import { randomBatch } from '../../test/random-batch.ts';
import { seeded } from '../../test/seeded.ts';

const realTransaction = IDBDatabase.prototype.transaction;
afterEach(() => {
  IDBDatabase.prototype.transaction = realTransaction;
});

/** Readwrite transactions abort with probability `rate()` (compaction steps and saves alike). */
function abortingSome(rate: () => number, random: () => number): void {
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const tx = realTransaction.apply(this, args);
    if (args[1] === 'readwrite' && random() < rate()) queueMicrotask(() => tx.abort());
    return tx;
  } as IDBDatabase['transaction'];
}

const version = (v: Uint8Array | undefined) => (v ? `${new DataView(v.buffer, v.byteOffset).getUint32(0)}/${v.length}` : 'none');

describe('IndexedDB store, seeded random saves against a map', () => {
  it.each(Array.from({ length: 24 }, (_, i) => i + 1))(
    'seed %i',
    async (seed) => {
      const random = seeded(seed);
      let abortRate = 0.05;
      abortingSome(() => abortRate, random);
      const factory = new IDBFactory();
      const open = (): WorkspaceStore => createIndexedDBStore({ indexedDB: factory, IDBKeyRange });
      let store = open();
      await store.readAll();
      const model = new Map<string, Uint8Array>();
      let written = 0;
      const keys = 80 + Math.floor(random() * 200);
      for (let step = 0; step < 80; step++) {
        if (random() < 0.05) {
          await store.close?.();
          store = open();
          await store.readAll();
        }
        const n = random() < 0.15 ? 64 + Math.floor(random() * 100) : 1 + Math.floor(random() * 4);
        const size = () => 16 + Math.floor(random() * 3000);
        const { puts, deletes } = randomBatch(random, { n, keys, removeRate: 0.3, size, next: () => ++written });
        try {
          await store.write({ puts: [...puts], deletes: [...deletes] }, { durability: 'strict' });
        } catch {
          continue; // aborted: the rows are as they were
        }
        for (const [k, v] of puts) model.set(k, v);
        for (const k of deletes) model.delete(k);
        if (random() < 0.3) {
          const asked = [...new Set([...puts.keys(), ...deletes])];
          const got = await open().readKeys!(asked);
          expect(
            asked.map((k) => version(got.get(k))),
            `readKeys after step ${step}`,
          ).toEqual(asked.map((k) => version(model.get(k))));
        }
      }
      abortRate = 0;
      await store.close?.();
      const all = await open().readAll();
      const expected = new Map([...model].map(([k, v]) => [k, version(v)]));
      expect(new Map([...all].map(([k, v]) => [k, version(v)]))).toEqual(expected);
    },
    20_000,
  );
});
