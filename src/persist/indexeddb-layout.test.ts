// The packed layout's bookkeeping on seeded random saves and compaction steps, applied to a plain
// map of rows as IndexedDB would: after every step, each pack's live bytes and the count of loose
// values waiting for a pack equal what a scan of the whole layout finds (compaction and dropping
// a pack rely on them), and the rows, read afresh, hold exactly what was saved.
import { describe, expect, it } from 'vitest';
import { encodeBatch } from './batch-codec.ts';
import { PackedLayout, type Ops, type RowKey } from './indexeddb-layout.ts';
import { seeded } from '../../test/seeded.ts';

interface Internals {
  loose: Map<string, number>;
  packs: Map<number, { sizes: Map<string, number>; live: number }>;
  holders: Map<string, number[]>;
  waiting: number;
}

function apply(rows: Map<RowKey, Uint8Array>, ops: Ops): void {
  for (const key of ops.deletes) rows.delete(key);
  for (const [key, value] of ops.puts) rows.set(key, value);
}

/** The bookkeeping, recomputed from scratch. */
function scanned(layout: PackedLayout): { live: Map<number, number>; waiting: number } {
  const { loose, packs, holders } = layout as unknown as Internals;
  const live = new Map<number, number>();
  for (const [n, pack] of packs) {
    let bytes = 0;
    for (const [key, size] of pack.sizes) if (!loose.has(key) && holders.get(key)?.at(-1) === n) bytes += size;
    live.set(n, bytes);
  }
  const waiting = [...loose.values()].filter((size) => size > 0 && size <= 1 << 18).length;
  return { live, waiting };
}

function kept(layout: PackedLayout): { live: Map<number, number>; waiting: number } {
  const { packs, waiting } = layout as unknown as Internals;
  return { live: new Map([...packs].map(([n, pack]) => [n, pack.live])), waiting };
}

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
    let compacted = 0;
    for (let step = 0; step < 300; step++) {
      if (random() < 0.05) {
        layout = new PackedLayout(); // reopened: learns the layout from the rows
        layout.load([...rows]);
      }
      const n = random() < 0.15 ? 64 + Math.floor(random() * 300) : 1 + Math.floor(random() * 4);
      const puts = new Map<string, Uint8Array>();
      const deletes = new Set<string>();
      for (let i = 0; i < n; i++) {
        const key = `f:/${Math.floor(random() * keys)}`;
        if (random() < 0.25 && !puts.has(key)) deletes.add(key);
        else if (!deletes.has(key)) {
          // Now and then a value too big for a pack, which stays loose.
          const value = new Uint8Array(random() < 0.02 ? 300_000 : 16 + Math.floor(random() * 12_000));
          new DataView(value.buffer).setUint32(0, ++written);
          puts.set(key, value);
        }
      }
      apply(rows, layout.plan({ puts: [...puts], deletes: [...deletes] }));
      for (const [k, v] of puts) model.set(k, v);
      for (const k of deletes) model.delete(k);
      expect(kept(layout), `after save ${step}`).toEqual(scanned(layout));
      for (let s = layout.compaction(); s && random() < 0.9; s = layout.compaction()) {
        const reads = s.reads;
        apply(rows, s.finish(new Map(reads.map((k) => [k, rows.get(k)!]))));
        compacted++;
        expect(kept(layout), `after a compaction step at ${step}`).toEqual(scanned(layout));
      }
    }
    expect(compacted).toBeGreaterThan(0);
    const read = new PackedLayout().load([...rows]);
    expect(new Map([...read].map(([k, v]) => [k, tag(v)]))).toEqual(new Map([...model].map(([k, v]) => [k, tag(v)])));
  });
});

describe('PackedLayout, a pack that holds a key twice', () => {
  it('reads the later record and counts only its bytes as live', () => {
    const rows = new Map<RowKey, Uint8Array>([
      [
        0,
        encodeBatch({
          puts: [
            ['f:/a', new Uint8Array(10)],
            ['f:/b', new Uint8Array(5)],
            ['f:/a', new Uint8Array(20)],
          ],
          deletes: [],
        }),
      ],
    ]);
    const layout = new PackedLayout();
    expect([...layout.load([...rows])].map(([k, v]) => [k, v.length])).toEqual([
      ['f:/a', 20],
      ['f:/b', 5],
    ]);
    expect(kept(layout)).toEqual(scanned(layout));
    expect(kept(layout).live.get(0)).toBe(25);
    apply(rows, layout.plan({ puts: [['f:/a', new Uint8Array(3)]], deletes: [] }));
    expect(kept(layout)).toEqual(scanned(layout));
    expect(kept(layout).live.get(0)).toBe(5);
  });
});
