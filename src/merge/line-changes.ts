/**
 * The changes between two files' lines: Myers' O((N+M)·D) algorithm in linear space (the middle
 * snake, "An O(ND) Difference Algorithm and Its Variations", 1986), for merges and unified diffs
 * of files of any size. For a merge, lines that occur in only one of the two cannot be common, so
 * they are set aside before the search (they are changes either way): real files, most of whose
 * lines are unique, leave little to search. Where a search would pass its cost bound (MIN_COST
 * differences, or the square root of the lines if more) it splits at the furthest point either
 * end reached instead of the middle: still a correct script, maybe
 * not a shortest one, so a merge of two rewrites costs milliseconds, not minutes; a longer script
 * can only make a merge conflict more, never merge what it should not.
 */

/** Lines [a0, a1) of the old sequence became lines [b0, b1) of the new one. */
export interface LineChange {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

const MIN_COST = 256;
/**
 * Steps (diagonals tried, equal lines followed) one diff may take in all: past them, what is
 * left unsearched counts as changed. A merge of files that differ everywhere in lines that all
 * repeat then ends in conflicts in a fraction of a second instead of seconds to minutes.
 */
const MAX_WORK = 10_000_000;

/** The files' lines as numbers, equal lines (in any of them) the same number. */
export function lineIds(...files: readonly (readonly string[])[]): Int32Array[] {
  const ids = new Map<string, number>();
  return files.map((lines) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      let id = ids.get(lines[i]!);
      if (id === undefined) ids.set(lines[i]!, (id = ids.size));
      out[i] = id;
    }
    return out;
  });
}

/** The changes between two files' lines. */
export function diffLines(a: readonly string[], b: readonly string[]): LineChange[] {
  // Equal ends first, compared as they are: a large file edited in one place is not numbered line by line.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  // The rest searched as it is (a merge numbers its lines to set aside the ones only one side has;
  // numbering a large file costs more than the search saves, which its step budget bounds anyway).
  const [midA, midB] = [a.slice(head, a.length - tail), b.slice(head, b.length - tail)];
  return changesOf(midA, midB, (changedA, changedB) => search(midA, midB, changedA, changedB)).map((c) => ({
    a0: c.a0 + head,
    a1: c.a1 + head,
    b0: c.b0 + head,
    b1: c.b1 + head,
  }));
}

/** The changes between two files' lines as lineIds numbers them (small numbers from 0). */
export function lineChanges(a: Int32Array, b: Int32Array): LineChange[] {
  return changesOf(a, b, (changedA, changedB) => {
    // Set aside the lines the other side does not have; search the rest.
    const keptA = kept(a, presence(b), changedA);
    const keptB = kept(b, presence(a), changedB);
    const subA = pick(a, keptA);
    const subB = pick(b, keptB);
    const subChangedA = new Uint8Array(subA.length);
    const subChangedB = new Uint8Array(subB.length);
    search(subA, subB, subChangedA, subChangedB);
    for (let i = 0; i < keptA.length; i++) changedA[keptA[i]!] = subChangedA[i]!;
    for (let j = 0; j < keptB.length; j++) changedB[keptB[j]!] = subChangedB[j]!;
  });
}

/** Lines whose equal copies are the same value: numbers, or strings compared as they are. */
type Lines = ArrayLike<unknown>;

/** The changes `mark` finds (each changed line marked 1), runs placed as git places them (compact). */
function changesOf(a: Lines, b: Lines, mark: (changedA: Uint8Array, changedB: Uint8Array) => void): LineChange[] {
  const changedA = new Uint8Array(a.length);
  const changedB = new Uint8Array(b.length);
  mark(changedA, changedB);
  compact(a, changedA, changedB);
  compact(b, changedB, changedA);
  return changes(changedA, changedB);
}

/** Indices of the lines of `ids` the other side has; the others are marked changed. */
function kept(ids: Int32Array, other: Uint8Array, changed: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (other[ids[i]!] === 1) out.push(i);
    else changed[i] = 1;
  }
  return out;
}

/** The ids at `indices`. */
function pick(ids: Int32Array, indices: readonly number[]): Int32Array {
  const out = new Int32Array(indices.length);
  for (let k = 0; k < indices.length; k++) out[k] = ids[indices[k]!]!;
  return out;
}

