import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteNeedle, holdsAsciiFolds } from './byte-needle.ts';
import { foldCase } from './fold.ts';

const encode = (s: string) => new TextEncoder().encode(s);

function naiveIndex(hay: Uint8Array, needle: Uint8Array, from: number, fold: boolean): number {
  const f = (b: number) => (fold && b >= 65 && b <= 90 ? b | 0x20 : b);
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (f(hay[i + j]!) !== f(needle[j]!)) continue outer;
    return i;
  }
  return -1;
}

describe('ByteNeedle', () => {
  it('finds the first occurrence in [from, to), as a naive scan does', () => {
    const bytes = fc.uint8Array({ minLength: 0, maxLength: 80, size: 'max' }).map((a) => a.map((b) => [97, 98, 65, 66, 0xc3, 0xa9, 10][b % 7]!));
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '\n'), minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(bytes, text, fc.nat(90), fc.nat(90), fc.boolean(), (hay, literal, from, to, ignoreCase) => {
        const folded = ignoreCase ? foldCase(literal) : literal;
        const needle = ByteNeedle.for(folded, ignoreCase);
        if (ignoreCase && /[^\x00-\x7f]/.test(folded)) expect(needle).toBeNull();
        else expect(needle!.indexIn(hay, from, to)).toBe(naiveIndex(hay.subarray(0, to), encode(folded), from, ignoreCase));
      }),
      { numRuns: 3000, seed: 5 },
    );
  });

  it('refuses what bytes cannot stand for', () => {
    expect(ByteNeedle.for('a\ufffd', false)).toBeNull(); // also what broken UTF-8 decodes to
    expect(ByteNeedle.for('é', true)).toBeNull(); // only ASCII folds byte-wise
    expect(ByteNeedle.for('', false)).toBeNull();
  });

  it('flags exactly the folded needles that non-ASCII text can match (K and ſ)', () => {
    // missesNonAscii relies on k and s being the only ASCII targets of Unicode case folding.
    const onto: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (/[\x00-\x7f]/.test(foldCase(String.fromCodePoint(cp)))) onto.push(cp.toString(16));
    }
    expect(onto).toEqual(['17f', '212a']);
    expect(ByteNeedle.for('kelvin', true)!.missesNonAscii).toBe(true);
    expect(ByteNeedle.for('todo', true)!.missesNonAscii).toBe(false);
    expect(ByteNeedle.for('kelvin', false)!.missesNonAscii).toBe(false);
  });

  it('holdsAsciiFolds finds K and ſ (and nothing else) anywhere in the bytes', () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    for (const t of ['\u017f', '\u212a', 'abc \u017f', 'é\u212a', '€\u2129\u212a']) expect(holdsAsciiFolds(enc(t)), t).toBe(true);
    for (const t of ['', 'ks KS', 'é à €', '\u2129\u212b\u0170\u0100', 'ſ'.normalize('NFKC')]) expect(holdsAsciiFolds(enc(t)), t).toBe(false);
    // Lone or cut sequences are not the characters.
    expect(holdsAsciiFolds(Uint8Array.of(0xc5))).toBe(false);
    expect(holdsAsciiFolds(Uint8Array.of(0xe2, 0x84))).toBe(false);
    expect(holdsAsciiFolds(Uint8Array.of(0xe2, 0xe2, 0x84, 0xaa))).toBe(true);
  });
});
