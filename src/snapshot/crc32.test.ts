import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crc32 } from './crc32.ts';

/** Bit-at-a-time reference CRC-32 (IEEE), straight from the definition. */
function referenceCrc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

describe('crc32', () => {
  it('matches the standard check values', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(new TextEncoder().encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
    expect(crc32(new Uint8Array(32))).toBe(0x190a55ad);
  });

  it('matches the bitwise reference at every length and alignment', () => {
    const base = new Uint8Array(300);
    for (let i = 0; i < base.length; i++) base[i] = (i * 131 + 7) & 0xff;
    for (let offset = 0; offset < 8; offset++) {
      for (const length of [0, 1, 3, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 200, 292]) {
        const view = base.subarray(offset, offset + length);
        expect(crc32(view), `offset ${offset}, length ${length}`).toBe(referenceCrc32(view));
      }
    }
  });

  it('continues across chunks: crc32(b, crc32(a)) === crc32(a ++ b)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.nat(400), (data, cut) => {
        const at = Math.min(cut, data.length);
        const whole = crc32(data);
        expect(whole).toBe(referenceCrc32(data));
        expect(crc32(data.subarray(at), crc32(data.subarray(0, at)))).toBe(whole);
      }),
      { seed: 0x5eed, numRuns: 300 },
    );
  });
});
