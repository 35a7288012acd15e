import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { VfsError } from '../errors.ts';
import { backtrackCost } from './analyze.ts';
import { compileLineMatcher, foldCase, REGEX_DIALECT_DESCRIPTION, type LineMatcherOptions } from './matcher.ts';
import { parseRe2 } from './syntax.ts';

const find = (pattern: string, line: string, options?: LineMatcherOptions) => compileLineMatcher(pattern, options).find(line);

function regexError(pattern: string, options?: LineMatcherOptions): VfsError {
  try {
    compileLineMatcher(pattern, options);
  } catch (e) {
    expect(e).toBeInstanceOf(VfsError);
    expect((e as VfsError).code).toBe('EREGEX');
    return e as VfsError;
  }
  throw new Error(`expected /${pattern}/ to be refused`);
}

describe('engine choice', () => {
  it.each([
    // No metacharacters once escapes are read: indexOf.
    ['foo', 'literal'],
    ['foo\\.bar\\(', 'literal'],
    ['\\Qa.b(\\E', 'literal'],
    ['[.]js', 'literal'],
    ['(?i)Foo', 'literal'],
    // Bounded backtracking: native.
    ['foo|bar', 'native'],
    ['TODO|FIXME', 'native'],
    ['^import', 'native'],
    ['\\bconst\\b', 'native'],
    ['\\w+Sync\\(', 'native'],
    ['function\\s+\\w+', 'native'],
    ['import .* from', 'native'],
    ['\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}', 'native'],
    ['(?:\\d{1,3}\\.){3}\\d{1,3}', 'native'],
    ['(?P<name>\\w+)\\(', 'native'],
    ['(?i)foo\\w+', 'native'],
    ['\\s+$', 'native'],
    ['^\\s*\\w+\\(', 'native'],
    // Exponential or high-degree backtracking, or syntax JS would read differently: re2js.
    ['(a+)+$', 'linear'],
    ['(x+x+)+y', 'linear'],
    ['(a|a)*b', 'linear'],
    ['(.*a){20}', 'linear'],
    ['.*a.*b', 'linear'],
    ['.*a.*a.*a.*b', 'linear'],
    ['(?:ab|cd)*x', 'linear'],
    ['(?:a|b){10}', 'native'], // 2^10 paths: native on lines up to 256 chars
    ['(?:a|b){20}', 'linear'],
    ['\\pL+', 'linear'],
    ['[[:alpha:]]+', 'linear'],
    ['a(?i)b', 'linear'],
    ['(?U)a+b', 'linear'],
    ['\\B', 'linear'],
  ])('/%s/ → %s', (pattern, engine) => {
    expect(compileLineMatcher(pattern).engine).toBe(engine);
  });

  it('a pattern every match of which needs a line break is refused (lines are searched one at a time), one that may not is kept', () => {
    for (const [pattern, options] of [
      ['foo\\nbar', {}],
      ['foo\\r?\\nbar', {}],
      ['foo\nbar', { fixedStrings: true }],
      ['(?i)A\\nB', {}],
    ] as const) {
      expect(regexError(pattern, options).message).toMatch(/holds a line break .* grep searches one line at a time/);
    }
    expect(find('a|\\n', 'xa')).not.toBeNull();
    expect(find('foo\\s+bar', 'foo  bar')).not.toBeNull();
  });

  it('fixed_strings is always literal, whatever the characters', () => {
    expect(compileLineMatcher('(a+)+$', { fixedStrings: true }).engine).toBe('literal');
    expect(compileLineMatcher('a.b(', { fixedStrings: true, ignoreCase: true }).engine).toBe('literal');
  });

  it('rates backtracking cost as paths × n^degree', () => {
    const cost = (p: string) => backtrackCost(parseRe2(p)!.root);
    expect(cost('foo|bar')).toEqual({ paths: 2, degree: 1 });
    expect(cost('\\w+x')).toEqual({ paths: 1, degree: 2 });
    expect(cost('^a*a*b')).toEqual({ paths: 1, degree: 2 });
    expect(cost('function\\s+\\w+')).toEqual({ paths: 1, degree: 2 }); // a trailing \w+ never gives back
    expect(cost('.*a.*b')).toEqual({ paths: 1, degree: 3 });
    expect(cost('\\d{1,3}x')).toEqual({ paths: 3, degree: 1 });
    expect(cost('(?:a?){3}')).toBeNull(); // can match empty: left to re2js
    expect(cost('(a+)+')).toBeNull();
    expect(cost('(a|b)*')).toBeNull();
  });

  it('runs lines past the native limit through re2js with the same answers', () => {
    const m = compileLineMatcher('\\w+x');
    expect(m.engine).toBe('native');
    for (const n of [10, 511, 512, 513, 5000]) {
      expect(m.find(`${' '.repeat(n)}abcx`)).toEqual({ index: n, length: 4 });
      expect(m.test(`${'a'.repeat(n)}!`)).toBe(false);
    }
  });
});