/** Which ids occur in `ids` (ids are small numbers, lineIds' counting from 0): 1 at each. */
function presence(ids: Int32Array): Uint8Array {
  let max = -1;
  for (const id of ids) if (id > max) max = id;
  const out = new Uint8Array(max + 1);
  for (const id of ids) out[id] = 1;
  return out;
}

/** Marks the lines of a and b outside a longest (or, past the cost bound, a long) common subsequence. */
function search(a: Lines, b: Lines, changedA: Uint8Array, changedB: Uint8Array): void {
  const size = 2 * (a.length + b.length) + 8;
  const forward = new Int32Array(2 * size);
  const backward = new Int32Array(2 * size);
  const maxCost = Math.max(MIN_COST, Math.ceil(Math.sqrt(a.length + b.length)));
  const work = { left: MAX_WORK };
  // Explicit stack: a split that is not in the middle (past maxCost) can nest deeply.
  const stack: number[] = [0, a.length, 0, b.length];
  while (stack.length > 0) {
    let bHi = stack.pop()!;
    let bLo = stack.pop()!;
    let aHi = stack.pop()!;
    let aLo = stack.pop()!;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) aLo++, bLo++;
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) aHi--, bHi--;
    if (aLo === aHi || bLo === bHi) {
      changedA.fill(1, aLo, aHi);
      changedB.fill(1, bLo, bHi);
      continue;
    }
    const split = work.left > 0 ? middle(a, aLo, aHi, b, bLo, bHi, forward, backward, size, maxCost, work) : null;
    if (split === null) {
      changedA.fill(1, aLo, aHi);
      changedB.fill(1, bLo, bHi);
      continue;
    }
    const [x0, y0, x1, y1] = split;
    stack.push(aLo, aLo + x0, bLo, bLo + y0, aLo + x1, aHi, bLo + y1, bHi);
  }
}

/**
 * The snake [x0, y0]→[x1, y1] (relative to aLo, bLo) that a shortest script passes through
 * halfway; past maxCost, a point as far from either end as the search reached. Null when
 * neither is found (cannot happen for sequences that differ at both ends; kept as a guard).
 */
function middle(
  a: Lines,
  aLo: number,
  aHi: number,
  b: Lines,
  bLo: number,
  bHi: number,
  fwd: Int32Array,
  bwd: Int32Array,
  offset: number,
  maxCost: number,
  work: { left: number },
): [number, number, number, number] | null {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  // fwd[offset + k]: the furthest x reached on diagonal k = x - y from (0, 0);
  // bwd[offset + k]: the smallest x reached on diagonal k from (n, m).
  fwd[offset + 1] = 0;
  bwd[offset + delta - 1] = n;
  const limit = Math.ceil((n + m) / 2);
  for (let d = 0; d <= limit; d++) {
    work.left -= 2 * d + 2;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && fwd[offset + k - 1]! < fwd[offset + k + 1]!) ? fwd[offset + k + 1]! : fwd[offset + k - 1]! + 1;
      let y = x - k;
      const x0 = x;
      const y0 = y;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) x++, y++;
      work.left -= x - x0;
      fwd[offset + k] = x;
      if (odd && k >= delta - (d - 1) && k <= delta + (d - 1) && x >= bwd[offset + k]!) return [x0, y0, x, y];
    }
    for (let k = delta + d; k >= delta - d; k -= 2) {
      let x = k === delta + d || (k !== delta - d && bwd[offset + k - 1]! < bwd[offset + k + 1]! - 1) ? bwd[offset + k - 1]! : bwd[offset + k + 1]! - 1;
      let y = x - k;
      const x1 = x;
      const y1 = y;
      while (x > 0 && y > 0 && a[aLo + x - 1] === b[bLo + y - 1]) x--, y--;
      work.left -= x1 - x;
      bwd[offset + k] = x;
      if (!odd && k >= -d && k <= d && x <= fwd[offset + k]!) return [x, y, x1, y1];
    }
    if (d >= maxCost || work.left <= 0) return furthest(fwd, bwd, offset, d, n, m, delta);
  }
  return null;
}

/** The point on the d-th forward or backward front furthest from where it started (a split, not a snake). */
function furthest(fwd: Int32Array, bwd: Int32Array, offset: number, d: number, n: number, m: number, delta: number): [number, number, number, number] | null {
  let best = 0;
  let bx = -1;
  let by = -1;
  for (let k = -d; k <= d; k += 2) {
    const x = Math.min(fwd[offset + k]!, n);
    const y = x - k;
    if (y < 0 || y > m || x + y <= best || x + y >= n + m) continue;
    best = x + y;
    bx = x;
    by = y;
  }
  for (let k = delta - d; k <= delta + d; k += 2) {
    const x = Math.max(bwd[offset + k]!, 0);
    const y = x - k;
    if (y < 0 || y > m || n + m - (x + y) <= best || x + y <= 0) continue;
    best = n + m - (x + y);
    bx = x;
    by = y;
  }
  return bx < 0 ? null : [bx, by, bx, by];
}

