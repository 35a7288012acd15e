/**
 * node-diff3's merge regions, for a large file split first at anchors: node-diff3's longest common
 * subsequence takes time that grows faster than the file (4 s for 10,000 lines, minutes for 20,000
 * with many repeated lines), and a merge must not stall a worker that long. Lines that occur once
 * in each of the three files, in the same order in all three, neither side changed (patience
 * diff's anchors): the files split there, a stretch one side left alone takes the other's, and
 * only stretches both sides changed go to node-diff3, each small.
 */
import { diff3Merge } from 'node-diff3';

export type MergeRegion = ReturnType<typeof diff3Merge<string>>[number];

/** Lines of the base from which a file is split at anchors (below, node-diff3 takes it whole in well under a second). */
const ANCHORED_FROM = 2000;

export function mergeRegions(ours: string[], base: string[], theirs: string[]): MergeRegion[] {
  if (base.length < ANCHORED_FROM) return diff3Merge(ours, base, theirs, { excludeFalseConflicts: true });
  const regions: MergeRegion[] = [];
  const ok = (lines: string[]) => {
    if (lines.length === 0) return;
    const last = regions[regions.length - 1];
    if (last?.ok) last.ok.push(...lines);
    else regions.push({ ok: [...lines] });
  };
  let [o0, b0, t0] = [0, 0, 0];
  const stretch = (o1: number, b1: number, t1: number) => {
    const [o, b, t] = [ours.slice(o0, o1), base.slice(b0, b1), theirs.slice(t0, t1)];
    if (same(o, b)) ok(t);
    else if (same(t, b) || same(o, t)) ok(o);
    else {
      for (const region of diff3Merge(o, b, t, { excludeFalseConflicts: true })) {
        if (region.ok) ok(region.ok);
        else {
          const c = region.conflict!;
          regions.push({ conflict: { ...c, aIndex: c.aIndex + o0, oIndex: c.oIndex + b0, bIndex: c.bIndex + t0 } });
        }
      }
    }
  };
  for (const [o, b, t] of anchors(ours, base, theirs)) {
    stretch(o, b, t);
    ok([base[b]!]);
    [o0, b0, t0] = [o + 1, b + 1, t + 1];
  }
  stretch(ours.length, base.length, theirs.length);
  return regions;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** [ours, base, theirs] positions of the lines found once in each file, increasing in all three. */
function anchors(ours: readonly string[], base: readonly string[], theirs: readonly string[]): Array<[number, number, number]> {
  const once = (lines: readonly string[]) => {
    const at = new Map<string, number>();
    for (let i = 0; i < lines.length; i++) at.set(lines[i]!, at.has(lines[i]!) ? -1 : i);
    return at;
  };
  const [inOurs, inBase, inTheirs] = [once(ours), once(base), once(theirs)];
  const found: Array<[number, number, number]> = [];
  for (const [line, b] of inBase) {
    const o = inOurs.get(line) ?? -1;
    const t = inTheirs.get(line) ?? -1;
    if (b >= 0 && o >= 0 && t >= 0) found.push([o, b, t]);
  }
  found.sort((x, y) => x[1] - y[1]);
  return increasing(increasing(found, 0), 2);
}

/** The longest run of `items` (in their order) whose element `key` increases (patience sorting). */
function increasing(items: Array<[number, number, number]>, key: 0 | 2): Array<[number, number, number]> {
  const tails: number[] = []; // index in items of the smallest tail of a run of each length
  const previous = new Int32Array(items.length).fill(-1);
  for (let i = 0; i < items.length; i++) {
    const value = items[i]![key];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (items[tails[mid]!]![key] < value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const run: Array<[number, number, number]> = [];
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) run.push(items[i]!);
  return run.reverse();
}