describe('required literals', () => {
  it.each([
    ['\\w+Sync\\(', ['Sync(']],
    ['function\\s+\\w+', ['function']],
    ['foo|bar', []],
    ['foo(bar)?baz', ['foo', 'baz']],
    ['foo(bar)baz', ['foobarbaz']],
    ['ab+c', ['ab', 'bc']],
    ['a{3}b', ['aaab']],
    ['x*y?', []],
    ['\\bfoo\\b', ['foo']],
    ['^import .* from', ['import ', ' from']],
    ['[.]js$', ['.js']],
    ['\\pL+', []],
    ['a', ['a']],
  ])('/%s/ → %j', (pattern, literals) => {
    expect(compileLineMatcher(pattern).requiredLiterals).toEqual(literals);
  });

  it('are case-folded when ignoreCase is set', () => {
    expect(compileLineMatcher('Foo\\w+BAR', { ignoreCase: true }).requiredLiterals).toEqual(['foo', 'bar']);
    expect(compileLineMatcher('\u03a3\u039f\u03a3', { ignoreCase: true }).requiredLiterals).toEqual(['\u03c3\u03bf\u03c3']);
    expect(compileLineMatcher('Foo.Bar', { fixedStrings: true, ignoreCase: true }).requiredLiterals).toEqual(['foo.bar']);
  });

  it('are withheld when only an inline (?i) makes the match case-insensitive', () => {
    expect(compileLineMatcher('(?i)Foo\\w+').requiredLiterals).toEqual([]);
    expect(compileLineMatcher('(?i)Foo').requiredLiterals).toEqual([]);
    expect(compileLineMatcher('(?i)Foo\\w+', { ignoreCase: true }).requiredLiterals).toEqual(['foo']);
  });

  it('never reject a line the regex matches (pre-filter soundness)', () => {
    // Pre-filter says no only when the regex would: compare with re2js directly.
    const lines = ['fooSync(', 'FOOSYNC(', 'a \u03c2 b', '\u017fync(', 'Sync (', 'xSync(y'];
    for (const pattern of ['\\w+Sync\\(', 'sync\\(', '\u03c3', 'a \u03a3']) {
      for (const ignoreCase of [false, true]) {
        const m = compileLineMatcher(pattern, { ignoreCase });
        const re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
        for (const line of lines) expect(m.test(line), `/${pattern}/ ${ignoreCase} ${line}`).toBe(re.test(line));
      }
    }
  });
});

