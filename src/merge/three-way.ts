/**
 * The plan of a three-way merge of two trees of one backend family (a fork and the backend it
 * was forked from), with the fork point as base. Pure: it reads the three trees and returns the
 * operations that bring "ours" (the backend merged into) to the merged state, and the conflicts.
 *
 * Versions come from one counter shared by a backend and its forks, and a path's Meta is shared
 * until it changes, so "unchanged since the fork point" is a version comparison (or, for a file
 * written again, its bytes). A rename keeps
 * the bytes' identity (contentKey), which is how a renamed file is followed to its new path; a file
 * moved and changed is found by its lines (editedRenames).
 */
import { contentKey, type Meta, type Tree } from '../backend/tree.ts';
import type { MergeConflict } from '../backend/types.ts';
import { ancestorsOf, baseName, comparePaths, isWithin } from '../paths.ts';
import { decodeText, encodeText, hasBom, isBinary } from '../text.ts';
import { mergeText } from './merge-text.ts';
import { sameBytes } from '../same-bytes.ts';

export type MergeOp =
  | { op: 'remove'; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'mkdir'; path: string }
  | { op: 'write'; path: string; bytes: Uint8Array }
  /** A directory the fork replaced with a file, emptied here by the moves and removals before it. */
  | { op: 'replace'; path: string; bytes: Uint8Array }
  /** A directory the fork removed: removed here too if the merge leaves it empty. */
  | { op: 'prune'; path: string };

export interface MergePlan {
  ops: MergeOp[];
  conflicts: MergeConflict[];
}

const unchanged = (base: Meta | undefined, side: Meta | undefined): boolean =>
  base === side || (base !== undefined && side !== undefined && base.kind === side.kind && (base.kind === 'dir' || base.version === side.version));

/**
 * Whether `side` holds at `path` what the base held: the same version, or a file written again
 * with the same bytes (every write makes a new version, a restore new ones for every file), as
 * git, which compares content, sees it.
 */
function sameAsBase(base: Tree, side: Tree, path: string): boolean {
  const bm = base.get(path);
  const sm = side.get(path);
  return unchanged(bm, sm) || (bm?.kind === 'file' && sm?.kind === 'file' && sameBytes(base.view(path), side.view(path)));
}

/** Text of bytes that can be merged line-wise, or null (binary, or not UTF-8 that decodes back to itself). */
function mergeable(bytes: Uint8Array): string | null {
  if (isBinary(bytes)) return null;
  const text = decodeText(bytes);
  return encodeText(text).length === bytes.length - (hasBom(bytes) ? 3 : 0) ? text : null;
}

/**
 * Base path → where `side` moved that file (its bytes unchanged), for files renamed since the fork
 * point. A file written again with the same bytes before its move (or restored) has a new identity:
 * once every identity is matched, it is found by its bytes among the base's files gone from `side`.
 */
function renames(base: Tree, side: Tree): Map<string, string> {
  const out = new Map<string, string>();
  const moved = [...side.entries()].filter(([path, meta]) => meta.kind === 'file' && meta.movedFrom !== undefined && base.get(path) === undefined);
  if (moved.length === 0) return out;
  const byContent = new Map<Meta, string>();
  for (const [p, m] of base.entries()) if (m.kind === 'file') byContent.set(contentKey(m), p);
  const unmatched: string[] = [];
  for (const [path, meta] of moved) {
    const from = byContent.get(meta.movedFrom!);
    if (from !== undefined && side.get(from) === undefined && !out.has(from)) out.set(from, path);
    else if (from === undefined) unmatched.push(path);
  }
  if (unmatched.length === 0) return out;
  // The base's files gone from `side` and not matched yet, by size and a hash of their bytes.
  const gone = new Map<string, string[]>();
  const keyOf = (bytes: Uint8Array) => `${bytes.length}:${fnv1a(bytes)}`;
  for (const [p, m] of base.entries()) {
    if (m.kind !== 'file' || side.get(p) !== undefined || out.has(p)) continue;
    const key = keyOf(base.view(p));
    const list = gone.get(key);
    if (list === undefined) gone.set(key, [p]);
    else list.push(p);
  }
  for (const path of unmatched) {
    const bytes = side.view(path);
    const list = gone.get(keyOf(bytes));
    const at = list?.findIndex((p) => sameBytes(base.view(p), bytes)) ?? -1;
    if (at === -1) continue;
    out.set(list![at]!, path);
    list!.splice(at, 1);
  }
  return out;
}

