// Path normalization properties: idempotent, always absolute and clean, never above "/",
// and equal to POSIX resolution whenever it succeeds.
import { posix } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePath } from '../../src/paths.ts';

const segment = fc.oneof(fc.constantFrom('.', '..', '', 'a', 'b', 'é', ' x '), fc.string({ unit: fc.constantFrom('a', '.', '-', '_'), maxLength: 4 }));
const input = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 8 }), fc.constantFrom('/', '\\'))
  .map(([abs, segs, sep]) => (abs ? sep : '') + segs.join(sep));
const cwd = fc.array(fc.constantFrom('w', 'x', 'y'), { maxLength: 3 }).map((s) => `/${s.join('/')}`);

function tryNormalize(p: string, base?: string): string | { code: string } {
  try {
    return normalizePath(p, base);
  } catch (error) {
    return { code: (error as { code: string }).code };
  }
}

describe('normalizePath properties', () => {
  it('is idempotent, absolute, clean and matches POSIX resolution', () => {
    fc.assert(
      fc.property(input, cwd, (p, base) => {
        const out = tryNormalize(p, base);
        if (typeof out !== 'string') {
          expect(out.code).toBe('EINVAL');
          return;
        }
        expect(out.startsWith('/')).toBe(true);
        expect(out).not.toMatch(/\/\/|\/\.\.?(\/|$)|.\/$/);
        expect(normalizePath(out)).toBe(out);
        expect(out).toBe(posix.resolve(base, p.replaceAll('\\', '/')));
      }),
      { numRuns: 5000, seed: 7 },
    );
  });

  it('never escapes the root: ".." above "/" is EINVAL', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 }), (ups, down) => {
        const p = `/${down.join('/')}/${'../'.repeat(down.length + ups)}x`;
        expect(tryNormalize(p)).toEqual({ code: 'EINVAL' });
      }),
      { seed: 9 },
    );
  });
});