describe('matching', () => {
  it('anchors ^ and $ at the start and end of the line', () => {
    expect(find('^foo', 'foo bar')).toEqual({ index: 0, length: 3 });
    expect(find('^foo', ' foo')).toBeNull();
    expect(find('bar$', 'foo bar')).toEqual({ index: 4, length: 3 });
    expect(find('bar$', 'bar foo')).toBeNull();
    expect(find('^$', '')).toEqual({ index: 0, length: 0 });
    expect(find('^\\s*$', '   ')).toEqual({ index: 0, length: 3 });
  });

  it('reports UTF-16 offsets on every engine', () => {
    const line = '\ud83d\ude00 caf\u00e9 \ud83d\ude00x';
    expect(find('caf\u00e9', line)).toEqual({ index: 3, length: 4 });
    expect(find('.x', line)).toEqual({ index: 8, length: 3 });
    expect(find('(?:a|\u00e9)+ ', line)).toEqual({ index: 6, length: 2 });
    expect(find('\\pL+', line)).toEqual({ index: 3, length: 4 });
  });

  it('follows RE2 where JavaScript differs: \\s, ., \\b with ignoreCase', () => {
    expect(compileLineMatcher('a\\sb').test('a\u000bb')).toBe(false); // RE2's \s has no \v
    expect(compileLineMatcher('a\\sb').test('a\u00a0b')).toBe(false);
    expect(compileLineMatcher('a.b').test('a\rb')).toBe(true); // JS's . stops at \r
    expect(compileLineMatcher('a.b').test('a\u2028b')).toBe(true);
    expect(compileLineMatcher('\\bs', { ignoreCase: true }).test('\u017f')).toBe(false);
    expect(compileLineMatcher('\\bs', { ignoreCase: true }).find('\u017f s')).toEqual({ index: 2, length: 1 });
  });

  it('ignores case on every engine', () => {
    expect(find('hello', 'say HeLLo', { ignoreCase: true })).toEqual({ index: 4, length: 5 });
    expect(find('h.llo', 'say HeLLo', { ignoreCase: true })).toEqual({ index: 4, length: 5 });
    expect(find('(h+)+ello', 'say HHello', { ignoreCase: true })).toEqual({ index: 4, length: 6 });
    expect(find('\u03c3\u03bf', '\u03a3\u039f \u03c2\u03bf', { ignoreCase: true })).toEqual({ index: 0, length: 2 });
    expect(find('\u03c3\u03bf', '\u03c2\u03bf', { ignoreCase: true })).toEqual({ index: 0, length: 2 });
    expect(find('\u03c3\u03bf', '\u03c2\u03bf', { ignoreCase: true, fixedStrings: true })).toEqual({ index: 0, length: 2 });
    expect(find('hello', 'HELLO')).toBeNull();
  });

  it('keeps offsets exact around \u0130, whose lowercase is longer', () => {
    expect(find('x', '\u0130\u0130x', { ignoreCase: true })).toEqual({ index: 2, length: 1 });
    expect(find('i', '\u0130', { ignoreCase: true })).toBeNull(); // RE2 does not fold İ to i
    expect(find('\u0130x', 'a\u0130X', { ignoreCase: true, fixedStrings: true })).toEqual({ index: 1, length: 2 });
  });

  it('treats fixed strings literally', () => {
    const m = compileLineMatcher('a.b(', { fixedStrings: true });
    expect(m.find('xx a.b( yy')).toEqual({ index: 3, length: 4 });
    expect(m.test('axb(')).toBe(false);
    expect(m.requiredLiterals).toEqual(['a.b(']);
    expect(find('(a+)+$', 'x (a+)+$ y', { fixedStrings: true })).toEqual({ index: 2, length: 6 });
    expect(find('A.B(', 'xx a.b( yy', { fixedStrings: true, ignoreCase: true })).toEqual({ index: 3, length: 4 });
    expect(find('\\1', 'a\\1', { fixedStrings: true })).toEqual({ index: 1, length: 2 });
  });
});

