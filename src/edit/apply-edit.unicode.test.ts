import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VfsError } from '../errors.ts';
import { applyEdit } from './apply-edit.ts';
import { foldPunctuation } from './fix-unicode-punctuation.ts';
import { stripLineNumbers } from './fix-line-numbers.ts';
import { isWellFormed } from '../text.ts';

/** The corrections added for what models get wrong in old_string: pasted line numbers, typography, normalization. */

function fails(fn: () => unknown): VfsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(VfsError);
    return e as VfsError;
  }
  throw new Error('expected a VfsError');
}

describe('line-number prefixes pasted from read_file', () => {
  const text = 'alpha\nbeta\ngamma\ndelta\n';

  it('strips padded cat -n prefixes from old_string and new_string', () => {
    const out = applyEdit(text, '     2\tbeta\n     3\tgamma', '     2\tBETA\n     3\tGAMMA');
    expect(out).toMatchObject({ text: 'alpha\nBETA\nGAMMA\ndelta\n', correction: 'line-numbers', firstLine: 2, lastLine: 3 });
    expect(out.correctionNote).toContain("new_string's were removed the same way");
  });

  it('strips unpadded prefixes and arrow prefixes, keeping an unprefixed new_string as typed', () => {
    expect(applyEdit(text, '2\tbeta\n3\tgamma', 'B\nG').text).toBe('alpha\nB\nG\ndelta\n');
    const out = applyEdit(text, '3→gamma', '3 gamma');
    expect(out.text).toBe('alpha\nbeta\n3 gamma\ndelta\n');
    expect(out.correctionNote).toContain('new_string was kept as typed');
  });

  it('matches a CRLF file after stripping', () => {
    expect(applyEdit('a\r\nb\r\nc\r\n', '1\ta\n2\tb', 'x\ny').text).toBe('x\r\ny\r\nc\r\n');
  });

  it('leaves text alone unless every line is prefixed and the numbers run on', () => {
    expect(stripLineNumbers('  10\tx\n  11\ty\n')).toBe('x\ny\n');
    expect(stripLineNumbers('10\tx\n12\ty')).toBeNull(); // a gap: not a pasted page
    expect(stripLineNumbers('10\tx\ny')).toBeNull();
    expect(stripLineNumbers('version 2')).toBeNull();
    expect(fails(() => applyEdit(text, '2\tbeta\n4\tgamma', 'x')).code).toBe('ENOMATCH');
  });

  it('joins the N.k continuation rows of a long line', () => {
    expect(stripLineNumbers('     7\tabc\n   7.1\tdef\n     8\tghi')).toBe('abcdef\nghi');
  });

  it('is EAMBIGUOUS when the stripped text matches twice', () => {
    const e = fails(() => applyEdit('x\ny\nx\n', '1\tx', 'z'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toContain("after removing read_file's line-number prefixes, it matches 2 places (starting at lines 1, 3)");
  });
});

describe('typographic quotes, dashes and Unicode spaces', () => {
  it('matches ASCII quotes against curly ones and keeps the file’s quotes outside the change', () => {
    const text = 'title: “Hello” world\nnext\n';
    const out = applyEdit(text, 'title: "Hello" world', 'title: "Hello" there');
    expect(out).toMatchObject({ text: 'title: “Hello” there\nnext\n', correction: 'unicode-punctuation' });
    expect(out.correctionNote).toContain('typographic quotes');
  });

  it('matches curly quotes and dashes in old_string against an ASCII file', () => {
    const text = "const s = 'it's - fine';\n";
    expect(applyEdit(text, 'const s = ‘it’s — fine’;', 'const s = "ok";').text).toBe('const s = "ok";\n');
  });

  it('matches a plain space against a non-breaking one, and takes new_string where it differs', () => {
    const text = 'price:\u00A0100\u202Feuros\n';
    const out = applyEdit(text, 'price: 100 euros', 'price: 200 euros');
    // The common prefix "price: " and suffix " euros" keep the file's no-break spaces.
    expect(out.text).toBe('price:\u00A0200\u202Feuros\n');
  });

  it('is EAMBIGUOUS when the folded text matches twice, and changes nothing', () => {
    const e = fails(() => applyEdit('a “b”\na „b‟x\n', 'a "b"', 'c'));
    expect(e.code).toBe('EAMBIGUOUS');
    expect(e.message).toContain('treating typographic quotes, dashes and Unicode spaces as ASCII, it matches 2 places');
  });

  it('folds one UTF-16 unit to one, so offsets stay aligned (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '"', '“', '”', '–', '—', '\u00A0', ' ', '\n', 'é') }), (s) => {
        expect(foldPunctuation(s).length).toBe(s.length);
      }),
    );
  });

  it('replaces only the matched span: text outside it is byte-identical (property)', () => {
    const unit = fc.constantFrom('x', 'y', ' ', '\n', '“', '”', '—', '\u00A0');
    fc.assert(
      fc.property(fc.string({ unit }), fc.string({ unit }), (before, after) => {
        const text = `${before}[“target—here”]${after}`;
        const out = applyEdit(text, '["target-here"]', 'NEW');
        expect(out.text).toBe(`${before}NEW${after}`);
      }),
    );
  });
});

describe('Unicode normalization', () => {
  const nfd = 'caf\u0065\u0301 au lait\n'; // "café" with a combining accent

  it('matches an NFC old_string in an NFD file and writes new_string in NFD', () => {
    const out = applyEdit(nfd, 'café au', 'café noir au');
    expect(out.correction).toBe('unicode-normalization');
    expect(out.text).toBe('caf\u0065\u0301 noir au lait\n');
    expect(out.text).toBe(out.text.normalize('NFD'));
    expect(out.correctionNote).toContain('NFD');
  });

  it('matches an NFD old_string in an NFC file', () => {
    const out = applyEdit('naïve\n', 'nai\u0308ve', 'naïf');
    expect(out).toMatchObject({ text: 'naïf\n', correction: 'unicode-normalization' });
  });
});

describe('long lines quoted in an ENOMATCH', () => {
  it('are clipped at 200 characters before a surrogate pair, never inside it', () => {
    // 'a' then emoji: character 200 is the first half of a pair.
    const long = `a${'😀'.repeat(150)}`;
    const shown = `a${'😀'.repeat(99)}…`;
    // The closest lines, and the departure note (old_string's first line matches, the next differs).
    const error = fails(() => applyEdit(`first\n${long}\n`, `first\n${long}X`, 'z'));
    expect(error.code).toBe('ENOMATCH');
    expect(error.message).toContain(`${shown}\n`);
    expect(isWellFormed(error.message)).toBe(true);
  });
});
