// A pattern must never hang the process: pathological patterns on 100 KB lines finish
// quickly and give the right answer. The bound is generous: this is a safety test. It counts this
// process's CPU time, not the wall clock, which other processes of a loaded machine stretch.

import { describe, expect, it } from 'vitest';
import { cpuClock } from '../../test/cpu-time.ts';
import { compileLineMatcher } from './matcher.ts';

const LIMIT_MS = 2000;
const A = 'a'.repeat(100_000);
const X = 'x'.repeat(100_000);

type Case = [pattern: string, line: string, expected: { index: number; length: number } | null];

const CASES: Case[] = [
  ['(a+)+$', A, { index: 0, length: A.length }],
  ['(a+)+$', `${A}!`, null],
  ['(x+x+)+y', X, null],
  ['(x+x+)+y', `${X}!y`, null], // passes the "y" pre-filter, so the regex really runs
  ['(x+x+)+y', `${X}y`, { index: 0, length: X.length + 1 }],
  ['(.*a){20}', A, { index: 0, length: A.length }],
  ['(.*a){20}', `${'a'.repeat(19)}${'b'.repeat(100_000)}`, null],
  ['\\w+x', A, null],
  ['\\w+x', `${A} x`, null],
  ['\\w+x', `${A}x`, { index: 0, length: A.length + 1 }],
  ['(a|a)*b', A, null],
  ['(a|a)*b', `${A}!b`, { index: A.length + 1, length: 1 }],
  ['(a|a)*b', `b!${A}`, { index: 0, length: 1 }],
  ['.*a.*a.*a.*b', A, null],
  ['.*a.*a.*a.*b', `b${A}`, null],
  ['.*a.*a.*a.*b', `${A}b`, { index: 0, length: A.length + 1 }],
  ['(a|aa)+$', `${A}!`, null],
  ['^(\\w+\\s?)*$', `${A}!`, null],
  ['(\\d+)*x', `${'1'.repeat(100_000)}!x`, { index: 100_001, length: 1 }],
  ['(\\d+)*x', '1'.repeat(100_000), null],
  ['a{0,400}b', `${A}!b`, { index: A.length + 1, length: 1 }], // located from the last 401 chars only
  ['a{0,200}a{0,200}b', `${A}!b`, { index: A.length + 1, length: 1 }],
  ['[ab]{0,30}[bc]', `${A}!c`, { index: A.length + 1, length: 1 }], // no literal: the Matcher scans it all
  ['.{100,}x', `${A}!x`, { index: 0, length: A.length + 2 }],
  ['\\w+Sync\\(', `${A}Sync`, null],
  ['[a-z]+[0-9]+;', `${A}1`, null],
];

describe('pathological patterns on 100 KB lines', () => {
  for (const [pattern, line, expected] of CASES) {
    for (const ignoreCase of [false, true]) {
      it(`/${pattern}/${ignoreCase ? 'i' : ''} on ${line.length} chars → ${expected === null ? 'no match' : 'match'}`, () => {
        const cpu = cpuClock();
        const m = compileLineMatcher(pattern, { ignoreCase });
        expect(m.find(line)).toEqual(expected);
        expect(m.test(line)).toBe(expected !== null);
        expect(cpu()).toBeLessThan(LIMIT_MS);
      });
    }
  }
});

describe('native lines stay under the step budget', () => {
  // Just under the native length limit, the worst inputs for one unbounded quantifier.
  const shortLines: Case[] = [
    ['\\w+x', 'a'.repeat(512), null],
    ['\\w+Sync\\(', `${'a'.repeat(500)}Sync`, null],
    ['[a-z]+[A-Z]', 'a'.repeat(512), null],
    ['"[^"]*"x', `"${' '.repeat(510)}"`, null],
  ];
  for (const [pattern, line, expected] of shortLines) {
    it(`/${pattern}/ on ${line.length} chars, 1000 times`, () => {
      const m = compileLineMatcher(pattern);
      expect(m.engine).toBe('native');
      const cpu = cpuClock();
      for (let i = 0; i < 1000; i++) expect(m.find(line)).toEqual(expected);
      // ~0.1-0.5 ms per line measured; 5 ms each would still be bounded, not a hang.
      expect(cpu()).toBeLessThan(5000);
    });
  }

  it('runs a many-line 1 MB adversarial input in bounded time', () => {
    const m = compileLineMatcher('\\w+x');
    const lines = Array.from({ length: 2000 }, (_, i) => 'a'.repeat(400 + (i % 200)));
    const cpu = cpuClock();
    expect(lines.some((l) => m.test(l))).toBe(false);
    expect(cpu()).toBeLessThan(LIMIT_MS * 5);
  });
});
