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

  it('combines changes with an unchanged line between them', () => {
    const base = ['1', '2', '3', '4', '5'];
    expect(clean(diff3(['1', 'O', '3', '4', '5'], base, ['1', '2', '3', 'T', '5']))).toEqual(['1', 'O', '3', 'T', '5']);
    expect(clean(diff3(['O', ...base], base, [...base, 'T']))).toEqual(['O', ...base, 'T']);
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
