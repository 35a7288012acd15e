// Long lines are shown in pieces (read_file rows of 5,000 characters, grep windows of 500):
// a piece never starts or ends inside a surrogate pair, and the pieces still add up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windowLine } from './format-grep.ts';
import { lineRows, MAX_LINE_CHARS } from './format-read.ts';

const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Runs of astral characters (and a few others), so that cut points land between the halves
// of a pair; built from runs so that a failure shrinks quickly.
const line = fc
  .array(fc.tuple(fc.constantFrom('a', '😀', '𝒳', 'é', '\u{10FFFF}'), fc.integer({ min: 1, max: 700 })), { maxLength: 30 })
  .map((runs) => runs.map(([c, n]) => c.repeat(n)).join(''));

describe('cutting long lines', () => {
  it('read_file rows: well-formed pieces of at most 5,000 characters that join back into the line', () => {
    fc.assert(
      fc.property(line, (text) => {
        const rows = lineRows(7, text);
        const pieces = rows.map((row) => row.slice(row.indexOf('\t') + 1));
        expect(pieces.join('')).toBe(text);
        for (const piece of pieces) {
          expect(lone.test(piece)).toBe(false);
          expect(piece.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
        }
        expect(rows.map((row) => row.slice(0, row.indexOf('\t')).trim())).toEqual(rows.map((_, i) => (i === 0 ? '7' : `7.${i}`)));
      }),
      { numRuns: 200, seed: 51 },
    );
  });

  it('grep windows: at most 500 well-formed characters, and the range the note gives is what is shown', () => {
    fc.assert(
      fc.property(line, fc.nat(), (text, at) => {
        const column = text.length === 0 ? 0 : at % text.length;
        const shown = windowLine({ text, column, length: 1 });
        if (text.length <= 500) {
          expect(shown).toBe(text);
          return;
        }
        const [, from, to] = /\[line is \d+ chars; showing (\d+)-(\d+)\]$/.exec(shown)!.map(Number);
        const body = shown.slice(0, shown.lastIndexOf(' [line is')).replace(/^…/, '').replace(/…$/, '');
        expect(body).toBe(text.slice(from! - 1, to));
        expect(lone.test(body)).toBe(false);
        expect(body.length).toBeLessThanOrEqual(500);
      }),
      { numRuns: 300, seed: 52 },
    );
  });

  it('an emoji at a cut point moves whole to the next row', () => {
    const rows = lineRows(1, `x${'😀'.repeat(3000)}`);
    expect(rows[0]!.endsWith('😀')).toBe(true);
    expect(rows[1]!.startsWith('   1.1\t😀')).toBe(true);
  });
});
