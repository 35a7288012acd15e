// The note an edit returns says every correction it needed, and describes what was done to new_string.
import { describe, expect, it } from 'vitest';
import { applyEdit } from './apply-edit.ts';

const EOLS_NOTE = "Line endings were converted too: old_string's \\n (LF) to the file's \\r\\n (CRLF), and new_string's the same way.";

describe('an edit corrected in two ways says both', () => {
  it('indentation and line endings: an LF old_string, indented differently, in a CRLF file', () => {
    const out = applyEdit('if x:\r\n    y()\r\n    z()\r\n', '  y()\n  z()', '  y()\n  w()');
    expect(out).toMatchObject({ text: 'if x:\r\n    y()\r\n    w()\r\n', correction: 'indentation' });
    expect(out.correctionNote).toBe(
      'Matched ignoring indentation (a line old_string indents with "  " is indented with "    " in the file); ' +
        `new_string's lines were shifted 2 columns right. ${EOLS_NOTE}`,
    );
  });

  it('trailing whitespace and line endings', () => {
    const out = applyEdit('a\r\nb\r\nc\r\n', 'a  \nb', 'A\nB');
    expect(out).toMatchObject({ text: 'A\r\nB\r\nc\r\n', correction: 'trailing-whitespace' });
    expect(out.correctionNote).toMatch(/ignoring trailing whitespace.*Line endings were converted too/);
  });

  it('unescaping and line endings: \\n sequences matched CRLF breaks', () => {
    const out = applyEdit('one\r\ntwo\r\n', 'one\\ntwo', 'uno\\ndos');
    expect(out).toMatchObject({ text: 'uno\r\ndos\r\n', correction: 'unescaped' });
    expect(out.correctionNote).toMatch(new RegExp(`^Matched after unescaping .* ${EOLS_NOTE.replace(/[\\()]/g, '\\$&')}$`));
  });

  it('a CRLF old_string in an LF file says the reverse', () => {
    const out = applyEdit('x\n  a\n  b\n', 'a\r\nb', 'a\r\nc');
    expect(out.text).toBe('x\n  a\n  c\n');
    expect(out.correctionNote).toMatch(/old_string's \\r\\n \(CRLF\) to the file's \\n \(LF\)/);
  });

  it('in a file that mixes endings it names the matched lines\' endings, not "the file\'s"', () => {
    const out = applyEdit('head\nx\r\ny\r\ntail\n', 'x\ny', 'x\nz');
    expect(out.text).toBe('head\nx\r\nz\r\ntail\n');
    expect(out.correctionNote).toBe(
      "Matched after converting old_string's \\n (LF) line endings to \\r\\n (CRLF), as the matched lines end; new_string was converted the same way.",
    );
  });

  it('one correction alone says only that one', () => {
    expect(applyEdit('if x:\n    y()\n', '      y()', '      z()').correctionNote).toMatch(/^Matched ignoring indentation [\s\S]*left\.$/);
    expect(applyEdit('one\r\ntwo\r\n', 'one\ntwo', 'uno\ndos').correctionNote).toMatch(/^Matched after converting old_string's \\n \(LF\)/);
  });
});

describe('the indentation note describes what was shifted', () => {
  it('a shift of whole tabs in a tab-indented file is told in tabs', () => {
    const out = applyEdit('f {\n\t\tg()\n\t\th()\n}\n', '\tg()\n\th()', '\tg()\n\tk()');
    expect(out.text).toBe('f {\n\t\tg()\n\t\tk()\n}\n');
    expect(out.correctionNote).toBe(
      'Matched ignoring indentation (a line old_string indents with "\\t" is indented with "\\t\\t" in the file); ' +
        "new_string's lines were shifted 1 tab right.",
    );
  });

  it('spaces turned into tabs with a shift: both, with the tab width', () => {
    const out = applyEdit('f {\n\t\tg()\n}\n', '  g()', '  k()');
    expect(out.text).toBe('f {\n\t\tk()\n}\n');
    // (Typed with 2-space steps: a tab is 2 columns, so "  " is one level and the shift one tab.)
    expect(out.correctionNote).toMatch(/shifted 1 tab right and indented with tabs as the file is \(tab width 2\)\.$/);
  });

  it('old_string indented more than the file: shifted left', () => {
    const out = applyEdit('if x:\n  y()\n', '      y()', '      z()');
    expect(out.text).toBe('if x:\n  z()\n');
    expect(out.correctionNote).toMatch(/" {6}" is indented with " {2}" in the file\); new_string's lines were shifted 4 columns left\.$/);
  });
});
