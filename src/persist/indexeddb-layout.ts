/**
 * How the IndexedDB store lays a workspace's records out, so that reopening reads a hundred
 * values for 100 MB rather than one per file (Chromium spends most of a reopen handing values to
 * the page, per value more than per byte). Keys, under the object store "workspaces":
 *   [workspace, key]  a loose record: one key's value; an empty value is a tombstone (the key
 *                     is gone, though a pack still holds it)
 *   [workspace, n]    a pack (n a number; a later pack wins): many records, encodeBatch's layout
 * A loose record overrides every pack. A save of many records (a first save, an upload, a
 * restore) writes them as packs of about PACK_BYTES; a small save writes loose records. Packs
 * are never edited, only replaced: compaction moves loose records into a new pack and rewrites
 * a pack that is mostly dead, in transactions of their own of one pack each.
 * This module plans those writes; indexeddb-store.ts runs them.
 */
import { decodeBatch, encodeBatch } from './batch-codec.ts';
import { BAD_PACK_PREFIX } from './records.ts';
import type { StoreBatch } from './store.ts';

/** Where a pack that cannot be decoded is reported, so the caller keeps it aside like any bad record. */
export { BAD_PACK_PREFIX };

/** About how many bytes one pack holds. */
export const PACK_BYTES = 1 << 20;
/** A save with at least this many records writes them as packs. */
const PACK_MIN_RECORDS = 64;
/** Larger values stay loose (one value each is already cheap to read). */
const PACK_MAX_VALUE = PACK_BYTES / 4;
/** Compaction starts once this many loose records are waiting. */
const LOOSE_LIMIT = 256;

export type RowKey = string | number;
export interface Ops {
  puts: Array<readonly [RowKey, Uint8Array]>;
  deletes: RowKey[];
}
const TOMBSTONE = new Uint8Array(0);

interface Pack {
  /** Each key the pack holds, with its value's length. */
  sizes: Map<string, number>;
  bytes: number;
  /** Bytes of the records that are still read from this pack (no loose record, no later pack), kept as keys move: an edit costs O(its keys), not O(the pack). */
  live: number;
}

/** A loose value that compaction moves into a pack. */
const isWaiting = (size: number) => size > 0 && size <= PACK_MAX_VALUE;

export class PackedLayout {
  private readonly loose = new Map<string, number>(); // key -> value length (0: tombstone)
  private readonly packs = new Map<number, Pack>();
  private readonly holders = new Map<string, number[]>(); // key -> packs holding it, ascending
  private nextPack = 0;
  private readonly suspects = new Set<number>(); // packs that lost records since compaction last looked
  private waiting = 0; // loose values that are isWaiting
  private mayHaveOrphans = false; // tombstones no pack needs: only rows written while the layout was unknown leave them
  private undo: Array<() => void> | null = null; // how to take back what the plan or step under way did

  /**
   * Starts recording what a plan or compaction step does to the layout, until `settle`: kept
   * when its rows were committed, taken back when they were not (the rows are as they were).
   * Pack numbers it took stay taken.
   */
  begin(): void {
    this.undo = [];
  }

  settle(committed: boolean): void {
    const undo = this.undo;
    this.undo = null;
    if (!committed && undo) for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
  }