describe('errors', () => {
  it('refuses an empty pattern', () => {
    expect(regexError('').message).toMatch(/empty/);
    expect(regexError('', { fixedStrings: true }).message).toMatch(/empty/);
  });

  it('names unbalanced parentheses and brackets, and where they are', () => {
    expect(regexError('foo(bar').message).toMatch(/unbalanced parenthesis: the "\(" at character 4 is never closed.*\\\(/);
    expect(regexError('foo)bar').message).toMatch(/the "\)" at character 4 has no matching "\("/);
    expect(regexError('(a)(b').message).toMatch(/at character 4/);
    expect(regexError('a[bc').message).toMatch(/"\[" at character 2 is never closed/);
    expect(regexError('[(]x(').message).toMatch(/at character 5/); // the ( in the class does not count
  });

  it('says backreferences are not supported and what to do', () => {
    const message = regexError('(a)\\1').message;
    expect(message).toContain('backreferences');
    expect(message).toContain('\\1 at character 4');
    expect(message).toContain('not supported by the linear-time regex engine; use fixed_strings or rewrite the pattern');
    expect(regexError('\\k<x>').message).toContain('backreferences');
  });

  it('says lookaround is not supported', () => {
    for (const [pattern, op] of [
      ['foo(?=bar)', '(?='],
      ['(?!x)y', '(?!'],
      ['(?<=a)b', '(?<='],
      ['(?<!a)b', '(?<!'],
    ]) {
      const message = regexError(pattern!).message;
      expect(message).toContain(`lookahead and lookbehind assertions (${op}`);
      expect(message).toContain('use fixed_strings or rewrite the pattern');
    }
  });

  it('explains other syntax errors', () => {
    expect(regexError('a**').message).toMatch(/nested repetition operator "\*\*" at character 2: .*group it first: \(\?:a\*\)\*\)\.$/);
    expect(regexError('*a').message).toMatch(/nothing to repeat/);
    expect(regexError('a{2,1}').message).toMatch(/invalid repeat count \{2,1\}/);
    expect(regexError('a{1001}').message).toMatch(/repetition count 1001 in \{1001\} at character 2 exceeds 1000/);
    expect(regexError('a\\').message).toMatch(/lone backslash/);
    expect(regexError('\\u0041').message).toMatch(/unknown escape \\u at character 1: .* Write \\u0041 as \\x\{0041\}\.$/);
    expect(regexError('[z-a]').message).toMatch(/range z-a/);
    expect(regexError('(?>a)').message).toMatch(/unsupported group syntax/);
    expect(regexError('(?P<a>x)(?P<a>y)').message).toMatch(/duplicate capture group name/);
  });

  it('names the actual mistake, with one way to fix it and no advice that contradicts the pattern', () => {
    // A class cannot end a range: not an "unknown escape \d" (which then suggested \d).
    expect(regexError('[a-\\d]').message).toBe(
      'Invalid regex "[a-\\\\d]": invalid character class range a-\\d at character 2: a range runs between two single characters, and \\d is a class. To match "a", "-" or \\d, move the "-" to the end of the class or escape it (\\-).',
    );
    // The class may hold more than the range: no rewritten class that would drop the rest of it.
    expect(regexError('[xa-\\dy]').message).not.toMatch(/\[a\\d-\]/);
    // A repeated repetition with no single item before it gets an example, not a placeholder.
    expect(regexError('(ab)**').message).toMatch(/group it first: as in \(\?:a\*\)\*\)\.$/);
    expect(regexError('[a-\\p{Greek}]').message).toContain('and \\p{Greek} is a class');
    // Two counts in a row are a nested repetition, not a possessive quantifier; a++ is.
    const twice = regexError('x{1}{2}').message;
    expect(twice).toMatch(/nested repetition operator "\{1\}\{2\}" at character 2: .*\(\?:x\{1\}\)\{2\}/);
    expect(twice).not.toMatch(/possessive/);
    expect(regexError('a++').message).toMatch(/no possessive quantifiers such as a\+\+\. Drop the last "\+"\.$/);
    expect(regexError('\\y').message).toMatch(/unknown escape \\y .*To match "y" itself, remove the backslash\.$/);
    expect(regexError('\\xZZ').message).toMatch(/invalid hex escape \\xZ .*\(\\x\{263A\}\)\.$/);
    // The engine offers no fixed_strings: the grep tool adds it only where the text as typed is found.
    for (const p of ['\\u0041', '\\y', '(?>a)', '\\pX', 'a**', '[a-\\d]']) expect(regexError(p).message, p).not.toMatch(/fixed_strings|Check the syntax/);
  });

  it('refuses patterns over the instruction budget, and takes the large ones RE2 takes', () => {
    expect(regexError('a{1000}'.repeat(110)).message).toMatch(/compiles to 110,001 instructions, over the [\d,]+-instruction budget.*Split it/);
    expect(compileLineMatcher('a{0,1000}a{0,1000}b').engine).toBe('linear');
    expect(compileLineMatcher('\\w{1,400}=').engine).toBe('native');
    expect(compileLineMatcher('ab'.repeat(1500)).engine).toBe('literal'); // literals are not limited
  });

  it('puts every error message on the EREGEX code', () => {
    const e = regexError('(');
    expect(e.toJSON()).toMatchObject({ name: 'VfsError', code: 'EREGEX' });
    expect(e.message.startsWith('Invalid regex "("')).toBe(true);
  });
});

describe('foldCase', () => {
  it('keeps the length and folds what case-insensitive matching treats as equal', () => {
    const pairs = [
      ['S', '\u017f'],
      ['\u03c3', '\u03c2'],
      ['\u03b8', '\u03d1'],
      ['\u00b5', '\u03bc'],
      ['k', '\u212a'],
      ['\u00e9', '\u00c9'],
      ['\u0442', '\u1c84'],
    ];
    for (const [a, b] of pairs) {
      expect(foldCase(a!)).toBe(foldCase(b!));
      expect(RE2JS.compile(a!, RE2JS.CASE_INSENSITIVE).test(b!)).toBe(true); // RE2 agrees they are equal
    }
    for (const s of ['ABC', '\u0130stanbul', '\u03a3\u039f\u03a3', '\ud801\udc00']) expect(foldCase(s).length).toBe(s.length);
  });

  it('agrees with /x/iu for every pair a case mapping relates', () => {
    const esc = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    for (let cp = 0; cp < 0x20000; cp++) {
      if (cp >= 0xd800 && cp < 0xe000) continue;
      const c = String.fromCodePoint(cp);
      for (const d of [c.toLowerCase(), c.toUpperCase(), c.toUpperCase().toLowerCase()]) {
        if (d === c || [...d].length !== 1) continue;
        if (new RegExp(`^${esc(c)}$`, 'iu').test(d)) expect(foldCase(d), `U+${cp.toString(16)}`).toBe(foldCase(c));
      }
    }
  });
});

it('describes the dialect in one sentence', () => {
  expect(REGEX_DIALECT_DESCRIPTION).toMatch(/RE2/);
  expect(REGEX_DIALECT_DESCRIPTION).toMatch(/backreferences and lookaround are not supported/);
  expect(REGEX_DIALECT_DESCRIPTION.trim().split(/\.\s/).length).toBe(1);
});
