// Patterns as large as RE2 accepts (issue #16): long alternations of names and the largest
// counts RE2 allows compile and match as re2js does; what is over a limit is refused with
// that limit named; and large programs stay linear in the input.

import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { isVfsError } from '../errors.ts';
import { compileLinear } from './linear.ts';
import { compileLineMatcher, PROGRAM_BUDGET } from './matcher.ts';
import { parse } from './parse.ts';
import { seeded } from '../../test/seeded.ts';

type Found = { index: number; length: number } | null;

const rand = seeded(16);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_';
const identifier = (): string => Array.from({ length: 4 + Math.floor(rand() * 10) }, () => pick([...LETTERS])).join('');
/** `count` distinct names, some the prefix of another (as getX and getXById in real lists). */
function names(count: number): string[] {
  const out = new Set<string>();
  while (out.size < count) {
    const name = identifier();
    out.add(name);
    if (rand() < 0.2) out.add(`${name}${identifier()}`);
  }
  return [...out].slice(0, count);
}

function re2Find(re: RE2JS, line: string): Found {
  const m = re.matcher(line);
  return m.find() ? { index: m.start(), length: m.end() - m.start() } : null;
}

/** The chosen matcher and the linear engine alone both find what re2js finds, on every line. */
function expectLikeRe2(pattern: string, lines: readonly string[]): void {
  const re2 = RE2JS.compile(pattern);
  const chosen = compileLineMatcher(pattern);
  const linear = compileLinear(parse(pattern), PROGRAM_BUDGET);
  let matched = 0;
  for (const line of lines) {
    const expected = re2Find(re2, line);
    const context = `${pattern.slice(0, 40)}… on ${JSON.stringify(line.slice(0, 60))} (${line.length} chars)`;
    expect(chosen.find(line), context).toEqual(expected);
    expect(chosen.test(line), context).toBe(expected !== null);
    expect(linear.find(line), context).toEqual(expected);
    expect(linear.test(line), context).toBe(expected !== null);
    if (expected !== null) matched++;
  }
  // The inputs exercise both answers.
  expect(matched).toBeGreaterThan(0);
  expect(matched).toBeLessThan(lines.length);
}

function regexError(pattern: string): Error {
  try {
    compileLineMatcher(pattern);
  } catch (error) {
    expect(isVfsError(error) && error.code === 'EREGEX').toBe(true);
    return error as Error;
  }
  throw new Error(`expected ${pattern} to be refused`);
}

describe('patterns RE2 accepts', () => {
  for (const count of [125, 1000]) {
    it(`an alternation of ${count} identifiers matches as re2js on generated lines`, () => {
      const list = names(count);
      const pattern = list.join('|');
      const others = names(200);
      const lines = Array.from({ length: 150 }, () => {
        const words = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => {
          const r = rand();
          if (r < 0.15) return pick(list); // a name
          if (r < 0.3) return pick(list).slice(0, -1); // a name missing its last letter
          return pick(others);
        });
        return words.join(pick([' ', '.', '(', '']));
      });
      expectLikeRe2(pattern, lines);
    });
  }

  it('a{1000} and a{0,500}a{500} match as re2js around the count', () => {
    const lines = [499, 500, 999, 1000, 1001, 1499, 1500, 2500].flatMap((n) => [
      'a'.repeat(n),
      `b${'a'.repeat(n)}b`,
      `${'a'.repeat(n >> 1)}b${'a'.repeat(n - (n >> 1))}`,
      Array.from({ length: n }, () => (rand() < 0.999 ? 'a' : 'b')).join(''),
    ]);
    expectLikeRe2('a{1000}', lines);
    expectLikeRe2('a{0,500}a{500}', lines);
    expectLikeRe2('a{0,500}a{500}b', lines);
    // re2js, the reference, takes seconds here; the default 30 s guard against a hang is too
    // close on a loaded 2-core machine (37 s seen with seven other sessions running).
  }, 180_000);

  it('takes the largest count RE2 allows, nested up to a product of 1000', () => {
    for (const pattern of ['a{1000}', 'x{0,1000}', '(?:ab){1000}', '(?:(?:a|b){10}c){100}', '\\w{1,1000}=']) {
      expect(() => compileLineMatcher(pattern), pattern).not.toThrow();
    }
  });
});

describe('refusals name the limit they hit', () => {
  it('a count over 1000', () => {
    expect(regexError('a{1001}').message).toContain('repetition count 1001 in {1001} at character 2 exceeds 1000');
    expect(regexError('x{2,5000}').message).toContain('repetition count 5000 in {2,5000} at character 2 exceeds 1000');
  });

  it('nested counts whose product is over 1000', () => {
    expect(regexError('(a{100}){100}').message).toContain('nested repetition counts multiply to 10000 at {100} at character 9');
    expect(regexError('((?:a{10}){10}){11}').message).toContain('multiply to 1100');
  });

  it('{n,m} with n > m', () => {
    expect(regexError('a{2,1}').message).toContain('invalid repeat count {2,1} at character 2: in {n,m} the minimum n must not exceed the maximum m');
  });

  it('a program over the instruction budget, with both numbers, and no blame on repetition when there is none', () => {
    const budget = PROGRAM_BUDGET.toLocaleString('en-US');
    expect(regexError('a{1000}'.repeat(110)).message).toContain(`the pattern compiles to 110,001 instructions, over the ${budget}-instruction budget`);
    const huge = names(13_000).join('|');
    const message = regexError(huge).message;
    expect(message).toMatch(new RegExp(`compiles to [\\d,]+ instructions, over the ${budget}-instruction budget`));
    expect(message).not.toMatch(/counted repetition/);
    expect(message.length).toBeLessThan(600); // the pattern is quoted in part only
  });
});

describe('large programs stay linear', () => {
  it('an adversarial 1 MB line for a backtracker: the linear engine runs it', () => {
    // (a|aa){0,500} before a{500}b tries exponentially many splits of the a's under backtracking.
    const pattern = '(?:a|aa){0,500}a{500}b';
    const m = compileLineMatcher(pattern);
    expect(m.engine).toBe('linear');
    const line = 'a'.repeat(1_000_000);
    expect(m.test(line)).toBe(false);
    expect(m.find(line)).toBeNull();
    // The longest match is 1000 + 500 a's and the b; the leftmost starts as far back as that allows.
    expect(m.find(`${line}b`)).toEqual({ index: line.length - 1500, length: 1501 });
  });

  it('a line that needs a new DFA state at every character finishes as an NFA simulation', () => {
    // a[ab]{999}c remembers the last 1000 characters: 2^1000 states, each a list of ~500 threads.
    const pattern = 'a[ab]{999}c';
    const random = seeded(3);
    const body = Array.from({ length: 20_000 }, () => (random() < 0.5 ? 'a' : 'b')).join('');
    const at = 12_000; // a match: an a, then 999 of the line's own a's and b's, then c
    const lines = [body, `${body}c`, `${body.slice(0, at)}a${body.slice(at + 1, at + 1000)}c${body.slice(at + 1000)}`];
    const linear = compileLinear(parse(pattern), PROGRAM_BUDGET);
    const re2 = RE2JS.compile(pattern);
    for (const line of lines) {
      const expected = re2Find(re2, line);
      expect(linear.test(line)).toBe(expected !== null);
      expect(linear.find(line)).toEqual(expected);
    }
    expect(lines.some((line) => re2Find(re2, line) !== null)).toBe(true);
    // Its state cache filled up twice within 10 characters a state: it stopped building states.
    expect(linear.nfaScans).toBeGreaterThan(0);
  });
});