  /** Learns the layout from every row, and returns what the rows hold (packs, then loose records over them). */
  load(rows: ReadonlyArray<readonly [RowKey, Uint8Array]>): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    const packs = rows.filter((row): row is readonly [number, Uint8Array] => typeof row[0] === 'number').sort(([a], [b]) => a - b);
    for (const [n, value] of packs) {
      this.nextPack = Math.max(this.nextPack, n + 1);
      let records: StoreBatch['puts'];
      try {
        records = decodeBatch(value).puts;
        // Packs are written with each key once: a key twice is a damaged one (a flipped bit in a
        // path), which the other would hide from its check.
        if (new Set(records.map(([k]) => k)).size !== records.length) throw new Error('a key twice');
      } catch {
        this.packs.set(n, { sizes: new Map(), bytes: value.length, live: 0 });
        out.set(BAD_PACK_PREFIX + n, value);
        continue;
      }
      this.addPack(n, records);
      for (const [k, v] of records) out.set(k, v);
    }
    this.mayHaveOrphans = true;
    for (const [key, value] of rows) {
      if (typeof key !== 'string') continue;
      this.setLoose(key, value.length);
      if (value.length === 0) out.delete(key);
      else out.set(key, value);
    }
    return out;
  }

  /**
   * The rows that apply `batch`, and the layout updated as if they were committed (the caller
   * drops the layout when they are not).
   */
  plan(batch: StoreBatch): Ops {
    const ops: Ops = { puts: [], deletes: [] };
    const touched = new Set<number>();
    for (const key of batch.deletes) {
      const bad = key.startsWith(BAD_PACK_PREFIX) ? Number(key.slice(BAD_PACK_PREFIX.length)) : NaN;
      if (this.packs.has(bad) && this.packs.get(bad)!.sizes.size === 0) this.dropPack(bad, ops);
      else this.remove(key, ops, touched);
    }
    // A key put twice is put once, with its last value: a pack holds each key once (load refuses one that does not).
    const puts = [...new Map(batch.puts)];
    const packable = puts.length >= PACK_MIN_RECORDS ? puts.filter(([, v]) => v.length <= PACK_MAX_VALUE && v.length > 0) : [];
    const packed = new Set(packable.map(([k]) => k));
    for (const [key, value] of puts) {
      if (packed.has(key)) continue;
      for (const n of this.holders.get(key) ?? []) touched.add(n);
      ops.puts.push([key, value]);
      this.setLoose(key, value.length);
    }
    for (const records of chunks(packable)) this.writePack(records, ops, touched);
    for (const n of touched) {
      if (!this.packs.has(n)) continue;
      if (this.liveBytes(n) === 0) this.dropPack(n, ops);
      else this.suspect(n);
    }
    return withoutDeletedTombstones(ops);
  }

  /**
   * The next compaction step, or null when none is due: loose records to move into a new pack,
   * a pack that is mostly dead to rewrite, or tombstones to drop. The caller reads `reads` in a readwrite transaction,
   * then writes what `finish` returns in the same one.
   */
  compaction(): { reads: RowKey[]; finish(values: ReadonlyMap<RowKey, Uint8Array>): Ops } | null {
    // Tombstones no pack needs (left by writes made while the layout was unknown).
    const orphans = this.mayHaveOrphans ? [...this.loose].filter(([key, size]) => size === 0 && !this.holders.has(key)).map(([key]) => key) : [];
    if (this.mayHaveOrphans) this.undo?.push(() => (this.mayHaveOrphans = true));
    this.mayHaveOrphans = false;
    if (orphans.length > 0) {
      return {
        reads: [],
        finish: () => {
          for (const key of orphans) this.deleteLoose(key);
          return { puts: [], deletes: orphans };
        },
      };
    }
    if (this.waiting >= LOOSE_LIMIT) {
      const keys: string[] = [];
      let bytes = 0;
      for (const [key, size] of this.loose) {
        if (!isWaiting(size)) continue;
        if (bytes + size > PACK_BYTES && keys.length > 0) break;
        keys.push(key);
        bytes += size;
      }
      return {
        reads: keys,
        finish: (values) => {
          const ops: Ops = { puts: [], deletes: [] };
          const touched = new Set<number>();
          const records = keys.flatMap((k): Array<[string, Uint8Array]> => {
            const value = values.get(k);
            return value && value.length > 0 ? [[k, value]] : [];
          });
          if (records.length > 0) this.writePack(records, ops, touched);
          for (const n of touched) if (this.packs.has(n) && this.liveBytes(n) === 0) this.dropPack(n, ops);
          return ops;
        },
      };
    }
    for (const n of this.suspects) {
      this.suspects.delete(n);
      this.undo?.push(() => this.suspects.add(n));
      const pack = this.packs.get(n);
      if (!pack || pack.sizes.size === 0 || this.liveBytes(n) * 2 >= pack.bytes) continue;
      return {
        reads: [n],
        finish: (values) => {
          const ops: Ops = { puts: [], deletes: [] };
          const live = decodeBatch(values.get(n)!).puts.filter(([k]) => this.isLive(n, k));
          this.dropPack(n, ops); // first, so that keys only it held lose their tombstones
          if (live.length > 0) this.writePack(live, ops, new Set());
          return ops;
        },
      };
    }
    return null;
  }

  private remove(key: string, ops: Ops, touched: Set<number>): void {
    const held = this.holders.get(key);
    if (held) {
      for (const n of held) touched.add(n);
      ops.puts.push([key, TOMBSTONE]);
      this.setLoose(key, 0);
    } else if (this.deleteLoose(key)) {
      ops.deletes.push(key);
    }
  }

  /** Puts `records` as one new pack; their loose records and tombstones go. */
  private writePack(records: ReadonlyArray<readonly [string, Uint8Array]>, ops: Ops, touched: Set<number>): void {
    const n = this.nextPack++;
    ops.puts.push([n, encodeBatch({ puts: records, deletes: [] })]);
    this.addPack(n, records);
    for (const [key] of records) {
      for (const m of this.holders.get(key)!) if (m !== n) touched.add(m);
      if (this.deleteLoose(key)) ops.deletes.push(key);
    }
  }

  private addPack(n: number, records: StoreBatch['puts']): void {
    const sizes = new Map<string, number>();
    let bytes = 0;
    let live = 0;
    for (const [k, v] of records) {
      const hidden = this.loose.has(k);
      const twice = sizes.get(k); // a key twice in one pack: the later record is the one read
      if (twice !== undefined) {
        if (!hidden) live -= twice;
      } else {
        if (!hidden) this.shiftLive(k, -1); // the pack that held it last no longer does
        const held = this.holders.get(k);
        if (held) held.push(n);
        else this.holders.set(k, [n]);
        this.undo?.push(held ? () => held.pop() : () => this.holders.delete(k));
      }
      sizes.set(k, v.length);
      bytes += v.length;
      if (!hidden) live += v.length;
    }
    this.packs.set(n, { sizes, bytes, live });
    this.undo?.push(() => this.packs.delete(n));
  }

  /** Deletes pack `n`; a tombstone for a key no other pack holds goes with it. */
  private dropPack(n: number, ops: Ops): void {
    ops.deletes.push(n);
    const dropped = this.packs.get(n)!;
    this.packs.delete(n);
    this.undo?.push(() => this.packs.set(n, dropped));
    for (const key of dropped.sizes.keys()) {
      const was = this.holders.get(key)!;
      const held = was.filter((m) => m !== n);
      this.undo?.push(() => this.holders.set(key, was));
      if (held.length > 0) {
        this.holders.set(key, held);
        if (was[was.length - 1] === n && !this.loose.has(key)) this.shiftLive(key, 1); // the pack before it is read again
        continue;
      }
      this.holders.delete(key);
      if (this.loose.get(key) === 0) {
        this.deleteLoose(key);
        ops.deletes.push(key);
      }
    }
  }

  private isLive(n: number, key: string): boolean {
    const held = this.holders.get(key);
    return !this.loose.has(key) && held !== undefined && held[held.length - 1] === n;
  }

  private liveBytes(n: number): number {
    return this.packs.get(n)!.live;
  }

  private suspect(n: number): void {
    if (this.suspects.has(n)) return;
    this.suspects.add(n);
    this.undo?.push(() => this.suspects.delete(n));
  }

  /** Every change to `loose` goes through here and deleteLoose, which keep `live` and `waiting` up to date. */
  private setLoose(key: string, size: number): void {
    const was = this.loose.get(key);
    this.undoLoose(key, was);
    if (was === undefined) this.shiftLive(key, -1);
    else if (isWaiting(was)) this.waiting--;
    this.loose.set(key, size);
    if (isWaiting(size)) this.waiting++;
  }

  private deleteLoose(key: string): boolean {
    const was = this.loose.get(key);
    if (was === undefined) return false;
    this.undoLoose(key, was);
    if (isWaiting(was)) this.waiting--;
    this.loose.delete(key);
    this.shiftLive(key, 1);
    return true;
  }

  /** The latest pack holding `key` starts (1) or stops (-1) being where it is read from. */
  private shiftLive(key: string, sign: 1 | -1): void {
    const held = this.holders.get(key);
    if (!held) return;
    const pack = this.packs.get(held[held.length - 1]!)!;
    const live = pack.live;
    this.undo?.push(() => (pack.live = live));
    pack.live += sign * pack.sizes.get(key)!;
  }

  private undoLoose(key: string, was: number | undefined): void {
    if (!this.undo) return;
    const waiting = this.waiting;
    this.undo.push(() => {
      if (was === undefined) this.loose.delete(key);
      else this.loose.set(key, was);
      this.waiting = waiting;
    });
  }
}

