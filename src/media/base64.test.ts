import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toBase64 } from './base64.ts';

describe('toBase64', () => {
  it('equals Node’s encoder on any bytes (every length mod 3)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });

  it('encodes a view at its own offset, not its buffer’s start', () => {
    const whole = Uint8Array.of(1, 2, 3, 250, 251, 252, 253);
    expect(toBase64(whole.subarray(3))).toBe(Buffer.from([250, 251, 252, 253]).toString('base64'));
  });
});
