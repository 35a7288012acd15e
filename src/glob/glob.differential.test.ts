// compileGlob runs picomatch's regular expressions on grep's matcher (linear where a RegExp
// could backtrack without bound): it must answer exactly as picomatch itself does, on the
// normalized paths it is given. One difference, on purpose: "?" and a class match one character,
// as in sh and ripgrep, where picomatch's RegExp (no "u" flag) matches half of a character
// outside the BMP (an emoji): so the random names here hold none, and a test below says so.
import fc from 'fast-check';
import picomatch from 'picomatch/posix.js';
import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob.ts';
import { toRe2 } from './re2-source.ts';

const piece = fc.constantFrom(
  ...[
    'a',
    'b',
    'A',
    '.',
    '..',
    '-',
    'é',
    '*',
    '**',
    '?',
    '[ab]',
    '[!a]',
    '[a-c]',
    '[.]',
    '{a,b}',
    '{a,.b}',
    '{1..3}',
    '{..}',
    '@(a|b)',
    '+(a|b)',
    '*(a)',
    '?(b)',
  ],
  ...['!(a)', '!(*a)', '\\*', '\\é', '\\z', '\\A', '\\d', '\\b', '\\x41', '\\u0041', '\\(', '(', ')', '[', ']', '{', '}', '(?=.)', '|', '^', '$', '+'],
);
const segment = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
const pattern = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const name = fc
  .array(fc.constantFrom('a', 'b', 'A', 'z', '.', '-', 'é', 'É', 'ж', 'Ж', '*', '1', '2', '(', ')', '[', ']', '{', '}', '$', '^', '+', '|'), {
    minLength: 1,
    maxLength: 5,
  })
  .map((c) => c.join(''))
  .filter((n) => n !== '.' && n !== '..');
const path = fc.array(name, { minLength: 1, maxLength: 4 }).map((n) => n.join('/'));

describe('compileGlob answers as picomatch', () => {
  it('on random patterns and normalized paths, with basename and ignoreCase', () => {
    fc.assert(
      fc.property(pattern, fc.array(path, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), (glob, paths, basenameIfNoSlash, ignoreCase) => {
        let theirs: (p: string) => boolean;
        try {
          theirs = picomatch(glob, { dot: true, posix: true, nocase: ignoreCase, basename: basenameIfNoSlash && !glob.includes('/') });
        } catch {
          expect(() => compileGlob(glob, { basenameIfNoSlash, ignoreCase })).toThrow(/^Invalid glob pattern/);
          return;
        }
        let ours: (p: string) => boolean;
        try {
          ours = compileGlob(glob, { basenameIfNoSlash, ignoreCase });
        } catch (error) {
          // Refused: a pattern that needs a backtracking matcher and could backtrack for minutes.
          expect((error as Error).message).toMatch(/^Invalid glob pattern .*needs a lookahead .*could take minutes/);
          expect(toRe2(picomatch.makeRe(glob, { dot: true, posix: true, nocase: ignoreCase }).source)).toEqual({ lookahead: true });
          return;
        }
        for (const p of paths) expect(ours(p), `${glob} on ${p}`).toBe(theirs(p));
      }),
      { numRuns: 3000 },
    );
  });

  it('"?" and a class match one character, an emoji too (as sh and ripgrep; picomatch matches half of one)', () => {
    expect(compileGlob('?')('😀')).toBe(true);
    expect(compileGlob('[!a]')('😀')).toBe(true);
    expect(compileGlob('??')('😀')).toBe(false);
    expect(picomatch('??', { dot: true, posix: true })('😀')).toBe(true);
  });

  it('a negated group keeps a backtracking matcher, so the patterns where that could run for minutes are refused', () => {
    for (const glob of ['!(x)+(*)c', '+(!(x)|a)c', '*a*/*a*/!(x)', '*a*!(b)*c', '**/a/**/*!(x)c']) {
      expect(() => compileGlob(glob), glob).toThrow(/^Invalid glob pattern .*needs a lookahead .*could take minutes/);
    }
    const tests = compileGlob('**/!(*.test).ts');
    expect(['src/a.ts', 'src/a.test.ts', 'a.ts'].map(tests)).toEqual([true, false, true]);
  });

  it('never backtracks without bound: many stars against a long name answer at once', () => {
    const long = 'a'.repeat(250);
    for (const glob of ['*a*a*a*a*a*a*a*a*b', `${'**/a'.repeat(8)}/b`, '*(a)*(a)*(a)*(a)*(a)b', '{*a,*b}*a*a*a*a*c']) {
      expect(compileGlob(glob)(long)).toBe(false);
      expect(compileGlob(glob)(Array.from({ length: 40 }, () => 'a').join('/'))).toBe(false);
    }
  });

  it('refuses a pattern over 4096 characters at once, before picomatch parses it (nested braces took minutes)', () => {
    const nested = `${'{'.repeat(6000)}a${'}'.repeat(6000)}`;
    expect(() => compileGlob(nested)).toThrow(/^Invalid glob pattern .*: it is 12001 characters, over the limit of 4096/);
    expect(compileGlob(`{${Array.from({ length: 800 }, (_, i) => `f${i}`).join(',')}}`)('f799')).toBe(true);
  });
});
