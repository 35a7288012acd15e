// A line test around the occurrences of a literal (reverse inner literal) must answer as the
// DFA's test() on the decoded line: grep skips whole long lines on it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitAround } from './compile.ts';
import { compileLinear, type LiteralCut } from './linear.ts';
import { compileLineMatcher } from './matcher.ts';
import { parse } from './parse.ts';
import { INVALID } from './utf8.ts';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** The cut's answer for the line b[start, end): 1 if any occurrence matches, else INVALID if any said so, else 0. */
function lineAnswer(cut: LiteralCut, literal: string, b: Uint8Array, start: number, end: number): number {
  const needle = encoder.encode(literal);
  let answer = 0;
  for (let at = start; at + needle.length <= end; at++) {
    if (!needle.every((x, k) => b[at + k] === x)) continue;
    const r = cut.matchesAt(b, start, end, at);
    if (r === 1) return 1;
    if (r === INVALID) answer = INVALID;
    expect(cut.scanned).toBeGreaterThanOrEqual(0);
    expect(cut.scanned).toBeLessThanOrEqual(end - start);
  }
  return answer;
}

describe('splitAround', () => {
  const show = (pattern: string, literal: string) => {
    const split = splitAround(parse(pattern, false), literal);
    return split === null ? null : [split.before.op, split.after.op];
  };

  it('cuts the top-level concatenation at a run of literal characters holding the literal', () => {
    expect(show('function\\s+\\w+Sync\\b', 'Sync')).toEqual(['cat', 'assert']);
    expect(show('function\\s+\\w+Sync\\b', 'function')).toEqual(['empty', 'cat']);
    expect(show('a(b(Sync)c)d', 'Sync')).toEqual(['cat', 'cat']); // groups count as nothing
    expect(show('x+eSyncs', 'Sync')).toEqual(['cat', 'char']); // inside a longer run
  });

  it('refuses a literal that is not at one fixed place of every match', () => {
    expect(show('Sync|x', 'Sync')).toBeNull(); // in an alternation
    expect(show('a(Sync)+', 'Sync')).toBeNull(); // in a repetition
    expect(show('a(Sync)?', 'Sync')).toBeNull();
    expect(show('Sy\\bnc', 'Sync')).toBeNull(); // across an assertion
    expect(show('a(?i:Sync)', 'Sync')).toBeNull(); // folded
    expect(splitAround(parse('a\\w+Sync', true), 'Sync')).toBeNull();
    expect(show('a\\w+Sync', 'Snc')).toBeNull();
  });
});

describe('LiteralCut', () => {
  const atom = fc.constantFrom('a', 'b', 'é', '€', '\u{1f600}', '.', '\\w', '\\W', '\\s', '\\pL', '[^a]', '[é€]', ' ', '(?:a|é)', '\\x{fffd}');
  const quant = fc.constantFrom('', '', '*', '+', '?', '{2}');
  const assertion = fc.constantFrom('^', '$', '\\b', '\\B');
  const item = fc.oneof({ weight: 5, arbitrary: fc.tuple(atom, quant).map(([a, q]) => a + q) }, { weight: 1, arbitrary: assertion });
  const part = fc.array(item, { maxLength: 3 }).map((items) => items.join(''));
  const literal = fc.constantFrom('Sync', 'ab', 'é€', 'a', '\u{1f600}x', ' ');
  const piece = fc.oneof(
    fc.constantFrom('a', 'b', 'ab', 'Sync', 'é', '€', 'é€', '\u{1f600}', '\u{1f600}x', ' ', 'x_1', '\ufffd', '\n').map((s) => [...encoder.encode(s)]),
    fc.constantFrom(0x80, 0xbf, 0xc3, 0xe2, 0xed, 0xf0, 0xff).map((b) => [b]),
  );
  const line = fc.array(piece, { maxLength: 14 }).map((parts) => new Uint8Array(parts.flat()));

  it('says a line matches exactly when test() on the decoded line does, or INVALID only for malformed bytes', () => {
    fc.assert(
      fc.property(part, literal, part, line, line, line, (before, lit, after, context, body, rest) => {
        const pattern = `${before}${lit.replace('\u{1f600}', '\\x{1f600}')}${after}`;
        const linear = compileLinear(parse(pattern, false), Infinity);
        const cut = linear.cutAt(lit);
        expect(cut, pattern).not.toBeNull();
        // The line sits between other bytes, which must not count (its start is a line start).
        const b = new Uint8Array([...context, ...body, ...rest]);
        const got = lineAnswer(cut!, lit, b, context.length, context.length + body.length);
        const expected = linear.test(lenient.decode(body)) ? 1 : 0;
        const label = `/${pattern}/ on ${[...body]}`;
        if (isWellFormed(body)) expect(got, label).toBe(expected);
        else if (got !== INVALID) expect(got, label).toBe(expected);
      }),
      { numRuns: 5000, seed: 41 },
    );
  });

  it('is offered by regex matchers, for literals at one place, and finds what find() finds', () => {
    const m = compileLineMatcher('function\\s+\\w+Sync\\b');
    expect(m.cutAt!('Sync')).not.toBeNull();
    expect(m.cutAt!('function')).not.toBeNull();
    expect(compileLineMatcher('(?:x|y)Sync|Sync+z').cutAt!('Sync')).toBeNull();
    expect(compileLineMatcher('Sync').cutAt).toBeUndefined(); // a literal line always matches
    const text = `${'function(x) { return fs.readSync(x); } '.repeat(20)}é function readFileSync(p)`;
    for (const t of [text, text.slice(0, -12), `\u{1f600}${text}`]) {
      const b = encoder.encode(t);
      expect(lineAnswer(m.cutAt!('Sync')!, 'Sync', b, 0, b.length), t.slice(-20)).toBe(m.find(t) === null ? 0 : 1);
    }
  });
});

function isWellFormed(b: Uint8Array): boolean {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
}
