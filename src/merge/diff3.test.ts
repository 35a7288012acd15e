import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diff3, type MergeRegion } from './diff3.ts';

const clean = (regions: MergeRegion[]) => (regions.every((r) => 'ok' in r) ? regions.flatMap((r) => ('ok' in r ? r.ok : [])) : null);
const file = fc.array(fc.constantFrom('a', 'b', 'c', '{', '}'), { maxLength: 12 });

describe('diff3', () => {
  it('takes one side whole where the other did not change, and a change both sides made alike once', () => {
    fc.assert(
      fc.property(file, file, (base, side) => {
        expect(clean(diff3(side, base, base))).toEqual(side);
        expect(clean(diff3(base, base, side))).toEqual(side);
        expect(clean(diff3(side, base, side))).toEqual(side);
      }),
      { numRuns: 1000 },
    );
  });

  it("merges cleanly only where every line has as many copies as the two sides' own changes give it, none taken twice or lost", () => {
    const count = (lines: string[], line: string) => lines.filter((l) => l === line).length;
    // Each side: a few removals, additions and moves of blocks, in a file of few distinct lines.
    const edit = fc.record({
      at: fc.nat(),
      del: fc.integer({ min: 0, max: 2 }),
      add: fc.array(fc.constantFrom('a', 'b', '}'), { maxLength: 2 }),
      move: fc.boolean(),
    });
    const side = (base: string[], edits: { at: number; del: number; add: string[]; move: boolean }[]) => {
      const out = [...base];
      for (const e of edits) {
        const removed = out.splice(e.at % (out.length + 1), e.move ? e.del + 1 : e.del, ...(e.move ? [] : e.add));
        if (e.move) out.splice((e.at * 7) % (out.length + 1), 0, ...removed);
      }
      return out;
    };
    const edits = fc.array(edit, { minLength: 1, maxLength: 3 });
    let checked = 0;
    fc.assert(
      fc.property(file, edits, edits, (base, oursEdits, theirsEdits) => {
        const [ours, theirs] = [side(base, oursEdits), side(base, theirsEdits)];
        const merged = clean(diff3(ours, base, theirs));
        if (merged === null) return;
        checked++;
        for (const line of new Set([...base, ...ours, ...theirs])) {
          const [o, t, m] = [ours, theirs, merged].map((side) => count(side, line) - count(base, line)) as [number, number, number];
          // Between one side's change of the count and both sides' together: what the two sides
          // did alike (a copy each added at one place, a line both removed) is taken once, the rest
          // of each side's change as it is. (Without the move guard, 1,577 of 300,000 runs fail this.)
          const allowed = m >= Math.min(o, t, o + t) && m <= Math.max(o, t, o + t);
          expect(allowed, JSON.stringify({ base, ours, theirs, merged, line })).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
    expect(checked).toBeGreaterThan(500);
  });

  it("merges what git merges where a line repeats: each side's edit placed where git places it", () => {
    // Cases where an edit's place among equal lines decided a conflict git does not have
    // (git merge-file's clean results; each conflicted before the line diff placed runs as git does).
    expect(clean(diff3(['d', 'd', 'x'], ['u', 'd', 'x'], ['u', 'd', 'X']))).toEqual(['d', 'd', 'X']);
    expect(clean(diff3(['c', 'a'], ['c'], ['d', 'c', 'c']))).toEqual(['d', 'c', 'c', 'a']);
    expect(clean(diff3(['a', 'a', 'b'], ['a', 'a'], ['t', 'a']))).toEqual(['t', 'a', 'b']);
    expect(clean(diff3(['o', 'b', 'b', 'u'], ['b', 'u'], ['b', 'x', 'y', 'b']))).toEqual(['o', 'b', 'b', 'x', 'y', 'b']);
    expect(clean(diff3(['1', '2', '}', '}'], ['1', '2', '3', '}'], ['4', '1', '2', '3', '}', 'x']))).toEqual(['4', '1', '2', '}', '}', 'x']);
    // And the reverse: git conflicts here (ours adds "1 c 2" before the last b, theirs "1 c 2 b b"
    // after it, facing nothing); taken as one, the addition both made alike hid a conflict.
    expect(clean(diff3(['b', 'a', 't', '1', 'c', '2', 'b'], ['b', 'a', 't', 'b'], ['b', 'a', 't', '1', 'c', '2', 'b', 'b', 'b']))).toBeNull();
  });

  it('combines changes with an unchanged line between them', () => {
    const base = ['1', '2', '3', '4', '5'];
    expect(clean(diff3(['1', 'O', '3', '4', '5'], base, ['1', '2', '3', 'T', '5']))).toEqual(['1', 'O', '3', 'T', '5']);
    expect(clean(diff3(['O', ...base], base, [...base, 'T']))).toEqual(['O', ...base, 'T']);
  });

  it.each([
    // Ours moves a down past a b; theirs removes a (and a b). Taken once, the removal of a would
    // let the moved a come back: git, aligning the move the other way, conflicts.
    ['a line one side moved and the other removed', ['a', 'b', 'b', 'b'], ['b', 'a', 'b', 'b'], ['b', 'b']],
    // Theirs swaps the last two lines (c moves above d); ours removes that c.
    ['a swap against a removal', ['a', 'd', 'c', 'c', 'a', 'a', 'd', 'c'], ['a', 'd', 'c', 'c', 'a', 'a', 'd'], ['a', 'a', 'd', 'c', 'c', 'a', 'a', 'c', 'd']],
    // Both remove c where it was and add it back, each somewhere else.
    ['a line both sides moved, to different places', ['}', '}', 'c', 'b', 'b'], ['c', 'c', '}', 'b'], ['}', '}', 'b', '}', 'c']],
    // In code: ours moves b() up among repeated lines; theirs removes b().
    [
      'a moved call the other side removed',
      ['return x;', '', '', '', 'a()', '', 'return x;', 'b()', 'c()', '', '}', '}', '}', 'd()', 'e()', 'return x;'],
      ['return x;', '', '', 'return x;', 'b()', 'a()', '', 'c()', 'd()', 'e()', '}', '', '}'],
      ['', '', 'a()', '', 'c()', '', '}', '}', '}', 'd()', 'e()', 'return x;'],
    ],
  ])('conflicts rather than bring back or double a line: %s', (_label, base, ours, theirs) => {
    expect(clean(diff3(ours, base, theirs))).toBeNull();
    expect(clean(diff3(theirs, base, ours))).toBeNull();
  });

  it.each([
    // Both sides add "a" at the top; ours also drops the file's final line break. The last line
    // "a" without its break is the base's "a\n", not a moved copy of it: git merges this cleanly.
    ['LF', ['x\n', 'b\n', 'a\n'], ['a\n', 'x\n', 'b\n', 'a'], ['a\n', 'x\n', 'b\n', 'a\n']],
    ['CRLF', ['x\r\n', 'b\r\n', '}\r\n'], ['}\r\n', 'x\r\n', 'b\r\n', '}'], ['}\r\n', 'x\r\n', 'b\r\n', '}\r\n']],
  ])('a final line that only lost its line break is not taken for half of a move (%s)', (_label, base, ours, theirs) => {
    expect(clean(diff3(ours, base, theirs))).toEqual(ours);
    expect(clean(diff3(theirs, base, ours))).toEqual(ours);
  });

  it('takes a change both sides made once, beside other changes of the same lines', () => {
    const base = ['{', 'x', '}', '}', 'y', 'w', 'v', '}'];
    // Both remove the second }; ours also removes the last one, theirs changes w.
    expect(clean(diff3(['{', 'x', '}', 'y', 'w', 'v'], base, ['{', 'x', '}', 'y', 'W', 'v', '}']))).toEqual(['{', 'x', '}', 'y', 'W', 'v']);
  });

  it.each([
    [
      'changes of adjacent lines',
      ['1', 'O', '3', '4'],
      ['1', '2', 'T', '4'],
      [{ ok: ['1'] }, { conflict: { a: ['O', '3'], aIndex: 1, o: ['2', '3'], b: ['2', 'T'], bIndex: 1 } }, { ok: ['4'] }],
    ],
    [
      'different additions at one place',
      ['1', '2', 'O', '3', '4'],
      ['1', '2', 'T', '3', '4'],
      [{ ok: ['1', '2'] }, { conflict: { a: ['O'], aIndex: 2, o: [], b: ['T'], bIndex: 2 } }, { ok: ['3', '4'] }],
    ],
    [
      'an addition before a line the other side changed',
      ['1', 'O', '2', '3', '4'],
      ['1', 'T', '3', '4'],
      [{ ok: ['1'] }, { conflict: { a: ['O', '2'], aIndex: 1, o: ['2'], b: ['T'], bIndex: 1 } }, { ok: ['3', '4'] }],
    ],
    [
      'a removal and a change of the same line',
      ['1', '3', '4'],
      ['1', 'T', '3', '4'],
      [{ ok: ['1'] }, { conflict: { a: [], aIndex: 1, o: ['2'], b: ['T'], bIndex: 1 } }, { ok: ['3', '4'] }],
    ],
  ])('conflicts where git merge-file does: %s', (_label, ours, theirs, regions) => {
    expect(diff3(ours, ['1', '2', '3', '4'], theirs)).toEqual(regions);
  });
});
