/**
 * diff3 over lines, as `git merge-file` decides: each side's changes against the base
 * (line-changes.ts); changes of one side alone are taken; changes of both sides that overlap or
 * touch (with no unchanged base line between them) form one region, taken once where both sides
 * made it alike and a conflict otherwise.
 *
 * Where lines repeat, a change has several equally short descriptions, and a change both sides
 * made "alike" may be a removal on one side and half of a move on the other: taken once, the
 * removed line comes back where the move put it (or, both sides having moved it, is there
 * twice). guardMoves finds such regions by the sides' line counts and makes each a conflict,
 * with the region that holds the move's other half.
 */
import { type LineChange, lineChanges, lineIds } from './line-changes.ts';

export type MergeRegion =
  | { ok: string[] }
  | {
      /** Ours', the base's and theirs' lines of the region, and where ours' and theirs' start. */
      conflict: { a: string[]; aIndex: number; o: string[]; b: string[]; bIndex: number };
    };

/** Base lines [start, end), ours' and theirs' lines [b0, b1) for them, and which the merge takes ('same': both changed them alike, ours'). */
interface Region {
  start: number;
  end: number;
  ours: Span;
  theirs: Span;
  kind: 'ours' | 'theirs' | 'same' | 'conflict';
}

interface Span {
  b0: number;
  b1: number;
}

export function diff3(ours: readonly string[], base: readonly string[], theirs: readonly string[]): MergeRegion[] {
  const [baseIds, oursIds, theirsIds] = lineIds(base, ours, theirs) as [Int32Array, Int32Array, Int32Array];
  const regions = guardMoves(
    regionsOf(lineChanges(baseIds, oursIds), lineChanges(baseIds, theirsIds)),
    baseIds,
    oursIds,
    theirsIds,
    countedIds(base, ours, theirs),
  );
  const out: MergeRegion[] = [];
  const keep = (lines: readonly string[], from: number, to: number) => {
    if (from >= to) return;
    const last = out[out.length - 1];
    if (last !== undefined && 'ok' in last) for (let i = from; i < to; i++) last.ok.push(lines[i]!);
    else out.push({ ok: lines.slice(from, to) });
  };
  let at = 0; // the first base line not yet written
  for (const { start, end, ours: o, theirs: t, kind } of regions) {
    keep(base, at, start);
    at = end;
    if (kind === 'theirs') keep(theirs, t.b0, t.b1);
    else if (kind !== 'conflict') keep(ours, o.b0, o.b1);
    else out.push({ conflict: { a: ours.slice(o.b0, o.b1), aIndex: o.b0, o: base.slice(start, end), b: theirs.slice(t.b0, t.b1), bIndex: t.b0 } });
  }
  keep(base, at, base.length);
  return out;
}

/** Each change with every change of either side that starts before it ends (or where it ends). */
function regionsOf(oursChanges: readonly LineChange[], theirsChanges: readonly LineChange[]): Region[] {
  const out: Region[] = [];
  const sides = [
    { changes: oursChanges, next: 0, offset: 0 },
    { changes: theirsChanges, next: 0, offset: 0 },
  ];
  for (;;) {
    const start = Math.min(...sides.map((s) => s.changes[s.next]?.a0 ?? Infinity));
    if (start === Infinity) return out;
    const firsts = sides.map((s) => s.next);
    let end = start;
    for (let grew = true; grew; ) {
      grew = false;
      for (const s of sides) {
        for (; s.next < s.changes.length && s.changes[s.next]!.a0 <= end; s.next++, grew = true) end = Math.max(end, s.changes[s.next]!.a1);
      }
    }
    // A side's lines for the region: base lines outside its changes are unchanged there, one for one.
    const [o, t] = sides.map((s): Span => {
      const b0 = start + s.offset;
      const last = s.changes[s.next - 1];
      if (last !== undefined) s.offset = last.b1 - last.a1;
      return { b0, b1: end + s.offset };
    }) as [Span, Span];
    const [oursChanged, theirsChanged] = sides.map((s, k) => s.next > firsts[k]!);
    out.push({ start, end, ours: o, theirs: t, kind: !theirsChanged ? 'ours' : !oursChanged ? 'theirs' : 'same' });
  }
}

/**
 * Regions both sides changed become 'same' (alike: taken once) or conflicts. Taking a change once
 * is right where both sides made it, but a change can look alike and not be: where ours removed
 * a line and theirs moved it (removed it here, added it elsewhere), the removals match and the
 * merge keeps theirs' copy, bringing back what ours removed (git, aligning the move the other
 * way, conflicts). So a 'same' region where one side's own changes elsewhere undo the line
 * count it changes here (its other half of a move) and the other side's do not is a conflict,
 * together with the nearest region holding that other half and everything between them.
 */
