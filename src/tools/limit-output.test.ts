import { describe, expect, it } from 'vitest';
import { fittingRows, joinCapped, namesWithin, TRUNCATION_NOTE } from './limit-output.ts';

describe('joinCapped', () => {
  const tail = (total: number) => (kept: number) => (kept < total ? `... [${total - kept} more]` : null);

  it('keeps everything, with no note, when it fits', () => {
    expect(joinCapped(['a', 'b'], tail(2), 100)).toBe('a\nb');
    expect(joinCapped(['a', 'b'], tail(5), 100)).toBe('a\nb\n... [3 more]');
  });

  it('cuts at whole rows, counts what the cut left out, and ends with the closing note', () => {
    const rows = Array.from({ length: 50 }, (_, i) => `row ${String(i).padStart(2, '0')}`);
    const out = joinCapped(rows, tail(50), 150);
    const lines = out.split('\n');
    expect(out.length).toBeLessThanOrEqual(150);
    expect(lines.at(-1)).toBe(TRUNCATION_NOTE);
    const shown = lines.filter((l) => l.startsWith('row ')).length;
    expect(lines.at(-2)).toBe(`... [${50 - shown} more]`);
    expect(lines.slice(0, shown)).toEqual(rows.slice(0, shown));
  });

  it('never ends a cut list with a group separator', () => {
    const rows = ['a', 'b', 'c'].flatMap((f) => [`/${f}:1:${'x'.repeat(40)}`, '--']).slice(0, -1);
    const full = rows.join('\n').length;
    let cut = 0;
    for (let max = TRUNCATION_NOTE.length + 1; max < full; max++) {
      const lines = joinCapped(rows, () => null, max).split('\n');
      expect(lines.at(-1)).toBe(TRUNCATION_NOTE);
      if (lines.length > 1) cut++;
      expect(lines.at(-2)).not.toBe('--');
    }
    expect(cut).toBeGreaterThan(20); // budgets that keep one to four rows: every cut point is tried
  });
});

describe('fittingRows', () => {
  it('counts the whole rows that fit, or gives the beginning of a first row too long, never half a surrogate pair', () => {
    expect(fittingRows(['ab', 'cd', 'ef'], 5)).toEqual({ count: 2, part: null }); // "ab\ncd"
    expect(fittingRows(['ab', 'cd', 'ef'], 4)).toEqual({ count: 1, part: null });
    expect(fittingRows(['abcdef'], 4)).toEqual({ count: 0, part: 'abcd' });
    expect(fittingRows(['ab😀cd'], 3)).toEqual({ count: 0, part: 'ab' });
    expect(fittingRows([], 4)).toEqual({ count: 0, part: null });
  });
});

describe('namesWithin', () => {
  it('names as many as fit, then how many more', () => {
    expect(namesWithin(['/a', '/b', '/c'], 100)).toBe('/a, /b, /c');
    expect(namesWithin(['/a', '/b', '/c'], 14)).toBe('/a, and 2 more');
    expect(namesWithin(['/aaaaaaaa', '/b'], 5)).toBe('2 files');
  });
});
