// Reading code points from UTF-8 bytes must agree with the WHATWG decoder exactly, and the
// DFA's byte test with its test() on the decoded line: grep skips decoding long lines on it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLinear } from './linear.ts';
import { compileLineMatcher } from './matcher.ts';
import { parse } from './parse.ts';
import { INVALID, utf8At, utf8Before } from './utf8.ts';

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** Bytes near every edge of the encoding: ASCII, leads, continuations, overlongs, surrogates, > U+10FFFF. */
const edgyByte = fc.constantFrom(
  0x00,
  0x0a,
  0x41,
  0x7f,
  0x80,
  0x8f,
  0x90,
  0x9f,
  0xa0,
  0xbf,
  0xc0,
  0xc1,
  0xc2,
  0xdf,
  0xe0,
  0xe1,
  0xed,
  0xee,
  0xef,
  0xf0,
  0xf1,
  0xf4,
  0xf5,
  0xff,
);
const encoded = fc
  .string({ unit: fc.constantFrom('a', 'é', '\u0800', '\uffff', '\ud7ff', '\ue000', '\u{10000}', '\u{10ffff}', '€', '\n'), maxLength: 4 })
  .map((s) => [...encoder.encode(s)]);
const bytes = fc
  .array(
    fc.oneof(
      edgyByte.map((b) => [b]),
      encoded,
    ),
    { maxLength: 12 },
  )
  .map((parts) => new Uint8Array(parts.flat()));

/** The code points read from b[start, end) one by one, or null at the first INVALID. */
function readAll(b: Uint8Array, start: number, end: number): number[] | null {
  const cps: number[] = [];
  for (let i = start; i < end; ) {
    const read = utf8At(b, i, end);
    if (read === INVALID) return null;
    cps.push(read >> 3);
    i += read & 7;
  }
  return cps;
}

function decodesStrictly(b: Uint8Array): string | null {
  try {
    return fatal.decode(b);
  } catch {
    return null;
  }
}

describe('utf8At / utf8Before', () => {
  it('read exactly what a strict decoder accepts, code point by code point', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const cps = readAll(b, 0, b.length);
        const text = decodesStrictly(b);
        expect(cps === null, `${[...b]}`).toBe(text === null);
        if (cps !== null) expect(String.fromCodePoint(...cps)).toBe(text);
      }),
      { numRuns: 5000, seed: 31 },
    );
  });

  it('utf8Before gives the code point ending at each boundary, never reading before start', () => {
    fc.assert(
      fc.property(bytes, bytes, (before, line) => {
        const b = new Uint8Array([...before, ...line]);
        const start = before.length;
        const cps = readAll(b, start, b.length);
        fc.pre(cps !== null);
        let at = start;
        for (const cp of cps!) {
          at += encoder.encode(String.fromCodePoint(cp)).length;
          expect(utf8Before(b, start, at)).toBe(cp);
        }
      }),
      { numRuns: 3000, seed: 32 },
    );
  });

  it('refuses the classic malformed sequences', () => {
    for (const bad of [
      [0x80],
      [0xc0, 0x80],
      [0xc1, 0xbf],
      [0xe0, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x80, 0x80, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf5, 0x80, 0x80, 0x80],
      [0xe2, 0x82],
      [0xc3],
    ]) {
      expect(utf8At(Uint8Array.from(bad), 0, bad.length), `${bad}`).toBe(INVALID);
    }
    expect(utf8At(Uint8Array.from([0xe2, 0x82, 0xac]), 0, 2)).toBe(INVALID); // cut by end
    expect(utf8At(Uint8Array.from([0xf4, 0x8f, 0xbf, 0xbf]), 0, 4)).toBe((0x10ffff << 3) | 4);
    expect(utf8Before(Uint8Array.from([0x61, 0xa9]), 0, 2)).toBe(INVALID); // a stray continuation
    expect(utf8Before(Uint8Array.from([0xc3, 0xa9]), 1, 2)).toBe(INVALID); // its lead is before start
  });
});

describe('testUtf8', () => {
  const atom = fc.constantFrom('a', 'b', 'é', '€', '\u{1f600}', '.', '\\w', '\\W', '\\s', '\\pL', '[^a]', '[é€]', 'fu', 'Sync', ' ', '\\x{fffd}');
  const quant = fc.constantFrom('', '', '*', '+', '?', '{2}');
  const assertion = fc.constantFrom('^', '$', '\\b', '\\B');
  const item = fc.oneof({ weight: 5, arbitrary: fc.tuple(atom, quant).map(([a, q]) => a + q) }, { weight: 1, arbitrary: assertion });
  // Half the patterns start with a literal, so the prefix skip runs.
  const pattern = fc.tuple(fc.constantFrom('', '', 'fu', 'é', 'Sync'), fc.array(item, { minLength: 1, maxLength: 4 })).map(([p, items]) => p + items.join(''));
  const piece = fc.oneof(
    fc.constantFrom('a', 'b', 'fu', 'Sync', 'é', '€', '\u{1f600}', ' ', 'x_1', '\ufffd').map((s) => [...encoder.encode(s)]),
    edgyByte.map((b) => [b]),
  );
  const line = fc.array(piece, { maxLength: 16 }).map((parts) => new Uint8Array(parts.flat()));

  it('equals test() on the decoded line, or says INVALID only for malformed bytes', () => {
    fc.assert(
      fc.property(pattern, fc.boolean(), line, line, line, (pat, ignoreCase, before, body, after) => {
        const linear = compileLinear(parse(pat, ignoreCase), Infinity);
        // The line sits between other bytes, which must not count (its start is a line start).
        const b = new Uint8Array([...before, ...body, ...after]);
        const start = before.length;
        const end = start + body.length;
        const got = linear.testUtf8(b, start, end);
        const expected = linear.test(lenient.decode(body)) ? 1 : 0;
        const context = `/${pat}/${ignoreCase ? 'i' : ''} on ${[...body]}`;
        if (decodesStrictly(body) !== null) expect(got, context).toBe(expected);
        else expect([expected, INVALID], context).toContain(got);
      }),
      { numRuns: 4000, seed: 33 },
    );
  });

  it('is offered by regex matchers only, with the same answers as find()', () => {
    expect(compileLineMatcher('Sync', {}).testUtf8).toBeUndefined();
    const m = compileLineMatcher('function\\s+\\w+Sync\\b');
    const long = `${'function(x) { return readSync; } '.repeat(20)}é function readFileSync(p)`;
    for (const text of [long, long.slice(0, -12), `\u{1f600}${long}`]) {
      const b = encoder.encode(text);
      expect(m.testUtf8!(b, 0, b.length), text.slice(-20)).toBe(m.find(text) === null ? 0 : 1);
    }
  });
});
