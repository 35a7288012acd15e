// Gemini CLI's own tests (packages/core/src/tools/omissionPlaceholderDetector.test.ts), ported.
import { describe, expect, it } from 'vitest';
import { omissionPlaceholders } from './omission-placeholders.ts';

describe('omissionPlaceholders (Gemini CLI’s detectOmissionPlaceholders)', () => {
  it('detects standalone placeholder lines', () => {
    expect(omissionPlaceholders('(rest of methods ...)')).toEqual(['rest of methods ...']);
    expect(omissionPlaceholders('(rest of code ...)')).toEqual(['rest of code ...']);
    expect(omissionPlaceholders('(unchanged code ...)')).toEqual(['unchanged code ...']);
    expect(omissionPlaceholders('// rest of methods ...')).toEqual(['rest of methods ...']);
  });

  it('detects case-insensitive placeholders', () => {
    expect(omissionPlaceholders('(Rest Of Methods ...)')).toEqual(['rest of methods ...']);
  });

  it('detects multiple placeholder lines in one input', () => {
    const text = 'class Example {\n  run() {}\n  (rest of methods ...)\n  (unchanged code ...)\n}';
    expect(omissionPlaceholders(text)).toEqual(['rest of methods ...', 'unchanged code ...']);
  });

  it('does not detect placeholders embedded in normal code', () => {
    expect(omissionPlaceholders('const note = "(rest of methods ...)";\nconsole.log(note);')).toEqual([]);
  });

  it('does not detect omission phrase when inline in a comment', () => {
    expect(omissionPlaceholders('return value; // rest of methods ...')).toEqual([]);
  });

  it('does not detect unrelated ellipsis text', () => {
    expect(omissionPlaceholders('const message = "loading...";')).toEqual([]);
  });

  // Beyond the vendor's tests: its rules for dots after the ellipsis, and for words around it.
  it('takes more dots after the ellipsis, and nothing else', () => {
    expect(omissionPlaceholders('// rest of code .....')).toEqual(['rest of code ...']);
    expect(omissionPlaceholders('// rest of code ... here')).toEqual([]);
    expect(omissionPlaceholders('// the rest of code ...')).toEqual([]);
    expect(omissionPlaceholders('//   Rest\tof   code ...\r\n')).toEqual(['rest of code ...']);
  });
});