/**
 * Steps (lines a run of changes moves, lines of the other file passed) one file's compaction may
 * take in all; past them the runs left are kept where they are (a correct script still).
 */
const MAX_SLIDE = 10_000_000;

/**
 * Each run of added or removed lines placed where git's diff places it. A run moves past a line
 * equal to its last (up) or its first (down) without changing the script's length: it is moved up
 * as far as it goes, then down as far as it goes, joining any run it meets on the way (and then
 * again, until it no longer grows). Where, at one of those places, the other file has changed
 * lines facing it, it is put back at the last such place, so the two make one change instead of
 * a removal beside an addition; else it stays at the last place. Where a line repeats (a `}`, a
 * blank line), both sides of a merge then name the same copy, as git does. (As `git merge-file`
 * places runs, seen from its output; `git diff` also weighs indentation, which this does not.)
 */
function compact(ids: Lines, changed: Uint8Array, otherChanged: Uint8Array): void {
  const n = ids.length;
  const m = otherChanged.length;
  let budget = MAX_SLIDE;
  // `j`: the other file's line after the last unchanged line it has before line `i` here (walked in step).
  let i = 0;
  let j = 0;
  while (i < n) {
    if (changed[i] === 0) {
      while (j < m && otherChanged[j] === 1) j++;
      i++;
      j++;
      continue;
    }
    let s = i;
    let e = i;
    while (e < n && changed[e] === 1) e++;
    // The other file's changed lines [os, oe) facing the run: between the same two unchanged lines.
    let os = j;
    let oe = j;
    while (oe < m && otherChanged[oe] === 1) oe++;
    let alignedEnd = -1;
    for (;;) {
      const size = e - s;
      // Up: the line before the run joins it, its last line leaves it.
      while (s > 0 && budget > 0 && changed[s - 1] === 0 && ids[s - 1] === ids[e - 1]) {
        changed[--s] = 1;
        changed[--e] = 0;
        // One unchanged line less before the run: the other file's facing lines are the ones before.
        oe = os - 1;
        os = oe;
        while (os > 0 && otherChanged[os - 1] === 1) os--;
        budget -= oe - os + 1;
        // Met the run above: one run now (between the same unchanged lines, so facing the same lines).
        while (s > 0 && changed[s - 1] === 1) s--;
      }
      alignedEnd = oe > os ? e : -1;
      // Down: the run's first line leaves it, the line after it joins.
      while (e < n && budget > 0 && changed[e] === 0 && ids[s] === ids[e]) {
        changed[s++] = 0;
        changed[e++] = 1;
        os = oe + 1;
        oe = os;
        while (oe < m && otherChanged[oe] === 1) oe++;
        budget -= oe - os + 1;
        while (e < n && changed[e] === 1) e++;
        if (oe > os) alignedEnd = e;
      }
      if (e - s === size) break;
      // Out of steps: left where it is (the way back below retraces only a pass that joined nothing).
      if (budget <= 0) {
        alignedEnd = -1;
        break;
      }
    }
    // Back up to the last place facing the other file's changes, if there was one.
    while (alignedEnd !== -1 && e > alignedEnd) {
      changed[--s] = 1;
      changed[--e] = 0;
      oe = os - 1;
      os = oe;
      while (os > 0 && otherChanged[os - 1] === 1) os--;
    }
    i = e;
    j = os;
  }
}

function changes(changedA: Uint8Array, changedB: Uint8Array): LineChange[] {
  const out: LineChange[] = [];
  let i = 0;
  let j = 0;
  while (i < changedA.length || j < changedB.length) {
    if ((i < changedA.length && changedA[i] === 1) || (j < changedB.length && changedB[j] === 1)) {
      const a0 = i;
      const b0 = j;
      while (i < changedA.length && changedA[i] === 1) i++;
      while (j < changedB.length && changedB[j] === 1) j++;
      out.push({ a0, a1: i, b0, b1: j });
    } else {
      i++;
      j++;
    }
  }
  return out;
}
