import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cpuClock } from '../../test/cpu-time.ts';
import { isVfsError, VfsError } from '../errors.ts';
import { applyEdit, type EditOutcome } from './apply-edit.ts';

function fails(fn: () => unknown): VfsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VfsError);
    return e as VfsError;
  }
  throw new Error('expected a VfsError');
}

describe('exact matching', () => {
  it('replaces a unique occurrence and reports the line range', () => {
    const out = applyEdit('a\nb\nc\n', 'b', 'B1\nB2');
    expect(out).toEqual<EditOutcome>({
      text: 'a\nB1\nB2\nc\n',
      count: 1,
      correction: null,
      correctionNote: null,
      firstLine: 2,
      lastLine: 3,
      replacedLines: [[2, 3]],
    });
  });

  it('keeps $&, $1, $$ and $` literally', () => {
    const text = 'const price = 1;\n';
    expect(applyEdit(text, '1', "$& $1 $$ $` $' $<n>").text).toBe("const price = $& $1 $$ $` $' $<n>;\n");
    expect(applyEdit('x', 'x', '$&$&', { replaceAll: true }).text).toBe('$&$&');
  });

  it('treats regex metacharacters in old_string literally', () => {
    expect(applyEdit('a.b a+b (x)', 'a+b (x)', 'ok').text).toBe('a.b ok');
  });

  it('edits at the start and at the end of a file', () => {
    expect(applyEdit('first\nmid\nlast', 'first', 'FIRST')).toMatchObject({ text: 'FIRST\nmid\nlast', firstLine: 1, lastLine: 1 });
    expect(applyEdit('first\nmid\nlast', 'last', 'LAST\nMORE')).toMatchObject({ text: 'first\nmid\nLAST\nMORE', firstLine: 3, lastLine: 4 });
    expect(applyEdit('abc', 'abc', '')).toMatchObject({ text: '', firstLine: 1, lastLine: 1 });
  });

  it('keeps the final-newline state unless the edit itself changes it', () => {
    expect(applyEdit('a\nb', 'b', 'c').text).toBe('a\nc');
    expect(applyEdit('a\nb\n', 'b', 'c').text).toBe('a\nc\n');
    expect(applyEdit('a\nb', 'b', 'c\n').text).toBe('a\nc\n'); // explicitly asked for
  });

  it('handles unicode (astral, combining, CJK) by code units without corruption', () => {
    const text = 'héllo 👋🏽 wörld\n日本語のテキスト\ne\u0301\n';
    expect(applyEdit(text, '👋🏽', '🌍').text).toBe('héllo 🌍 wörld\n日本語のテキスト\ne\u0301\n');
    expect(applyEdit(text, '日本語', '中文')).toMatchObject({ text: 'héllo 👋🏽 wörld\n中文のテキスト\ne\u0301\n', firstLine: 2, lastLine: 2 });
    expect(applyEdit(text, 'e\u0301', 'é').text.endsWith('\né\n')).toBe(true);
  });

  it('reports the line range of a deletion and of a trailing-newline replacement', () => {
    expect(applyEdit('a\nb\nc\nd\n', 'b\nc\n', '')).toMatchObject({ text: 'a\nd\n', firstLine: 2, lastLine: 2, replacedLines: [[2, 2]] });
    expect(applyEdit('a\nb\nc\n', 'b\n', 'x\ny\n')).toMatchObject({ text: 'a\nx\ny\nc\n', firstLine: 2, lastLine: 3 });
  });
});

describe('argument errors', () => {
  it('ENOCHANGE when old_string equals new_string', () => {
    const e = fails(() => applyEdit('abc', 'b', 'b'));
    expect(e.code).toBe('ENOCHANGE');
    expect(e.message).toMatch(/identical/);
  });

  it('ENOCHANGE when the strings differ only in line endings the file normalizes anyway', () => {
    expect(fails(() => applyEdit('a\r\nb\r\n', 'a\nb', 'a\r\nb')).code).toBe('ENOCHANGE');
  });

  it('EINVAL for an empty old_string, pointing to write_file', () => {
    const e = fails(() => applyEdit('abc', '', 'x'));
    expect(e.code).toBe('EINVAL');
    expect(e.message).toMatch(/write_file/);
    expect(fails(() => applyEdit('', '', 'x')).code).toBe('EINVAL');
  });
});