function guardMoves(regions: Region[], base: Int32Array, ours: Int32Array, theirs: Int32Array, counted: () => [Int32Array, Int32Array, Int32Array]): Region[] {
  let same = false;
  for (const r of regions) {
    if (r.kind !== 'same') continue;
    const { ours: o, theirs: t } = r;
    let alike = o.b1 - o.b0 === t.b1 - t.b0;
    for (let k = 0; alike && k < o.b1 - o.b0; k++) alike = ours[o.b0 + k] === theirs[t.b0 + k];
    r.kind = alike ? 'same' : 'conflict';
    same ||= alike;
  }
  if (!same) return regions;
  // Lines are counted as countedIds numbers them (a last line that lost its line break is still that line).
  [base, ours, theirs] = counted();
  const sides = [ours, theirs] as const;
  // How many copies of each line a side has more than the base, in all and in one region.
  const net = sides.map((ids) =>
    counts([
      [ids, 0, ids.length, 1],
      [base, 0, base.length, -1],
    ]),
  );
  const deltas = new Map<number, Map<number, number>>();
  const delta = (index: number, side: 0 | 1): Map<number, number> => {
    const key = index * 2 + side;
    let map = deltas.get(key);
    if (map === undefined) {
      const r = regions[index]!;
      const span = side === 0 ? r.ours : r.theirs;
      deltas.set(
        key,
        (map = counts([
          [sides[side], span.b0, span.b1, 1],
          [base, r.start, r.end, -1],
        ])),
      );
    }
    return map;
  };
  // Per side, lazily: line id → the regions where the side lowers its count, and those where it raises it (in order),
  // so the nearest other half of a move is a binary search, not a walk over every region.
  const byLine: (Map<number, [number[], number[]]> | undefined)[] = [undefined, undefined];
  const changing = (side: 0 | 1): Map<number, [number[], number[]]> => {
    let map = byLine[side];
    if (map !== undefined) return map;
    map = new Map();
    for (let p = 0; p < regions.length; p++) {
      for (const [id, d] of delta(p, side)) {
        if (d === 0) continue;
        let lists = map.get(id);
        if (lists === undefined) map.set(id, (lists = [[], []]));
        lists[d < 0 ? 0 : 1].push(p);
      }
    }
    return (byLine[side] = map);
  };
  const spans: [number, number][] = [];
  for (const [s, r] of regions.entries()) {
    if (r.kind !== 'same') continue;
    for (const [id, change] of delta(s, 0)) {
      if (change === 0) continue;
      // A side whose changes elsewhere undo this one moved the line (where one did and the other did
      // not, or both moved it to different places, taking this change once brings the line back or doubles it).
      const movers = ([0, 1] as const).filter((side) => Math.sign((net[side]!.get(id) ?? 0) - change) === -Math.sign(change));
      if (movers.length === 0) continue;
      // Where the mover's other half is: the nearest region changing the line's count the other way.
      const partners = movers.map((mover) => {
        const found = nearest(changing(mover).get(id)?.[change > 0 ? 0 : 1] ?? [], s);
        // (No region holds it alone: the move is spread over several, and the nearest will do.)
        return found ?? (s > 0 ? s - 1 : Math.min(s + 1, regions.length - 1));
      });
      // Both sides moved it alike (the other halves taken once too): nothing to fear.
      if (partners.length === 2 && partners[0] === partners[1] && regions[partners[0]!]!.kind === 'same') continue;
      spans.push([Math.min(s, ...partners), Math.max(s, ...partners)]);
    }
  }
  if (spans.length === 0) return regions;
  // The spans joined where they overlap, each then one conflict.
  spans.sort((x, y) => x[0] - y[0]);
  const out: Region[] = [];
  let next = 0;
  for (let k = 0; k < spans.length; ) {
    let [first, last] = spans[k++]!;
    while (k < spans.length && spans[k]![0] <= last) last = Math.max(last, spans[k++]![1]);
    out.push(...regions.slice(next, first));
    const [a, z] = [regions[first]!, regions[last]!];
    out.push({ start: a.start, end: z.end, ours: { b0: a.ours.b0, b1: z.ours.b1 }, theirs: { b0: a.theirs.b0, b1: z.theirs.b1 }, kind: 'conflict' });
    next = last + 1;
  }
  out.push(...regions.slice(next));
  return out;
}

/**
 * The lines' ids for counting copies: as lineIds numbers them, but a file's last line without a
 * line break counts as that line with one (the break of the line before it, or a line break some
 * file has after that text), so a side that only dropped or added the final line break has not
 * moved its last line. Only where the lines keep their breaks (a merge of texts' lines); lines
 * given without breaks are counted as they are. Made on first use: most merges never count.
 */
function countedIds(base: readonly string[], ours: readonly string[], theirs: readonly string[]): () => [Int32Array, Int32Array, Int32Array] {
  return () => {
    const files = [base, ours, theirs];
    const withBreaks = files.some((lines) => lines.some((line) => line.endsWith('\n')));
    const all = new Set(files.flat());
    const counted = files.map((lines) => {
      const last = lines[lines.length - 1];
      if (!withBreaks || last === undefined || last.endsWith('\n')) return lines;
      const before = lines[lines.length - 2];
      const ending = before !== undefined ? (before.endsWith('\r\n') ? '\r\n' : '\n') : all.has(`${last}\r\n`) && !all.has(`${last}\n`) ? '\r\n' : '\n';
      return [...lines.slice(0, -1), `${last}${ending}`];
    });
    return lineIds(...counted) as [Int32Array, Int32Array, Int32Array];
  };
}

/** Line id → copies in the given ranges, each counted with its sign. */
function counts(ranges: [Int32Array, number, number, number][]): Map<number, number> {
  const map = new Map<number, number>();
  for (const [ids, from, to, sign] of ranges) for (let i = from; i < to; i++) map.set(ids[i]!, (map.get(ids[i]!) ?? 0) + sign);
  return map;
}

/** The element of the ascending list nearest to s (not s itself), the lower of two as near; undefined when none. */
function nearest(list: readonly number[], s: number): number | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  const below = list[lo - 1];
  const above = list[lo] === s ? list[lo + 1] : list[lo];
  if (below === undefined) return above;
  if (above === undefined) return below;
  return s - below <= above - s ? below : above;
}
