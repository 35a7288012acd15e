// The packed layout's bookkeeping on seeded random saves and compaction steps, applied to a plain
// map of rows as IndexedDB would: after every step, each pack's live bytes, the count of loose
// values waiting for a pack and which packs hold each key equal what a scan of the whole layout
// finds (compaction and dropping a pack rely on them), and the rows, read afresh, hold exactly
// what was saved. Saves made while the layout is unknown (the store writes them loose, with
// tombstones) are mixed in, so every kind of compaction step runs.
import { describe, expect, it } from 'vitest';
import { encodeBatch } from './batch-codec.ts';
import { BAD_PACK_PREFIX, PackedLayout, type Ops, type RowKey } from './indexeddb-layout.ts';
import { randomBatch } from '../../test/random-batch.ts';
import { seeded } from '../../test/seeded.ts';

interface Internals {
  loose: Map<string, number>;
  packs: Map<number, { sizes: Map<string, number>; bytes: number; live: number }>;
  holders: Map<string, number[]>;
  waiting: number;
  suspects: Set<number>;
  mayHaveOrphans: boolean;
}

/** Everything the layout knows, copied (to compare before and after a plan that was taken back). */
function whole(layout: PackedLayout) {
  const { loose, packs, holders, waiting, suspects, mayHaveOrphans } = layout as unknown as Internals;
  return {
    loose: new Map([...loose].sort(([a], [b]) => (a < b ? -1 : 1))),
    packs: new Map([...packs].sort(([a], [b]) => a - b).map(([n, p]) => [n, { keys: [...p.sizes], bytes: p.bytes, live: p.live }])),
    holders: new Map([...holders].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, ns]) => [k, [...ns]])),
    waiting,
    suspects: [...suspects].sort((a, b) => a - b),
    mayHaveOrphans,
  };
}

function apply(rows: Map<RowKey, Uint8Array>, ops: Ops): void {
  for (const key of ops.deletes) rows.delete(key);
  for (const [key, value] of ops.puts) rows.set(key, value);
}

interface Bookkeeping {
  live: Map<number, number>;
  waiting: number;
  holders: Map<string, number[]>;
}

/** The bookkeeping, recomputed from scratch. */
function scanned(layout: PackedLayout): Bookkeeping {
  const { loose, packs } = layout as unknown as Internals;
  const holders = new Map<string, number[]>();
  for (const n of [...packs.keys()].sort((a, b) => a - b)) for (const key of packs.get(n)!.sizes.keys()) holders.set(key, [...(holders.get(key) ?? []), n]);
  const live = new Map<number, number>();
  for (const [n, pack] of packs) {
    let bytes = 0;
    for (const [key, size] of pack.sizes) if (!loose.has(key) && holders.get(key)?.at(-1) === n) bytes += size;
    live.set(n, bytes);
  }
  const waiting = [...loose.values()].filter((size) => size > 0 && size <= 1 << 18).length;
  return { live, waiting, holders: sorted(holders) };
}

function kept(layout: PackedLayout): Bookkeeping {
  const { packs, waiting, holders } = layout as unknown as Internals;
  return { live: new Map([...packs].map(([n, pack]) => [n, pack.live])), waiting, holders: sorted(holders) };
}

const sorted = (holders: Map<string, number[]>) => new Map([...holders].sort(([a], [b]) => (a < b ? -1 : 1)));

/** Compaction steps run over all seeds, by kind, and plans and steps taken back (their commit failed). */
const steps = { orphans: 0, loose: 0, rewrite: 0, failedSaves: 0, failedSteps: 0 };

const tag = (v: Uint8Array | undefined) => (v ? `${new DataView(v.buffer, v.byteOffset).getUint32(0)}/${v.length}` : 'none');

