import { describe, expect, it } from 'vitest';
import { Xxh32, xxh32 } from './xxhash32.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('xxh32', () => {
  it('matches the published XXH32 values (seed 0)', () => {
    expect(xxh32(new Uint8Array(0))).toBe(0x02cc5d05);
    expect(xxh32(utf8('a'))).toBe(0x550d7456);
    expect(xxh32(utf8('abc'))).toBe(0x32d153ff);
    expect(xxh32(utf8('Nobody inspects the spammish repetition'))).toBe(0xe2293b2f);
  });

  it('depends on the seed', () => {
    expect(xxh32(utf8('abc'), 1)).not.toBe(xxh32(utf8('abc')));
  });

  it('gives the same value at every alignment and for every length (word and byte paths agree)', () => {
    const data = new Uint8Array(300);
    for (let i = 0; i < data.length; i++) data[i] = (i * 151 + 7) & 0xff;
    for (let length = 0; length <= 80; length++) {
      const expected = xxh32(data.slice(0, length)); // fresh copy: offset 0, aligned
      for (let offset = 1; offset < 8; offset++) {
        const shifted = new Uint8Array(length + offset);
        shifted.set(data.subarray(0, length), offset);
        expect(xxh32(shifted.subarray(offset)), `offset ${offset}, length ${length}`).toBe(expected);
      }
    }
  });

  it('changes when any single bit flips', () => {
    const data = utf8('the quick brown fox jumps over the lazy dog, 0123456789');
    const base = xxh32(data);
    for (let i = 0; i < data.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const flipped = data.slice();
        flipped[i]! ^= 1 << bit;
        expect(xxh32(flipped)).not.toBe(base);
      }
    }
  });
});

describe('Xxh32 (in pieces)', () => {
  it('equals the one-shot hash for any split into 16-byte-multiple pieces and a rest', () => {
    const data = new Uint8Array(1000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31 + 3) & 0xff;
    for (const length of [0, 5, 15, 16, 17, 31, 32, 33, 100, 1000]) {
      const expected = xxh32(data.subarray(0, length));
      for (const cut of [0, 16, 32, 48, 96]) {
        if (cut > length) continue;
        const h = new Xxh32();
        h.stripes(data.subarray(0, cut)); // aligned
        expect(h.digest(data.subarray(cut, length)), `length ${length}, cut ${cut}`).toBe(expected);
      }
      const unaligned = new Uint8Array(length + 1);
      unaligned.set(data.subarray(0, length), 1);
      const h = new Xxh32();
      const cut = (length >>> 5) << 4;
      h.stripes(unaligned.subarray(1, 1 + cut)); // byte path
      expect(h.digest(unaligned.subarray(1 + cut)), `unaligned, length ${length}`).toBe(expected);
    }
  });

  it('refuses a piece that is not a multiple of 16 bytes', () => {
    expect(() => new Xxh32().stripes(new Uint8Array(10))).toThrow(RangeError);
  });
});
