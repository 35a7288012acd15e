import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlineBytes, decodeRange, decodeText, isBinary, linesWithEnds } from './text.ts';

describe('linesWithEnds', () => {
  it('gives lines that keep their \\n and join back to the text; a last line may have none', () => {
    expect(linesWithEnds('')).toEqual([]);
    expect(linesWithEnds('a')).toEqual(['a']);
    expect(linesWithEnds('a\n')).toEqual(['a\n']);
    expect(linesWithEnds('a\r\nb')).toEqual(['a\r\n', 'b']);
    expect(linesWithEnds('\n\n')).toEqual(['\n', '\n']);
    fc.assert(
      fc.property(fc.stringMatching(/^[ab\r\n]{0,20}$/), (text) => {
        const lines = linesWithEnds(text);
        expect(lines.join('')).toBe(text);
        for (const [i, line] of lines.entries()) {
          expect(line.indexOf('\n')).toBe(i < lines.length - 1 || text.endsWith('\n') ? line.length - 1 : -1);
        }
      }),
    );
  });
});

describe('countNewlineBytes', () => {
  it('counts \\n bytes in any range of any view, aligned or not', () => {
    const bytes = fc.uint8Array({ maxLength: 200, size: 'max' }).map((a) => a.map((b) => [10, 10, 0x0a0a, 97, 0x8a, 0x0b, 0x09, 0xff][b % 8]! & 0xff));
    fc.assert(
      fc.property(bytes, fc.nat(7), fc.nat(200), fc.nat(200), (all, offset, a, b) => {
        const view = all.subarray(Math.min(offset, all.length));
        const from = Math.min(a, b, view.length);
        const to = Math.min(Math.max(a, b), view.length);
        const naive = [...view.subarray(from, to)].filter((x) => x === 10).length;
        expect(countNewlineBytes(view, from, to)).toBe(naive);
      }),
      { numRuns: 3000, seed: 3 },
    );
  });
});

describe('decodeRange', () => {
  it('decodes a part as decodeText decodes the whole, dropping a BOM only at offset 0', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0xef, 0xbb, 0xbf, 0x62]);
    expect(decodeRange(bytes, 0, 4)).toBe('a');
    expect(decodeRange(bytes, 5, 9)).toBe('\ufeffb');
    expect(decodeText(bytes)).toBe('a\n\ufeffb');
  });
});

describe('isBinary', () => {
  it('looks for a NUL byte in the first 8 KiB only', () => {
    const text = new Uint8Array(10_000).fill(97);
    expect(isBinary(text)).toBe(false);
    expect(isBinary(Uint8Array.of(97, 0, 98))).toBe(true);
    text[8191] = 0;
    expect(isBinary(text)).toBe(true);
    text[8191] = 97;
    text[8192] = 0;
    expect(isBinary(text)).toBe(false); // as git and ripgrep decide
  });
});
