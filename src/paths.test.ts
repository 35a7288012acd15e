import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipped, comparePaths, isChildOf, normalizePath, parentOf } from './paths.ts';
import { isWellFormed } from './text.ts';

const segment = fc.constantFrom('a', 'b', 'ab', 'a-b', 'a.b', 'é', '𝄞', 'z');
const path = fc.array(segment, { minLength: 0, maxLength: 4 }).map((s) => `/${s.join('/')}`);

describe('isChildOf', () => {
  it('is true exactly when the parent of the path is the directory', () => {
    fc.assert(
      fc.property(path, path, (p, dir) => {
        expect(isChildOf(p, dir)).toBe(p !== '/' && parentOf(p) === dir);
      }),
      { numRuns: 5000 },
    );
  });

  it('examples', () => {
    expect(isChildOf('/a', '/')).toBe(true);
    expect(isChildOf('/a/b', '/')).toBe(false);
    expect(isChildOf('/', '/')).toBe(false);
    expect(isChildOf('/a/b', '/a')).toBe(true);
    expect(isChildOf('/ab/c', '/a')).toBe(false);
    expect(isChildOf('/a/b/c', '/a')).toBe(false);
    expect(isChildOf('/a', '/a')).toBe(false);
  });
});

describe('comparePaths', () => {
  it('orders as a depth-first walk with sorted names', () => {
    const paths = ['/a-b', '/a/b', '/a', '/ab', '/a/b/c', '/a/a'];
    expect(paths.sort(comparePaths)).toEqual(['/a', '/a/a', '/a/b', '/a/b/c', '/a-b', '/ab']);
  });
});

describe('clipped', () => {
  it('cuts long input to its first characters, never half a surrogate pair', () => {
    expect(clipped('a'.repeat(100))).toBe('a'.repeat(100));
    expect(clipped('a'.repeat(101))).toBe(`${'a'.repeat(100)}…`);
    expect(clipped(`${'a'.repeat(99)}😀b`)).toBe(`${'a'.repeat(99)}…`);
    expect(isWellFormed(clipped('😀'.repeat(300), 500))).toBe(true);
  });
});

describe('invalid-path messages', () => {
  it('quote a long name without cutting a surrogate pair', () => {
    // 'a' then emoji: character 40 of the name is the first half of a pair.
    const name = `a${'😀'.repeat(100)}`;
    let message = '';
    try {
      normalizePath(`/${name}`);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(`the name "a${'😀'.repeat(19)}…" is over 255 bytes`);
    expect(isWellFormed(message)).toBe(true);
  });
});