/**
 * Base path → where `side` moved that file and also changed it: a base file gone from `side`
 * paired with a file new on `side` that keeps at least half of its text, counted in characters of
 * whole lines (git's rename threshold): the most similar pairs first, a same name preferred on a tie. Text only.
 * Bounded, as git's rename limit is: past RENAME_WORK line visits the rest stay removals plus creations.
 */
function editedRenames(base: Tree, side: Tree, exact: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>();
  const targets = new Set(exact.values());
  const linesOf = (tree: Tree, p: string): string[] | null => {
    const text = tree.get(p)?.kind === 'file' ? mergeable(tree.view(p)) : null;
    if (text === null || text === '') return null;
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    return lines;
  };
  // Similarity as git measures it, by size (characters and line breaks): a kept blank line counts for little.
  const size = (lines: readonly string[]) => lines.reduce((n, line) => n + line.length + 1, 0);
  type Side = [path: string, lines: string[], size: number, name: string];
  const from: Side[] = [];
  for (const [p, m] of base.entries()) {
    if (m.kind !== 'file' || side.get(p) !== undefined || exact.has(p)) continue;
    const lines = linesOf(base, p);
    if (lines !== null) from.push([p, lines, size(lines), baseName(p)]);
  }
  if (from.length === 0) return out;
  const to: Side[] = [];
  for (const [p, m] of side.entries()) {
    if (m.kind !== 'file' || base.get(p) !== undefined || targets.has(p)) continue;
    const lines = linesOf(side, p);
    if (lines !== null) to.push([p, lines, size(lines), baseName(p)]);
  }
  const pairs: { q: string; p: string; score: number; sameName: boolean }[] = [];
  const counted = new Map<string, Map<string, number>>(); // q → how many times each line occurs
  let work = 0;
  /** Compares `q` with the new file `p` (of comparable size), or says the bound is reached. */
  const compare = ([q, was, wasSize, qName]: Side, [p, now, nowSize, pName]: Side): boolean => {
    const larger = Math.max(wasSize, nowSize);
    if ((work += was.length + now.length) > RENAME_WORK) return false;
    let counts = counted.get(q);
    if (counts === undefined) {
      counts = new Map();
      for (const line of was) counts.set(line, (counts.get(line) ?? 0) + 1);
      counted.set(q, counts);
    }
    const used = new Map<string, number>();
    let kept = 0;
    for (const line of now) {
      const n = used.get(line) ?? 0;
      if (n === (counts.get(line) ?? 0)) continue;
      kept += line.length + 1;
      used.set(line, n + 1);
    }
    const sameName = qName === pName;
    if (kept * 2 >= larger) pairs.push({ q, p, score: kept / larger, sameName });
    return true;
  };
  // Pairs of one name first (a file moved to another directory), as git does: few comparisons,
  // so the bound rarely cuts them; then every other pair while the bound allows.
  // Each list by size, so a file meets only the new files of comparable size (at least half and at
  // most twice its own): pairs that cannot keep half are never visited, and every pair visited
  // counts towards the bound (a fork of thousands of small files removed and larger ones created
  // would otherwise walk millions of pairs the bound does not see).
  const bySize = (a: Side, b: Side) => a[2] - b[2];
  to.sort(bySize);
  const byName = new Map<string, Side[]>();
  for (const side of to) {
    const list = byName.get(side[3]);
    if (list === undefined) byName.set(side[3], [side]);
    else list.push(side);
  }
  search: for (const sameName of [true, false]) {
    for (const q of from) {
      const list = sameName ? (byName.get(q[3]) ?? []) : to;
      // The first new file at least half as large as q (binary search), then on while no more than twice.
      let lo = 0;
      for (let hi = list.length; lo < hi; ) {
        const mid = (lo + hi) >> 1;
        if (list[mid]![2] * 2 < q[2]) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < list.length && list[i]![2] <= q[2] * 2; i++) {
        const p = list[i]!;
        if (!sameName && p[3] === q[3]) {
          if (++work > RENAME_WORK) break search;
          continue;
        }
        if (!compare(q, p)) break search;
      }
    }
  }
  pairs.sort((a, b) => b.score - a.score || Number(b.sameName) - Number(a.sameName) || comparePaths(a.q, b.q) || comparePaths(a.p, b.p));
  const taken = new Set<string>();
  for (const { q, p } of pairs) {
    if (out.has(q) || taken.has(p)) continue;
    out.set(q, p);
    taken.add(p);
  }
  return out;
}