describe('PackedLayout bookkeeping, seeded random saves', () => {
  it.each(Array.from({ length: 16 }, (_, i) => i + 1))('seed %i', (seed) => {
    const random = seeded(seed);
    const rows = new Map<RowKey, Uint8Array>();
    const model = new Map<string, Uint8Array>();
    let layout = new PackedLayout();
    layout.load([]);
    let written = 0;
    const keys = 300 + Math.floor(random() * 300); // enough for LOOSE_LIMIT loose records
    for (let step = 0; step < 400; step++) {
      const n = random() < 0.02 ? 64 + Math.floor(random() * 300) : 1 + Math.floor(random() * 4);
      // Now and then a value too big for a pack, which stays loose.
      const size = () => (random() < 0.02 ? 300_000 : 16 + Math.floor(random() * 12_000));
      const { puts, deletes } = randomBatch(random, { n, keys, removeRate: 0.25, size, next: () => ++written });
      const batch = { puts: [...puts], deletes: [...deletes] };
      if (random() < 0.08) {
        // Its commit fails: the rows stay as they were, and so must the layout.
        const before = whole(layout);
        layout.begin();
        layout.plan(batch);
        layout.settle(false);
        steps.failedSaves++;
        expect(whole(layout), `after save ${step} was taken back`).toEqual(before);
        continue;
      }
      if (random() < 0.04) {
        // Saved while the layout is unknown (before a first read, or once another writer took a pack's number):
        // loose records and tombstones, then reopened.
        for (const [k, v] of puts) rows.set(k, v);
        for (const k of deletes) rows.set(k, new Uint8Array(0));
        layout = new PackedLayout();
        layout.load([...rows]);
      } else {
        layout.begin();
        apply(rows, layout.plan(batch));
        layout.settle(true);
      }
      for (const [k, v] of puts) model.set(k, v);
      for (const k of deletes) model.delete(k);
      expect(kept(layout), `after save ${step}`).toEqual(scanned(layout));
      // Some steps now, the rest later (a save may come first); a step begun is always finished.
      while (random() < 0.8) {
        const before = whole(layout);
        layout.begin();
        const s = layout.compaction();
        const values = new Map(s?.reads.map((k) => [k, rows.get(k)!]));
        if (s && random() < 0.1) {
          s.finish(values);
          layout.settle(false); // its transaction failed
          steps.failedSteps++;
          expect(whole(layout), `after a compaction step at ${step} was taken back`).toEqual(before);
          continue;
        }
        layout.settle(true);
        if (!s) break;
        steps[s.reads.length === 0 ? 'orphans' : typeof s.reads[0] === 'string' ? 'loose' : 'rewrite']++;
        apply(rows, s.finish(values));
        expect(kept(layout), `after a compaction step at ${step}`).toEqual(scanned(layout));
      }
    }
    const read = new PackedLayout().load([...rows]);
    expect(new Map([...read].map(([k, v]) => [k, tag(v)]))).toEqual(new Map([...model].map(([k, v]) => [k, tag(v)])));
  });

  it('ran every kind of compaction step', () => {
    expect(
      Object.values(steps).every((n) => n > 0),
      JSON.stringify(steps),
    ).toBe(true);
  });
});

describe('PackedLayout, a batch that puts a key twice', () => {
  it('packs it once, with its last value, so the pack opens again', () => {
    const puts: Array<[string, Uint8Array]> = Array.from({ length: 70 }, (_, i) => [`f:/k${i}`, new Uint8Array([i])]);
    puts.push(['f:/k1', new Uint8Array([99])]);
    const rows = new Map<RowKey, Uint8Array>();
    apply(rows, new PackedLayout().plan({ puts, deletes: [] }));
    const loaded = new PackedLayout().load([...rows]);
    expect(loaded.size).toBe(70);
    expect([...loaded.get('f:/k1')!]).toEqual([99]);
  });
});

describe('PackedLayout, a pack that holds a key twice', () => {
  it('reports the pack as one that does not decode: packs are written with each key once, so a flipped bit made the second', () => {
    const pack = encodeBatch({
      puts: [
        ['f:/a', new Uint8Array(10)],
        ['f:/b', new Uint8Array(5)],
        ['f:/a', new Uint8Array(20)],
      ],
      deletes: [],
    });
    const layout = new PackedLayout();
    expect([...layout.load([[0, pack]])]).toEqual([[`${BAD_PACK_PREFIX}0`, pack]]);
  });
});