describe('EAMBIGUOUS and replace_all', () => {
  it('names the count and the starting lines', () => {
    const e = fails(() => applyEdit('x\ny\nx\nz\nx', 'x', 'w'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toContain('3 times');
    expect(e.message).toContain('lines 1, 3, 5');
    expect(e.message).toMatch(/replace_all=true/);
    expect(e.message).toMatch(/unchanged/);
    // Two matches on one line: the line once, with the count.
    expect(fails(() => applyEdit('aaaa\nb\naa', 'aa', 'x')).message).toContain('(starting at lines 1 (2 times), 3)');
  });

  it('caps the line list at 20', () => {
    const text = Array.from({ length: 25 }, () => 'dup').join('\n');
    const e = fails(() => applyEdit(text, 'dup', 'x'));
    expect(e.message).toContain('25 times');
    expect(e.message).toContain('20 and 5 more');
    expect(e.message).not.toContain(' 21,');
  });

  it('replace_all replaces every non-overlapping occurrence and spans the range', () => {
    const out = applyEdit('foo\nbar\nfoo\nbaz foo\n', 'foo', 'qux', { replaceAll: true });
    expect(out).toMatchObject({
      text: 'qux\nbar\nqux\nbaz qux\n',
      count: 3,
      firstLine: 1,
      lastLine: 4,
      replacedLines: [
        [1, 1],
        [3, 3],
        [4, 4],
      ],
    });
    expect(applyEdit('aaaa', 'aa', 'b', { replaceAll: true })).toMatchObject({ text: 'bb', count: 2 });
    expect(applyEdit('only one', 'one', 'two', { replaceAll: true }).count).toBe(1);
  });

  it('lastLine accounts for line count changes of earlier replacements', () => {
    const out = applyEdit('x\na\nx\n', 'x', 'l1\nl2\nl3', { replaceAll: true });
    expect(out.text).toBe('l1\nl2\nl3\na\nl1\nl2\nl3\n');
    expect(out).toMatchObject({
      firstLine: 1,
      lastLine: 7,
      replacedLines: [
        [1, 3],
        [5, 7],
      ],
    });
  });
});

describe('ENOMATCH', () => {
  const text = 'import x from "y";\n\nfunction computeTotal(items) {\n  return items.length;\n}\nconst totalItems = 3;\n';

  it('lists the closest lines with 1-based numbers, says unchanged, suggests read_file', () => {
    const e = fails(() => applyEdit(text, 'function computeTotals(items) {\n  return 0;\n}', 'x'));
    expect(e.code).toBe('ENOMATCH');
    expect(e.message).toContain('3: function computeTotal(items) {');
    expect(e.message).toMatch(/unchanged/);
    expect(e.message).toMatch(/read_file/);
  });

  it('orders candidates most similar first', () => {
    const e = fails(() => applyEdit(text, 'const total = items.length', 'x'));
    expect(e.message).toMatch(/6: const totalItems = 3;\n4: {3}return items\.length;/);
  });

  it('says when the first line matches and the difference is further down', () => {
    const e = fails(() => applyEdit(text, 'function computeTotal(items) {\n  return items.size;', 'x'));
    expect(e.message).toContain('matches line 3');
  });

  it('shows the first later line that departs from the file, beside the line the file has there', () => {
    const file = "function h(req, res) {\n  const user = getUser(req);\n  if (!user) {\n    return res.status(401).send('no');\n  }\n}\n";
    const e = fails(() => applyEdit(file, "  if (!user) {\n    return res.status(403).send('no');\n  }", 'x'));
    expect(e.message).toContain(
      "The first line of old_string matches line 3; the first line that differs is line 4:\n  old_string:     return res.status(403).send('no');\n  line 4:         return res.status(401).send('no');\n",
    );
    // Lines compared trimmed first: an indentation slip does not hide the line that really differs.
    const indented = fails(() => applyEdit(file, "  if (!user) {\n      return res.status(401).send('no');\n    }\n}\nmore", 'x'));
    expect(indented.message).toContain('The first line of old_string matches line 3, but old_string goes on past the end of the file with:\n  more\n');
    // A first line the file holds twice: the place that matches longest.
    const twice = fails(() => applyEdit('a {\n  b\n}\na {\n  c\n  d\n}\n', 'a {\n  c\n  e\n}', 'x'));
    expect(twice.message).toContain(
      'The first line of old_string matches line 4; the first line that differs is line 6:\n  old_string:   e\n  line 6:       d\n',
    );
  });

  it('finds the place among every line that equals the first line, prefers a place that differs in indentation alone, and names blank lines', () => {
    // The first line is the file's line 1, 5, 9, 13, 17, 21: the place meant is the fifth, past the 3 closest lines shown.
    const blocks = Array.from({ length: 6 }, (_, i) => `if (x) {\n  call${i}();\n  other${i}();\n}`).join('\n');
    expect(fails(() => applyEdit(`${blocks}\n`, 'if (x) {\n  call4();\n  other4X();\n}', 'x')).message).toContain(
      'The first line of old_string matches line 17; the first line that differs is line 19:\n  old_string:   other4X();\n  line 19:      other4();\n',
    );
    // Lines 5-8 differ from old_string in one line's indentation only: that place, not line 1's.
    expect(fails(() => applyEdit('a {\n  b\n  x\n}\na {\n  c\n      d\n}\n', 'a {\n  c\n  d\n}', 'x')).message).toContain(
      'The first line of old_string matches line 5; the first line that differs is line 7:\n  old_string:   d\n  line 7:           d\n',
    );
    // A blank line is named, not shown as nothing.
    expect(fails(() => applyEdit('one\n\ntwo\nthree\n', 'one\ntwo\nthree', 'x')).message).toContain(
      'the first line that differs is line 2:\n  old_string: two\n  line 2:     (an empty line)\n',
    );
    // Blank lines above the first line of the file: not "a later line".
    expect(fails(() => applyEdit('foo\nbar\nbaz\n', '\n\nfoo\nbar', 'x')).message).toContain(
      'The first line of old_string matches line 1, the first line of the file, but old_string starts with blank lines above it.',
    );
  });

  it('finds the departure fast when the first line is every line of a large file', () => {
    const file = `${'x\n'.repeat(100_000)}tail\n`;
    const cpu = cpuClock(); // not the wall clock: other processes of a loaded machine stretch that
    const e = fails(() => applyEdit(file, `${'x\n'.repeat(3000)}y\n`, 'q'));
    expect(cpu()).toBeLessThan(2000);
    expect(e.message).toContain('the first line that differs is line 3001:\n  old_string: y\n  line 3001:  x\n');
  });

  it('shows at most 3 candidates, and none when nothing is similar', () => {
    const many = Array.from({ length: 10 }, (_, i) => `value_${i} = compute(${i});`).join('\n');
    const e = fails(() => applyEdit(many, 'value_x = compute(y);', 'z'));
    expect(e.message.split('\n').filter((l) => / = compute\(/.test(l))).toHaveLength(3);
    expect(fails(() => applyEdit('alpha\nbeta\n', 'zzzz qqqq', 'x')).message).toMatch(/No line resembles/);
  });

  it('finds a short line with a typo, which no whole word of old_string is in, and only lines like it', () => {
    const e = fails(() => applyEdit('const baz = 1;\nlet abacus = 2;\nbaz\n', 'bax', 'y'));
    expect(e.message).toContain('Closest lines (most similar first):\n3: baz\n');
    expect(e.message).not.toContain('abacus'); // shares a piece ("ba"), but is not similar
    const typo = fails(() => applyEdit('export function renderWidget() {}\n', 'export function rendrWidgt() {}', 'y'));
    expect(typo.message).toContain('1: export function renderWidget() {}');
  });

  it('finds a line of one-character words (x = 2), which no word of two characters is in', () => {
    const e = fails(() => applyEdit('def f(n):\n    n = n + 1\n    x = 1\n    return n\n', '    x = 2', 'Q'));
    expect(e.message).toContain('Closest lines (most similar first):\n3:     x = 1\n');
    expect(fails(() => applyEdit('for i in r:\n  a + c\n', 'a + b', 'y')).message).toContain('Closest lines (most similar first):\n2:   a + c');
  });

  it('finds the near-identical line past the first 2000 lines: a rare token outranks common ones', () => {
    const lines = Array.from({ length: 2500 }, (_, i) => `const value_${i} = compute(${i});`).join('\n');
    const e = fails(() => applyEdit(lines, 'const value_2499 = compute(2498);', 'x'));
    expect(e.message).toContain('Closest lines (most similar first):\n2500: const value_2499 = compute(2499);\n');
    const items = Array.from({ length: 3000 }, (_, i) => `item ${i}`).join('\n');
    expect(fails(() => applyEdit(items, 'item 99999', 'x')).message).toMatch(/^\s*1000: item 999$/m);
  });

  it('an empty file matches nothing, and the one next step is to write it (no re-read)', () => {
    const e = fails(() => applyEdit('', 'x', 'y'));
    expect(e.code).toBe('ENOMATCH');
    expect(e.message).toBe('old_string was not found in the file (file unchanged).\nThe file is empty; use write_file to give it content.');
  });
});

// Big inputs: a quadratic search or candidate scan would take minutes on these and trip the
// test timeout. Speed itself is measured by the benchmark (edit_1000), never by a timed test.
describe('big files', () => {
  const line = 'const value = someFunction(argument1, argument2); // comment\n';
  const big = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length));

  it('one exact edit in a 5 MB file', { timeout: 20_000 }, () => {
    const text = `${big}UNIQUE_MARKER\n${big}`;
    const out = applyEdit(text, 'UNIQUE_MARKER', 'replaced');
    expect(out.firstLine).toBe(big.split('\n').length);
    expect(out.text).toBe(`${big}replaced\n${big}`);
  });

  it('ENOMATCH with candidates on a 10 MB file', { timeout: 20_000 }, () => {
    const text = big + big;
    const e = fails(() => applyEdit(text, '  const valu = someFunction(argument1, argument3);\n  next();', 'x'));
    expect(e.code).toBe('ENOMATCH');
    expect(e.message).toContain('1: const value');
  });
});

describe('properties', () => {
  const lineText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', 'é', '😀', '$', '&', '\\', '"'), maxLength: 12 });

  it('replacing a unique substring equals splicing it out', () => {
    fc.assert(
      fc.property(
        fc.array(lineText, { minLength: 1, maxLength: 8 }).map((ls) => ls.join('\n')),
        fc.nat(),
        fc.nat(),
        fc.array(lineText, { maxLength: 3 }).map((ls) => ls.join('\n')),
        (text, a, b, repl) => {
          const i = text.length === 0 ? 0 : a % text.length;
          const j = i + 1 + (b % Math.max(1, text.length - i));
          const sub = text.slice(i, j);
          fc.pre(sub.length > 0 && sub !== repl);
          fc.pre(text.indexOf(sub) === i && text.indexOf(sub, i + 1) === -1);
          const out = applyEdit(text, sub, repl);
          expect(out.text).toBe(text.slice(0, i) + repl + text.slice(j));
          expect(out.count).toBe(1);
          expect(out.correction).toBeNull();
          expect(out.firstLine).toBe(text.slice(0, i).split('\n').length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('in a CRLF file, the replacement gets CRLF and everything else stays byte-identical', () => {
    fc.assert(
      fc.property(
        fc.array(lineText, { minLength: 2, maxLength: 8 }).map((ls) => ls.join('\r\n')),
        fc.nat(),
        fc.nat(),
        fc.array(lineText, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('\n')),
        (text, a, b, repl) => {
          const i = a % text.length;
          const j = i + 1 + (b % Math.max(1, text.length - i));
          const sub = text.slice(i, j);
          fc.pre(text.indexOf(sub) === i && text.indexOf(sub, i + 1) === -1);
          fc.pre(!sub.endsWith('\r') && !sub.startsWith('\n'));
          const expected = text.slice(0, i) + repl.replaceAll('\n', '\r\n') + text.slice(j);
          fc.pre(expected !== text);
          expect(applyEdit(text, sub, repl).text).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws anything but a VfsError, and a failure is one of the documented codes', () => {
    const piece = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\\', 'n', '"'), maxLength: 30 });
    fc.assert(
      fc.property(piece, piece, piece, fc.boolean(), (text, oldString, newString, replaceAll) => {
        try {
          const out = applyEdit(text, oldString, newString, { replaceAll });
          expect(out.count).toBeGreaterThanOrEqual(1);
          expect(out.firstLine).toBeGreaterThanOrEqual(1);
          expect(out.lastLine).toBeGreaterThanOrEqual(out.firstLine);
          expect(out.lastLine).toBeLessThanOrEqual(out.text.split('\n').length);
        } catch (e) {
          expect(isVfsError(e)).toBe(true);
          expect(['ENOMATCH', 'EAMBIGUOUS', 'ENOCHANGE', 'EINVAL']).toContain((e as VfsError).code);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
