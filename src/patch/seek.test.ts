// Codex's seek_sequence tests (codex-rs/apply-patch/src/seek_sequence.rs), ported, and the
// punctuation pass that lib.rs tests through a whole patch.
import { describe, expect, it } from 'vitest';
import { seekSequence } from './seek.ts';

describe('seekSequence', () => {
  it('finds an exact sequence', () => {
    expect(seekSequence(['foo', 'bar', 'baz'], ['bar', 'baz'], 0, false)).toBe(1);
  });

  it('ignores trailing whitespace, then surrounding whitespace', () => {
    expect(seekSequence(['foo   ', 'bar\t\t'], ['foo', 'bar'], 0, false)).toBe(0);
    expect(seekSequence(['    foo   ', '   bar\t'], ['foo', 'bar'], 0, false)).toBe(0);
  });

  it('returns -1 for a pattern longer than the input (no out-of-range read)', () => {
    expect(seekSequence(['just one line'], ['too', 'many', 'lines'], 0, false)).toBe(-1);
  });

  it('prefers a stricter match anywhere over a lenient one earlier', () => {
    expect(seekSequence(['  x', 'x'], ['x'], 0, false)).toBe(1);
  });

  it('reads typographic dashes, quotes and odd spaces as ASCII last', () => {
    expect(
      seekSequence(['import asyncio  # local import \u2013 avoids top\u2011level dep'], ['import asyncio  # local import - avoids top-level dep'], 0, false),
    ).toBe(0);
    expect(seekSequence(['say \u201chi\u201d and \u2018bye\u2019\u00a0now'], ['say "hi" and \'bye\' now'], 0, false)).toBe(0);
  });

  it('starts at `start`; an empty pattern matches there', () => {
    expect(seekSequence(['a', 'b', 'a'], ['a'], 1, false)).toBe(2);
    expect(seekSequence(['a'], [], 1, false)).toBe(1);
  });

  it('an end-of-file pattern is looked for at the end first, then from start', () => {
    expect(seekSequence(['x', 'y', 'x'], ['x'], 0, true)).toBe(2);
    expect(seekSequence(['x', 'y', 'z'], ['x'], 0, true)).toBe(0);
  });
});
