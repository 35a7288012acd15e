import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VfsError } from '../errors.ts';
import { applyEdit } from './apply-edit.ts';

/** The corrections edit_file tries, in order, when old_string is not found exactly. */

function fails(fn: () => unknown): VfsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VfsError);
    return e as VfsError;
  }
  throw new Error('expected a VfsError');
}

describe('line endings', () => {
  it('converts an LF old_string (and new_string) to a CRLF file, reporting it', () => {
    const out = applyEdit('one\r\ntwo\r\nthree\r\n', 'one\ntwo', 'uno\ndos');
    expect(out).toMatchObject({ text: 'uno\r\ndos\r\nthree\r\n', correction: 'line-endings', firstLine: 1, lastLine: 2 });
    expect(out.correctionNote).toMatch(/CRLF/);
  });

  it('converts a CRLF old_string to an LF file', () => {
    const out = applyEdit('one\ntwo\nthree\n', 'two\r\nthree', 'TWO\r\nTHREE');
    expect(out).toMatchObject({ text: 'one\nTWO\nTHREE\n', correction: 'line-endings' });
  });

  it('keeps untouched lines of a mixed-ending file byte-identical', () => {
    const text = 'lf1\ncrlf1\r\ncrlf2\r\nlf2\nlast';
    const out = applyEdit(text, 'crlf1\ncrlf2', 'new1\nnew2\nnew3');
    expect(out.text).toBe('lf1\nnew1\r\nnew2\r\nnew3\r\nlf2\nlast');
    expect(out.correction).toBe('line-endings');
  });

  it('converts new_string to CRLF even on an exact single-line match', () => {
    const out = applyEdit('a\r\nb\r\n', 'b', 'b1\nb2');
    expect(out).toMatchObject({ text: 'a\r\nb1\r\nb2\r\n', correction: null, firstLine: 2, lastLine: 3 });
    expect(applyEdit('a\nb\n', 'b', 'b1\r\nb2').text).toBe('a\nb1\nb2\n');
    expect(applyEdit('no breaks', 'breaks', 'x\r\ny').text).toBe('no x\r\ny'); // no convention to follow
  });

  it('does not double a CR when new_string starts at the LF of a CRLF', () => {
    expect(applyEdit('a\r\nb', '\nb', '\nc\nd').text).toBe('a\r\nc\r\nd');
  });

  it('refuses 2 matches (EAMBIGUOUS) but replace_all applies the lossless conversion to all', () => {
    const text = 'x\r\ny\r\nx\r\ny\r\n';
    const e = fails(() => applyEdit(text, 'x\ny', 'z'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toContain('not found exactly');
    expect(e.message).toContain('lines 1, 3');
    expect(applyEdit(text, 'x\ny', 'z', { replaceAll: true })).toMatchObject({ text: 'z\r\nz\r\n', count: 2, correction: 'line-endings' });
  });
});

describe('over-escaped strings', () => {
  it('unescapes \\n and \\" in old_string and new_string', () => {
    const text = 'print("hi")\nprint("there")\n';
    const out = applyEdit(text, 'print(\\"hi\\")\\nprint(\\"there\\")', 'print(\\"bye\\")\\nprint(\\"now\\")');
    expect(out).toMatchObject({ text: 'print("bye")\nprint("now")\n', correction: 'unescaped', firstLine: 1, lastLine: 2 });
    expect(out.correctionNote).toMatch(/unescap/);
  });

  it("unescapes \\t, \\' and \\\\", () => {
    const text = "\tx = 'a\\b'\n";
    expect(applyEdit(text, "\\tx = \\'a\\\\b\\'", "\\ty = \\'c\\'").text).toBe("\ty = 'c'\n");
  });

  it('keeps new_string as typed when it already has real line breaks', () => {
    const out = applyEdit('a\nb\n', 'a\\nb', 'log("x\\n")\nb');
    expect(out.text).toBe('log("x\\n")\nb\n');
    expect(out.correctionNote).toMatch(/kept as typed/);
  });

  it('combines with the file line endings', () => {
    expect(applyEdit('a\r\nb\r\n', 'a\\nb', 'c\\nd')).toMatchObject({ text: 'c\r\nd\r\n', correction: 'unescaped' });
  });

  it('refuses an unescaped old_string that matches twice', () => {
    const e = fails(() => applyEdit('"q"\n"q"\n', '\\"q\\"', 'r'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toMatch(/unescaping/);
    expect(fails(() => applyEdit('"q"\n"q"\n', '\\"q\\"', 'r', { replaceAll: true })).code).toBe('EAMBIGUOUS');
  });
});

describe('trailing whitespace', () => {
  it('matches when the file has trailing spaces old_string lacks', () => {
    const text = 'keep\nif (a) {  \n  go();\t\n}\nkeep\n';
    const out = applyEdit(text, 'if (a) {\n  go();\n}', 'if (b) {\n  stop();\n}');
    expect(out).toMatchObject({ text: 'keep\nif (b) {\n  stop();\n}\nkeep\n', correction: 'trailing-whitespace', firstLine: 2, lastLine: 4 });
  });

  it("lines new_string leaves as they were keep the file's trailing whitespace; only changed lines are rewritten", () => {
    const out = applyEdit('foo();  \nbar();\t\nbaz();\n', 'foo();\nbar();', 'FOO();\nbar();');
    expect(out).toMatchObject({ text: 'FOO();\nbar();\t\nbaz();\n', correction: 'trailing-whitespace' });
    expect(applyEdit('a  \nb \nc\t\n', 'a\nb\nc', 'a\nx\ny\nc').text).toBe('a  \nx\ny\nc\t\n');
  });

  it('matches when old_string has trailing spaces the file lacks, in a CRLF file', () => {
    const out = applyEdit('a\r\nb\r\nc\r\n', 'a  \nb \n', 'x\n');
    expect(out).toMatchObject({ text: 'x\r\nc\r\n', correction: 'trailing-whitespace' });
  });

  it("matches old_string's final newline against a file without one, and keeps it without one", () => {
    const out = applyEdit('a\nb  ', 'b\n', 'c\n');
    expect(out).toMatchObject({ text: 'a\nc', correction: 'trailing-whitespace' });
    expect(out.correctionNote).toMatch(/no final newline/);
  });

  it('refuses two matches', () => {
    const e = fails(() => applyEdit('x  \ny\nx \n', 'x\n', 'z\n'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toMatch(/trailing whitespace.*2 places.*lines 1, 3/);
    const all = fails(() => applyEdit('x  \ny\nx \n', 'x\n', 'z\n', { replaceAll: true }));
    expect(all.message).toMatch(/replace_all applies only to exact matches/);
  });

  it('accepts a first line copied without its indentation, keeping the indentation', () => {
    const out = applyEdit('x\n    if (a) {  \n      b();\n    }\n', 'if (a) {\n      b();\n    }', 'if (c) {\n      d();\n    }');
    expect(out).toMatchObject({ text: 'x\n    if (c) {\n      d();\n    }\n', correction: 'trailing-whitespace', firstLine: 2, lastLine: 4 });
  });

  it('needs old_string lines to be whole lines', () => {
    expect(fails(() => applyEdit('foo bar  \nbaz\n', 'bar\nbaz', 'x')).code).toBe('ENOMATCH');
  });
});

describe('indentation', () => {
  it('matches a uniform shift and re-indents new_string deeper', () => {
    const text = 'class A {\n    run() {\n        go();\n    }\n}\n';
    const out = applyEdit(text, 'run() {\n    go();\n}', 'run() {\n    stop();\n    go();\n}');
    expect(out.text).toBe('class A {\n    run() {\n        stop();\n        go();\n    }\n}\n');
    expect(out).toMatchObject({ correction: 'indentation', firstLine: 2, lastLine: 5 });
    // What was done to new_string: the first line sits after the file's indentation, the rest moved.
    expect(out.correctionNote).toBe(
      'Matched ignoring indentation (a line old_string indents with "    " is indented with "        " in the file); ' +
        "new_string's lines after the first were shifted 4 columns right; its first line goes after the file line's own indentation.",
    );
  });

  it('matches when old_string is indented more than the file', () => {
    const out = applyEdit('if x:\n  y()\n', '    if x:\n      y()', '    if z:\n      w()\n    done()');
    expect(out).toMatchObject({ text: 'if z:\n  w()\ndone()\n', correction: 'indentation' });
  });

  it('converts spaces to the file tabs (tab width 4)', () => {
    const text = 'f() {\n\tif (a) {\n\t\tb();\n\t}\n}\n';
    const out = applyEdit(text, '    if (a) {\n        b();\n    }', '    if (a) {\n        c();\n        b();\n    }');
    expect(out.text).toBe('f() {\n\tif (a) {\n\t\tc();\n\t\tb();\n\t}\n}\n');
    // Same depth (4 columns = 1 tab): nothing shifted, only the style changed.
    expect(out.correctionNote).toBe(
      'Matched ignoring indentation (a line old_string indents with "    " is indented with "\\t" in the file); ' +
        "new_string's lines were indented with tabs as the file is (tab width 4).",
    );
  });

  it('converts 2-space indentation to the file tabs (tab width 2)', () => {
    const text = 'x\n\tif (a) {\n\t\tb();\n\t}\n';
    const out = applyEdit(text, '  if (a) {\n    b();\n  }', '  if (a) {\n    c();\n  }');
    expect(out.text).toBe('x\n\tif (a) {\n\t\tc();\n\t}\n');
    expect(out.correctionNote).toMatch(/tab width 2/);
  });

  it('2-space steps become one tab a level even where old_string has no deeper line (tab width 2 first)', () => {
    const out = applyEdit('\tfoo();\n\tbar();\n', '  foo();\n  bar();', '  foo(1);\n  if (x) {\n    bar();\n  }');
    expect(out.text).toBe('\tfoo(1);\n\tif (x) {\n\t\tbar();\n\t}\n');
    expect(out.correctionNote).toMatch(/tab width 2/);
    // 4-space steps: one tab a level too.
    expect(applyEdit('\t\tfoo();\n', '    foo();', '    if (x) {\n        foo();\n    }').text).toBe('\t\tif (x) {\n\t\t\tfoo();\n\t\t}\n');
  });

  it('an edit of more lines than a call takes arguments (150,000) is re-indented, not a RangeError', () => {
    const n = 150_000;
    const text = `${Array.from({ length: n }, (_, i) => `\tline${i}`).join('\n')}\n`;
    const old = Array.from({ length: n }, (_, i) => `  line${i}`).join('\n');
    const out = applyEdit(text, old, old.replace('line0', 'LINE0'));
    expect(out.correction).toBe('indentation');
    expect(out.text).toBe(text.replace('line0', 'LINE0'));
  });

  it('the tab width follows the steps between indentations, not the indentation itself', () => {
    // "  " then "      ": one 4-space step from a 2-space start; the body goes one tab deeper, not two.
    const out = applyEdit('func f() {\n\t\tfoo();\n\t\tbar();\n}\n', '  foo();\n  bar();', '  if (x) {\n      foo();\n  }\n  bar();');
    expect(out.text).toBe('func f() {\n\t\tif (x) {\n\t\t\tfoo();\n\t\t}\n\t\tbar();\n}\n');
    // 2-space steps from a 2-space start: one tab a level.
    expect(applyEdit('func f() {\n\t\tfoo();\n}\n', '  foo();', '  if (x) {\n    foo();\n  }').text).toBe('func f() {\n\t\tif (x) {\n\t\t\tfoo();\n\t\t}\n}\n');
  });

  it('converts tabs to the file spaces', () => {
    const text = 'def f():\n    if a:\n        b()\n';
    const out = applyEdit(text, '\tif a:\n\t\tb()', '\tif a:\n\t\tc()\n\td()');
    expect(out.text).toBe('def f():\n    if a:\n        c()\n    d()\n');
  });

  it('keeps blank lines of old_string matching blank lines and leaves blank lines of new_string alone', () => {
    const text = '  a\n\n  b\n';
    expect(applyEdit(text, 'a\n\nb', 'c\n\nd').text).toBe('  c\n\n  d\n');
  });

  it('refuses a non-uniform shift', () => {
    expect(fails(() => applyEdit('  a\n    b\n  c\n', ' a\nb\nc', 'x')).code).toBe('ENOMATCH');
    expect(fails(() => applyEdit('  a\n    b\n  c\n', 'a\nb\nc', 'x')).code).toBe('ENOMATCH');
  });

  it('keeps the file indentation of a first line that old_string copied without it', () => {
    const text = 'fn() {\n\tif (a) {\n\t\tb();\n\t}\n}\n';
    const out = applyEdit(text, 'if (a) {\n        b();\n    }', 'if (z) {\n        b();\n        c();\n    }');
    expect(out).toMatchObject({ text: 'fn() {\n\tif (z) {\n\t\tb();\n\t\tc();\n\t}\n}\n', correction: 'indentation', firstLine: 2, lastLine: 5 });
  });

  it('refuses two matches with different shifts', () => {
    const e = fails(() => applyEdit('  x();\n    x();\n', '      x();', 'y();'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toMatch(/ignoring indentation, it matches 2 places/);
  });
});

// Each replacement line takes the ending of the file line it lands on; lines beyond the
// matched region's line breaks take its last one. Untouched lines stay byte-identical.
describe('mixed line endings', () => {
  it('trailing whitespace keeps each replaced line ending', () => {
    const lf = applyEdit('a\r\nb\nc\r\n', 'a\nb\nc', 'A\nB\nC'); // found by the whole-line match, not by the EOL variants
    expect(lf).toMatchObject({ text: 'A\r\nB\nC\r\n', correction: 'trailing-whitespace' });
    const crlf = applyEdit('p\nq\r\nr\ns\n', 'p \nq \nr', 'P\nQ\nR');
    expect(crlf).toMatchObject({ text: 'P\nQ\r\nR\ns\n', correction: 'trailing-whitespace' });
    expect(applyEdit('a\r\nb\nc\r\nd\n', 'a \nb\nc\n', 'X\nY\nZ\n').text).toBe('X\r\nY\nZ\r\nd\n');
  });

  it("extra lines take the region's last ending, fewer lines the first ones, as the line-endings correction does", () => {
    expect(applyEdit('a\r\nb\nc\r\n', 'a \nb', 'A\nB\nX').text).toBe('A\r\nB\r\nX\nc\r\n');
    expect(applyEdit('a\nb\r\nc\nd\n', 'a \nb \nc\n', 'X\nY\nZ\nW\n').text).toBe('X\nY\r\nZ\nW\nd\n');
    expect(applyEdit('a\r\nb\nc\r\nd\n', 'a \nb\nc\n', 'X\nY\n').text).toBe('X\r\nY\nd\n');
    expect(applyEdit('x\r\ny\nz', 'x\ny', 'X\nY\nW')).toMatchObject({ text: 'X\r\nY\r\nW\nz', correction: 'line-endings' });
  });

  it('indentation keeps each replaced line ending', () => {
    const out = applyEdit('f\n  a\r\n  b\n  c\r\ng\n', ' a\n b\n c', ' A\n B\n C');
    expect(out).toMatchObject({ text: 'f\n  A\r\n  B\n  C\r\ng\n', correction: 'indentation' });
  });

  it('over-escaped strings keep each replaced line ending', () => {
    const out = applyEdit('a\r\nb\nc\r\n', 'a\\r\\nb\\nc', 'A\\nB\\nC');
    expect(out).toMatchObject({ text: 'A\r\nB\nC\r\n', correction: 'unescaped' });
  });

  it('an exact match spanning mixed endings keeps them too', () => {
    expect(applyEdit('a\r\nb\nc\r\n', 'a\r\nb\nc', 'a\r\nB\nc').text).toBe('a\r\nB\nc\r\n');
  });

  it("keeps a new_string's final \\r before the file's \\n only where that line was CRLF", () => {
    expect(applyEdit('x\ny\r\n', 'x\ny\r', 'X\nY\r').text).toBe('X\nY\r\n');
    expect(applyEdit('x\r\ny\n', 'x\r\ny', 'X\nY\r').text).toBe('X\r\nY\n');
  });

  it('property: outside lines stay byte-identical, each replaced line keeps its ending', () => {
    const content = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀', '$'), maxLength: 6 });
    const eol = fc.constantFrom('\n', '\r\n');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(content, eol), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('', '\n', '\r\n'), // the last line's ending (none: no final newline)
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        fc.constantFrom('trailing-whitespace', 'indentation', 'unescaped'),
        fc.array(content, { minLength: 1, maxLength: 10 }),
        (rows, lastEol, a, b, withNl, mode, news) => {
          // A distinct capital first letter makes every line unique, even as a substring.
          const L = rows.map(([c], k) => 'ABCDEFGH'[k]! + c);
          const E = rows.map(([, e], k) => (k === rows.length - 1 ? lastEol : e));
          const i = a % L.length;
          const j = i + 1 + (b % (L.length - i));
          const breaks = E.slice(i, withNl ? j : j - 1);
          fc.pre(breaks.length > 0 && !breaks.includes(''));
          const text = L.map((l, k) => l + E[k]).join('');
          const M = news.map((m) => m.toLowerCase());
          const picked = L.slice(i, j);
          const oldString =
            mode === 'unescaped'
              ? picked.map((l, k) => l + (k < breaks.length ? breaks[k]!.replace('\r', '\\r').replace('\n', '\\n') : '')).join('')
              : picked.map((l) => (mode === 'indentation' ? `  ${l}` : `${l} `)).join('\n') + (withNl ? '\n' : '');
          const newString = M.join(mode === 'unescaped' ? '\\n' : '\n') + (withNl ? (mode === 'unescaped' ? '\\n' : '\n') : '');
          const repBreaks = M.length - 1 + (withNl ? 1 : 0);
          const middle = M.map((m, k) => m + (k < repBreaks ? (breaks[k] ?? breaks[breaks.length - 1]) : '')).join('');
          const prefix = L.slice(0, i)
            .map((l, k) => l + E[k])
            .join('');
          const suffix =
            (withNl ? '' : E[j - 1]) +
            L.slice(j)
              .map((l, k) => l + E[j + k])
              .join('');
          const out = applyEdit(text, oldString, newString);
          expect(out.correction).toBe(mode);
          expect(out.text).toBe(prefix + middle + suffix);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