/** Deletes run before puts: a tombstone this batch wrote for a key it then found no pack holds must not come back. */
function withoutDeletedTombstones(ops: Ops): Ops {
  const deleted = new Set(ops.deletes);
  return { puts: ops.puts.filter(([k, v]) => v !== TOMBSTONE || !deleted.has(k)), deletes: ops.deletes };
}

function* chunks(records: ReadonlyArray<readonly [string, Uint8Array]>): Generator<Array<readonly [string, Uint8Array]>> {
  let chunk: Array<readonly [string, Uint8Array]> = [];
  let bytes = 0;
  for (const record of records) {
    if (bytes + record[1].length > PACK_BYTES && chunk.length > 0) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(record);
    bytes += record[1].length;
  }
  if (chunk.length > 0) yield chunk;
}

/** The values the rows give `keys` (a key that is gone is absent): a loose record, else the latest pack holding it. */
export function lookUp(
  keys: readonly string[],
  loose: ReadonlyMap<string, Uint8Array | undefined>,
  packs: ReadonlyArray<readonly [number, Uint8Array]>,
): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const wanted = new Set(keys.filter((k) => loose.get(k) === undefined));
  for (const [n, bytes] of [...packs].sort(([a], [b]) => b - a)) {
    if (wanted.size === 0) break;
    let puts: StoreBatch['puts'];
    try {
      puts = decodeBatch(bytes).puts;
    } catch (error) {
      throw new Error(
        `agentvfs/persist: pack ${n} of the workspace does not decode (${(error as Error).message}); nothing was read. Reopen the workspace: it is then reported and kept aside.`,
      );
    }
    for (const [k, v] of puts) if (wanted.delete(k)) out.set(k, v);
  }
  for (const k of keys) {
    const v = loose.get(k);
    if (v !== undefined && v.length > 0) out.set(k, v);
  }
  return out;
}