// Line visits the search for moved-and-edited files may make (a few milliseconds' work).
const RENAME_WORK = 2_000_000;

/** Every file `side` moved since the base: followed by its bytes, or found by its lines when it was also changed. */
function moves(base: Tree, side: Tree): Map<string, string> {
  const exact = renames(base, side);
  for (const [q, p] of editedRenames(base, side, exact)) exact.set(q, p);
  return exact;
}

/** FNV-1a of `bytes` (32 bits): a key that tells files of one size apart. */
function fnv1a(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

export function planMerge(base: Tree, ours: Tree, theirs: Tree, markers: boolean, other = 'the fork'): MergePlan {
  /** `other` (the side merged in, as `detail` names it) at the start of a sentence. */
  const Other = other.charAt(0).toUpperCase() + other.slice(1);
  const ops: MergeOp[] = [];
  const conflicts: MergeConflict[] = [];
  const seen = new Set<string>(); // paths of the fork the first loop settled
  const blocked: string[] = []; // paths of the fork left out, with everything beneath them
  const gone = new Set<string>(); // files of ours the plan removes or moves away
  const oursMoved = moves(base, ours);
  const theirsMoved = moves(base, theirs);
  const conflict = (c: MergeConflict) => conflicts.push(c);
  /** Ours at `p` as the plan leaves it so far. */
  const oursAt = (p: string) => (gone.has(p) ? undefined : ours.get(p));
  /** A file of ours above `p`, which a file the fork has at `p` cannot go beneath. */
  const fileAbove = (p: string) => ancestorsOf(p).find((a) => oursAt(a)?.kind === 'file');
  /** Why the fork's file `q` cannot be put at `to` here (something of ours is in the way), or null. */
  const occupied = (q: string, to: string): MergeConflict | null => {
    const what = to === q ? `${Other}'s ${q}` : `${Other} moved ${q} to ${to}, which`;
    const there = ours.get(to);
    if (there !== undefined) return { path: to, kind: there.kind === 'dir' ? 'type' : 'add-add', detail: `${what} also exists here; kept as it is here.` };
    const above = fileAbove(to);
    return above === undefined
      ? null
      : {
          path: above,
          kind: 'type',
          detail: `${to === q ? `${Other}'s ${q} is` : `${Other} moved ${q} to ${to},`} beneath ${above}, which is a file here; kept as it is here.`,
        };
  };

  /**
   * Under 'markers', where a file the fork moved and changed (a move found by its lines) cannot land
   * at `to`: the fork's file there goes to the loop over the fork's paths, as a file the fork made
   * (written there, or with markers beside this side's file), so its changes are not lost. A move
   * of unchanged bytes has nothing to lose, and one blocked by a directory or a file above `to`
   * could not land either: both stay out. Says whether it did: then that loop reports what is in
   * the way at `to`, as it handles it.
   */
  const handOver = (q: string, to: string, inTheWay?: MergeConflict): boolean => {
    if (!markers || to === q || inTheWay?.kind === 'type' || sameBytes(base.view(q), theirs.view(to))) return false;
    // A file of this side there that is not text gets no markers: that loop would keep it alone,
    // and the fork's file (its original removed here, for a move) would be lost.
    if (ours.get(to)?.kind === 'file' && mergeable(ours.view(to)) === null) return false;
    seen.delete(to);
    return true;
  };

  /** Whether ours under `dir` holds nothing once the plan ran: its files gone, its directories from the base. */
  const emptiedHere = (dir: string): boolean =>
    ours.children(dir).every((path) => (ours.get(path)?.kind === 'file' ? gone.has(path) : base.get(path)?.kind === 'dir' && emptiedHere(path)));

  // Files of ours the fork took away (removed, or put a directory in their place) while ours left
  // them alone: gone before the loop below asks what lies above a path, whatever order it meets
  // them in. (A file the fork only moved is no ancestor of anything the fork holds.)
  for (const [q, bm] of base.entries()) {
    if (bm.kind !== 'file' || oursMoved.has(q) || theirsMoved.has(q) || !sameAsBase(base, ours, q)) continue;
    if (theirs.get(q)?.kind !== 'file') gone.add(q);
  }

  for (const [q, bm] of base.entries()) {
    if (bm.kind !== 'file') continue;
    const oursPath = oursMoved.get(q) ?? q;
    const theirsPath = theirsMoved.get(q) ?? q;
    const om = ours.get(oursPath);
    const tm = theirs.get(theirsPath);
    // A directory the fork put in the file's place is new: the second loop creates it (or leaves it out).
    if (tm?.kind !== 'dir') seen.add(q).add(theirsPath);
    // A file the fork rewrote with the base's bytes (an edit it took back) is unchanged: nothing to merge.
    const theirsChanged = theirsPath !== q || !sameAsBase(base, theirs, q);
    if (!theirsChanged) continue;
    const oursChanged = oursPath !== q || !sameAsBase(base, ours, q);
    if (!oursChanged) {
      if (tm === undefined || tm.kind === 'dir') {
        ops.push({ op: 'remove', path: q });
        gone.add(q);
      } else if (theirsPath !== q) {
        const inTheWay = occupied(q, theirsPath);
        if (inTheWay === null) {
          ops.push({ op: 'rename', from: q, to: theirsPath });
          gone.add(q);
          // A move found by its lines: the fork changed the file too.
          if (!sameBytes(ours.view(q), theirs.view(theirsPath))) ops.push({ op: 'write', path: theirsPath, bytes: theirs.view(theirsPath) });
        } else if (ours.get(theirsPath)?.kind === 'file' && sameBytes(ours.view(theirsPath), theirs.view(theirsPath))) {
          ops.push({ op: 'remove', path: q }); // what the fork moved there is there already
          gone.add(q);
        } else if (handOver(q, theirsPath, inTheWay)) {
          ops.push({ op: 'remove', path: q }); // this side left it alone, and the fork moved it away
          gone.add(q);
        } else conflict(inTheWay);
      } else if (!sameBytes(ours.view(q), theirs.view(q))) ops.push({ op: 'write', path: q, bytes: theirs.view(q) });
      continue;
    }
    if (om === undefined && tm === undefined) continue; // removed on both sides
    if (om === undefined || tm === undefined) {
      const path = om ? oursPath : theirsPath;
      const survivor = (om ?? tm)!;
      // Both sides removed the file; one put a directory in its place: that is no conflict.
      if (survivor.kind === 'dir') continue;
      conflict({
        path,
        kind: 'delete-modify',
        detail: om
          ? `${q} was removed in ${other} and ${oursPath === q ? 'changed' : `moved to ${oursPath}`} here; kept as it is here.`
          : `${q} was removed here and changed in ${other}${theirsPath !== q ? ` (moved to ${theirsPath})` : ''}; with markers ${other}'s file is kept.`,
      });
      if (markers && !om) {
        const inTheWay = occupied(q, theirsPath);
        if (inTheWay === null) ops.push({ op: 'write', path: theirsPath, bytes: theirs.view(theirsPath) });
        else if (!handOver(q, theirsPath, inTheWay)) conflict(inTheWay);
      }
      continue;
    }
    if (om.kind === 'dir' || tm.kind === 'dir') {
      if (om.kind !== tm.kind) {
        conflict({ path: q, kind: 'type', detail: `${q} is a file on one side and a directory on the other; kept as it is here.` });
        if (tm.kind === 'dir') blocked.push(q);
        else handOver(q, theirsPath);
      }
      continue;
    }
    if (oursPath !== q && theirsPath !== q && oursPath !== theirsPath) {
      conflict({ path: q, kind: 'content', detail: `${q} was moved to ${oursPath} here and to ${theirsPath} in ${other}; kept at ${oursPath}.` });
      handOver(q, theirsPath);
      continue;
    }
    const target = theirsPath !== q ? theirsPath : oursPath;
    if (target !== oursPath) {
      const inTheWay = occupied(q, target);
      if (inTheWay !== null) {
        if (!handOver(q, target, inTheWay)) conflict(inTheWay);
        continue;
      }
    }
    const oursBytes = ours.view(oursPath);
    const theirsBytes = theirs.view(theirsPath);
    const move = () => {
      if (target === oursPath) return;
      ops.push({ op: 'rename', from: oursPath, to: target });
      gone.add(oursPath);
    };
    if (sameBytes(oursBytes, theirsBytes)) {
      move();
      continue;
    }
    const [b, o, t] = [base.view(q), oursBytes, theirsBytes].map(mergeable);
    if (b == null || o == null || t == null) {
      conflict({ path: target, kind: 'binary', detail: `${q} changed on both sides and is not text that merges line by line; kept as it is here.` });
      continue;
    }
    const result = mergeText(b, o, t);
    if (result.hunks.length > 0) {
      conflict({ path: target, kind: 'content', hunks: result.hunks, detail: `${target}: ${result.hunks.length} region(s) changed on both sides.` });
      if (!markers) continue;
    }
    move();
    // The BOM merges as one more line would: the fork's added or removed one carries over.
    const bomOf = hasBom(base.view(q)) === hasBom(oursBytes) ? theirsBytes : oursBytes;
    const bytes = withBomOf(bomOf, encodeText(result.text));
    // The fork's changes are here already (this side made them too): the file keeps its version.
    if (!sameBytes(bytes, oursBytes)) ops.push({ op: 'write', path: target, bytes });
  }

  for (const [p, tm] of theirs.entries()) {
    if (p === '/' || seen.has(p) || (base.get(p)?.kind === 'dir' && tm.kind === 'dir')) continue;
    if (blocked.some((dir) => isWithin(p, dir))) continue;
    const om = oursAt(p);
    if (om === undefined) {
      const above = fileAbove(p);
      if (above !== undefined) {
        // Reported once, at the path that is a file here (unless the loop above already did).
        if (!conflicts.some((c) => c.path === above)) {
          conflict({ path: above, kind: 'type', detail: `${above} is a file here and a directory in ${other}; kept as it is here.` });
        }
        blocked.push(above);
        continue;
      }
      ops.push(tm.kind === 'dir' ? { op: 'mkdir', path: p } : { op: 'write', path: p, bytes: theirs.view(p) });
      continue;
    }
    if (om.kind !== tm.kind) {
      if (tm.kind === 'file' && base.get(p)?.kind === 'dir' && emptiedHere(p)) {
        // The fork replaced a directory with a file, and the plan takes out all this side had in it.
        ops.push({ op: 'replace', path: p, bytes: theirs.view(p) });
        continue;
      }
      conflict({
        path: p,
        kind: 'type',
        detail: `${p} is a ${om.kind === 'dir' ? 'directory' : 'file'} here and a ${tm.kind === 'dir' ? 'directory' : 'file'} in ${other}; kept as it is here.`,
      });
      blocked.push(p);
      continue;
    }
    if (tm.kind === 'dir' || om === tm) continue;
    const oursBytes = ours.view(p);
    const theirsBytes = theirs.view(p);
    if (sameBytes(oursBytes, theirsBytes)) continue;
    const o = mergeable(oursBytes);
    const t = mergeable(theirsBytes);
    if (o == null || t == null) {
      conflict({ path: p, kind: 'add-add', detail: `${p} was created on both sides with different content (not text that merges); kept as it is here.` });
      continue;
    }
    const result = mergeText('', o, t);
    conflict({ path: p, kind: 'add-add', hunks: result.hunks, detail: `${p} was created on both sides with different content.` });
    if (markers) ops.push({ op: 'write', path: p, bytes: withBomOf(oursBytes, encodeText(result.text)) });
  }

  // Directories the fork removed (deepest first), once everything else is in place.
  const pruned: string[] = [];
  for (const [p, bm] of base.entries()) {
    if (bm.kind === 'dir' && p !== '/' && theirs.get(p) === undefined && ours.get(p)?.kind === 'dir') pruned.push(p);
  }
  pruned.sort((a, b) => b.length - a.length);
  for (const path of pruned) ops.push({ op: 'prune', path });
  conflicts.sort((a, b) => comparePaths(a.path, b.path));
  return { ops: order(ops), conflicts };
}

/** Removals, then moves (out of directories that files replace next), then new directories and writes, then pruning. */
function order(ops: MergeOp[]): MergeOp[] {
  const rank = { remove: 0, rename: 1, replace: 2, mkdir: 3, write: 4, prune: 5 } as const;
  return ops
    .map((op, i) => [op, i] as const)
    .sort((a, b) => rank[a[0].op] - rank[b[0].op] || a[1] - b[1])
    .map(([op]) => op);
}

function withBomOf(model: Uint8Array, bytes: Uint8Array): Uint8Array {
  if (!hasBom(model)) return bytes;
  const out = new Uint8Array(bytes.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(bytes, 3);
  return out;
}
