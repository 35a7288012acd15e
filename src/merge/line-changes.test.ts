import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, type LineChange, lineChanges } from './line-changes.ts';

/** b rebuilt from a and the changes; throws where the changes are not a well-formed script. */
function applyChanges(a: Int32Array, b: Int32Array, changes: LineChange[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  for (const [index, c] of changes.entries()) {
    expect(c.a0 - i, 'unchanged lines between changes are as many on both sides').toBe(c.b0 - j);
    if (index > 0) expect(c.a0, 'changes are apart: an unchanged line between two').toBeGreaterThan(i);
    expect(c.a1 - c.a0 + c.b1 - c.b0).toBeGreaterThan(0);
    for (; i < c.a0; i++, j++) {
      if (a[i] !== b[j]) throw new Error(`line ${i} is left unchanged but differs from line ${j}`);
      out.push(a[i]!);
    }
    for (let k = c.b0; k < c.b1; k++) out.push(b[k]!);
    i = c.a1;
    j = c.b1;
  }
  expect(a.length - i).toBe(b.length - j);
  for (; i < a.length; i++) out.push(a[i]!);
  return out;
}

function lcsLength(a: Int32Array, b: Int32Array): number {
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const next = new Int32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) next[j] = a[i - 1] === b[j - 1] ? row[j - 1]! + 1 : Math.max(row[j]!, next[j - 1]!);
    row = next;
  }
  return row[b.length]!;
}

/** Two sequences of `length` random 0s and 1s, the same for the same seed. */
function randomBits(length: number, seed: number): [Int32Array, Int32Array] {
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16;
  return [Int32Array.from({ length }, () => next() & 1), Int32Array.from({ length }, () => next() & 1)];
}

const changedLines = (changes: LineChange[]) => changes.reduce((sum, c) => sum + (c.a1 - c.a0) + (c.b1 - c.b0), 0);
// Few distinct lines, so that lines repeat and many shortest scripts exist; 5 and 6 occur on one side only.
const seq = (extra: number) => fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(extra)), { maxLength: 40 }).map((xs) => Int32Array.from(xs));

describe('lineChanges', () => {
  it('gives a script that turns a into b and changes no more lines than a shortest one', () => {
    fc.assert(
      fc.property(seq(5), seq(6), (a, b) => {
        const changes = lineChanges(a, b);
        expect(applyChanges(a, b, changes)).toEqual([...b]);
        expect(changedLines(changes)).toBe(a.length + b.length - 2 * lcsLength(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('diffLines, on lines as strings, gives a shortest script too', () => {
    fc.assert(
      fc.property(seq(5), seq(6), (a, b) => {
        const [x, y] = [Array.from(a, (id) => `line ${id}\n`), Array.from(b, (id) => `line ${id}\n`)];
        const changes = diffLines(x, y);
        expect(applyChanges(a, b, changes)).toEqual([...b]);
        expect(changedLines(changes)).toBe(a.length + b.length - 2 * lcsLength(a, b));
      }),
      { numRuns: 1000 },
    );
  });

  it('past its search bound still gives a correct script, near a shortest one', () => {
    // Random lines of two kinds: about 1,500 differences, far past the 256 the search goes before it splits where it got to.
    const [a, b] = randomBits(4000, 1);
    const changes = lineChanges(a, b);
    expect(applyChanges(a, b, changes)).toEqual([...b]);
    const shortest = a.length + b.length - 2 * lcsLength(a, b);
    expect(shortest).toBeGreaterThan(1000);
    expect(changedLines(changes)).toBeGreaterThanOrEqual(shortest);
    expect(changedLines(changes)).toBeLessThan(shortest * 1.25);
  });

  it('past its budget of steps counts what it did not search as changed: still a correct script', () => {
    // 200,000 random lines of two kinds on each side: a search would take billions of steps.
    const [a, b] = randomBits(200_000, 2);
    const changes = lineChanges(a, b);
    const rebuilt = applyChanges(a, b, changes);
    expect(rebuilt.length).toBe(b.length);
    expect(rebuilt.every((id, i) => id === b[i])).toBe(true);
  });

  it('names the last of equal lines removed or added, whichever the search reached', () => {
    // x } } } y: one } removed, one } added; the change is always the last } of the run.
    expect(lineChanges(Int32Array.of(7, 1, 1, 1, 8), Int32Array.of(7, 1, 1, 8))).toEqual([{ a0: 3, a1: 4, b0: 3, b1: 3 }]);
    expect(lineChanges(Int32Array.of(7, 1, 1, 8), Int32Array.of(7, 1, 1, 1, 8))).toEqual([{ a0: 3, a1: 3, b0: 3, b1: 4 }]);
    // Where the search itself names an earlier copy: 1 2 1 1 from 2 1 adds the last 1, not the middle one.
    expect(lineChanges(Int32Array.of(2, 1), Int32Array.of(1, 2, 1, 1))).toEqual([
      { a0: 0, a1: 0, b0: 0, b1: 1 },
      { a0: 2, a1: 2, b0: 3, b1: 4 },
    ]);
    expect(lineChanges(Int32Array.of(1, 2, 1, 1), Int32Array.of(2, 1))).toEqual([
      { a0: 0, a1: 1, b0: 0, b1: 0 },
      { a0: 3, a1: 4, b0: 2, b1: 2 },
    ]);
    // A run of two lines that repeats: the removal slides down by whole lines while the next line repeats its first.
    expect(lineChanges(Int32Array.of(1, 2, 1, 2, 1, 9), Int32Array.of(1, 2, 1, 9))).toEqual([{ a0: 3, a1: 5, b0: 3, b1: 3 }]);
  });

  it("places a run as git's diff does: up, then down, then back to face the other file's changes", () => {
    // u d x → d d x: git replaces u with d, not "remove u, add a d after the other".
    expect(lineChanges(Int32Array.of(1, 2, 3), Int32Array.of(2, 2, 3))).toEqual([{ a0: 0, a1: 1, b0: 0, b1: 1 }]);
    // c → d c c: git adds "d c" before the c, not d before it and a c after it (the search's two runs join).
    expect(lineChanges(Int32Array.of(3), Int32Array.of(4, 3, 3))).toEqual([{ a0: 0, a1: 0, b0: 0, b1: 2 }]);
    // b u → o b b u: "o b" added before b.
    expect(lineChanges(Int32Array.of(2, 5), Int32Array.of(6, 2, 2, 5))).toEqual([{ a0: 0, a1: 0, b0: 0, b1: 2 }]);
    // a a → t a: the a removed is the first, facing the t added (one change, as git has it).
    expect(lineChanges(Int32Array.of(1, 1), Int32Array.of(7, 1))).toEqual([{ a0: 0, a1: 1, b0: 0, b1: 1 }]);
  });

  it('handles empty sides and equal sides', () => {
    expect(lineChanges(Int32Array.of(), Int32Array.of())).toEqual([]);
    expect(lineChanges(Int32Array.of(1, 2), Int32Array.of(1, 2))).toEqual([]);
    expect(lineChanges(Int32Array.of(), Int32Array.of(1, 2))).toEqual([{ a0: 0, a1: 0, b0: 0, b1: 2 }]);
    expect(lineChanges(Int32Array.of(1, 2), Int32Array.of())).toEqual([{ a0: 0, a1: 2, b0: 0, b1: 0 }]);
  });
});
