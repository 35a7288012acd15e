// Codex's seek_sequence tests (codex-rs/apply-patch/src/seek_sequence.rs), ported, and the
// punctuation pass that lib.rs tests through a whole patch.
import fc from 'fast-check';
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

// The search line by line at every start that Codex does, which seekSequence must agree with
// (it compares each line once, however alike the lines): each comparison in turn, the first start that matches.
function direct(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const punct = (s: string) =>
    s
      .replace(/[\u2010-\u2015\u2212]/g, '-')
      .replace(/[\u2018-\u201B]/g, "'")
      .replace(/[\u201C-\u201F]/g, '"');
  const compares = [(s: string) => s, (s: string) => s.trimEnd(), (s: string) => s.trim(), (s: string) => punct(s.trim())];
  const from = (begin: number) => {
    for (const c of compares) {
      for (let i = begin; i <= lines.length - pattern.length; i++) if (pattern.every((p, j) => c(lines[i + j]!) === c(p))) return i;
    }
    return -1;
  };
  // (Codex tries only the end; the end counts at or after start, so a chunk never takes an earlier chunk's lines.)
  const atEnd = eof && lines.length - pattern.length >= start ? from(lines.length - pattern.length) : -1;
  return atEnd !== -1 ? atEnd : from(start);
}

describe('seekSequence against the direct search', () => {
  it('finds the same line, with lines that almost match everywhere', () => {
    const line = fc.constantFrom('a', 'a ', ' a', 'b', 'a\u2014b', 'a-b', '');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(line, { maxLength: 4 }), fc.nat(12), fc.boolean(), (lines, pattern, start, eof) => {
        expect(seekSequence(lines, pattern, start, eof)).toBe(direct(lines, pattern, start, eof));
      }),
      { numRuns: 3000 },
    );
  });
});
