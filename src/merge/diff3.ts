/**
 * diff3 over lines, as `git merge-file` decides: each side's changes against the base
 * (line-changes.ts); changes of one side alone are taken; changes of both sides that overlap or
 * touch (with no unchanged base line between them) form one region, taken once where both sides
 * made it alike and a conflict otherwise.
 */
import { type LineChange, lineChanges, lineIds } from './line-changes.ts';

export type MergeRegion =
  | { ok: string[] }
  | {
      /** Ours', the base's and theirs' lines of the region, and where ours' and theirs' start. */
      conflict: { a: string[]; aIndex: number; o: string[]; b: string[]; bIndex: number };
    };

export function diff3(ours: readonly string[], base: readonly string[], theirs: readonly string[]): MergeRegion[] {
  const [baseIds, oursIds, theirsIds] = lineIds(base, ours, theirs) as [Int32Array, Int32Array, Int32Array];
  const oursChanges = lineChanges(baseIds, oursIds);
  const theirsChanges = lineChanges(baseIds, theirsIds);

  const regions: MergeRegion[] = [];
  const keep = (lines: readonly string[], from: number, to: number) => {
    if (from >= to) return;
    const last = regions[regions.length - 1];
    if (last !== undefined && 'ok' in last) for (let i = from; i < to; i++) last.ok.push(lines[i]!);
    else regions.push({ ok: lines.slice(from, to) });
  };
  let at = 0; // the first base line not yet written
  let i = 0;
  let j = 0;
  while (i < oursChanges.length || j < theirsChanges.length) {
    const next = (i < oursChanges.length ? oursChanges[i]!.a0 : Infinity) <= (j < theirsChanges.length ? theirsChanges[j]!.a0 : Infinity);
    // The region: this change, and every change of either side that starts before it ends (or where it ends).
    const first = next ? oursChanges[i]! : theirsChanges[j]!;
    let end = first.a1;
    const fromOurs = i;
    const fromTheirs = j;
    for (;;) {
      if (i < oursChanges.length && oursChanges[i]!.a0 <= end) {
        end = Math.max(end, oursChanges[i]!.a1);
        i++;
      } else if (j < theirsChanges.length && theirsChanges[j]!.a0 <= end) {
        end = Math.max(end, theirsChanges[j]!.a1);
        j++;
      } else break;
    }
    const start = first.a0;
    keep(base, at, start);
    at = end;
    const oursSpan = span(oursChanges, fromOurs, i, start, end);
    const theirsSpan = span(theirsChanges, fromTheirs, j, start, end);
    if (oursSpan === null) keep(theirs, theirsSpan!.b0, theirsSpan!.b1);
    else if (theirsSpan === null) keep(ours, oursSpan.b0, oursSpan.b1);
    else if (sameLines(ours, oursSpan, theirs, theirsSpan)) keep(ours, oursSpan.b0, oursSpan.b1);
    else {
      regions.push({
        conflict: {
          a: ours.slice(oursSpan.b0, oursSpan.b1),
          aIndex: oursSpan.b0,
          o: base.slice(start, end),
          b: theirs.slice(theirsSpan.b0, theirsSpan.b1),
          bIndex: theirsSpan.b0,
        },
      });
    }
  }
  keep(base, at, base.length);
  return regions;
}

/** A side's lines standing for base lines [start, end), from its changes [from, to) in that range; null when it has none there. */
function span(changes: readonly LineChange[], from: number, to: number, start: number, end: number): LineChange | null {
  if (from === to) return null;
  const first = changes[from]!;
  const last = changes[to - 1]!;
  // Base lines of the range outside the side's changes are unchanged on that side: one for one.
  return { a0: start, a1: end, b0: first.b0 - (first.a0 - start), b1: last.b1 + (end - last.a1) };
}

function sameLines(x: readonly string[], xs: LineChange, y: readonly string[], ys: LineChange): boolean {
  if (xs.b1 - xs.b0 !== ys.b1 - ys.b0) return false;
  for (let k = 0; k < xs.b1 - xs.b0; k++) if (x[xs.b0 + k] !== y[ys.b0 + k]) return false;
  return true;
}
