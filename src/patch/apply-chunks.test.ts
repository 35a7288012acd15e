// Codex's apply tests (codex-rs/apply-patch/src/lib.rs), ported to the file-text level: the
// contents each test expects. The unified_diff_* tests check Codex's diff preview, which has no
// counterpart here; their expected contents are checked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChunks, ChunkNotFound } from './apply-chunks.ts';
import { type Hunk, parsePatch } from './parse.ts';

/** The text after applying the body of an `*** Update File` section to `text`. */
function apply(text: string, body: string): string {
  const [hunk] = parsePatch(`*** Begin Patch\n*** Update File: f\n${body}\n*** End Patch`);
  if (hunk?.type !== 'update') throw new Error('not an update');
  return applyChunks(text, hunk.chunks, '\n');
}

describe('applyChunks (lib.rs tests)', () => {
  it('updates a line; several chunks', () => {
    expect(apply('foo\nbar\n', '@@\n foo\n-bar\n+baz')).toBe('foo\nbaz\n');
    expect(apply('foo\nbar\nbaz\nqux\n', '@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX')).toBe('foo\nBAR\nbaz\nQUX\n');
  });

  it('interleaved changes with an end-of-file addition', () => {
    expect(apply('a\nb\nc\nd\ne\nf\n', '@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File')).toBe('a\nB\nc\nd\nE\nf\ng\n');
    expect(apply('a\nb\nc\nd\ne\nf\n', '@@\n a\n-b\n+B\n@@\n d\n-e\n+E\n@@\n f\n+g\n*** End of File')).toBe('a\nB\nc\nd\nE\nf\ng\n');
  });

  it('keeps CRLF on update (test_preserve_crlf_line_endings_on_update) and an embedded CR (…_embedded_carriage_returns_on_append)', () => {
    expect(apply('a\r\nb\r\nc\r\n', '@@\n a\n-b\n+B\n@@\n c\n+d\n*** End of File')).toBe('a\r\nB\r\nc\r\nd\r\n');
    expect(apply('foo\r\r\nbar\r\n', '@@\n+BAZ\n*** End of File')).toBe('foo\r\r\nbar\r\nBAZ\r\n');
  });

  it('a pure addition goes at the end, even before a later chunk (test_pure_addition_chunk_followed_by_removal)', () => {
    expect(apply('line1\nline2\nline3\n', '@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement')).toBe(
      'line1\nline2-replacement\nafter-context\nsecond-line\n',
    );
  });

  it('a pure addition after a last line without an ending gives it one (the file is changed in place)', () => {
    expect(apply('a\nb', '@@\n+c')).toBe('a\nb\nc\n');
    expect(apply('a\r\nb', '@@\n+c')).toBe('a\r\nb\r\nc\r\n');
    expect(apply('a\nb', '@@ a\n+c')).toBe('a\nc\nb\n');
  });

  it('an end-of-file chunk never matches lines the chunk before it took (Codex refuses it too)', () => {
    expect(() => apply('a\nb\nc\n', '@@\n-b\n-c\n+X\n@@\n-c\n+Y\n*** End of File')).toThrow(ChunkNotFound);
    expect(apply('a\nb\nc\nc\n', '@@\n-b\n-c\n+X\n@@\n-c\n+Y\n*** End of File')).toBe('a\nX\nY\n');
  });

  it('an addition at the end goes after a final empty line (Codex 0.169)', () => {
    expect(apply('a\n\n', '@@\n+X')).toBe('a\n\nX\n');
    expect(apply('a\n\n\n', '@@\n+X')).toBe('a\n\n\nX\n');
    expect(apply('a\nb\n\n', '@@\n+X\n@@\n-b')).toBe('a\n\nX\n');
    expect(apply('a\n\n', '@@\n+X\n@@\n a')).toBe('a\n\nX\n');
    expect(apply('a\r\n\r\n', '@@\n+X')).toBe('a\r\n\r\nX\r\n');
  });

  it('an addition at the end goes after a chunk that replaced the final empty line (as Codex)', () => {
    expect(apply('a\nb\n\n', '@@\n+X\n@@\n b\n-\n+Y')).toBe('a\nb\nY\nX\n');
    expect(apply('a\nb\n\n', '@@\n b\n-\n+Y\n@@\n+X')).toBe('a\nb\nY\nX\n');
  });

  it('an end-of-file chunk whose last old line is empty is sought at the end without it before anywhere else (as Codex 0.169)', () => {
    // The full chunk (foo, bar, '') is also at line 2: the end comes first.
    expect(apply('x\nfoo\nbar\n\nfoo\nbar\n', '@@\n foo\n-bar\n+baz\n \n*** End of File')).toBe('x\nfoo\nbar\n\nfoo\nbaz\n');
    expect(apply('\na\n\nc\nc\na\n', '@@\n-a\n+X\n-\n*** End of File')).toBe('\na\n\nc\nc\nX\n');
  });

  it("a chunk's leading context is not replaced: lines another chunk adds at the same place go in the chunks' order (Codex 0.169)", () => {
    expect(apply('a\nb\nc\n', '@@\n+Q\n@@\n b\n c\n+P')).toBe('a\nb\nc\nQ\nP\n');
    expect(apply('a\nb\nc\n', '@@\n b\n c\n+P\n@@\n+Q')).toBe('a\nb\nc\nP\nQ\n');
    expect(apply('d\na\nd\n', '@@\n+P\n@@\n a\n-d\n+Y\n*** End of File')).toBe('d\na\nY\nP\n');
  });

  it("context between a chunk's changes is not replaced either: a pure addition and lines a chunk adds after its last context line both at the end go in the chunks' order (Codex 0.169)", () => {
    expect(apply('a\nb\nc\n', '@@\n+Q\n@@\n a\n-b\n c\n+P')).toBe('a\nc\nQ\nP\n');
    expect(apply('a\nb\nc\n', '@@\n+Q\n@@\n a\n+Y\n b\n c\n+P')).toBe('a\nY\nb\nc\nQ\nP\n');
    expect(apply('a\nb\nc\n', '@@\n+Q\n@@\n-a\n b\n+B\n c\n+P\n*** End of File')).toBe('b\nB\nc\nQ\nP\n');
    // The other order, and a context line matched only leniently, which stays the file's own.
    expect(apply('a\nb\nc\n', '@@\n a\n-b\n c\n+P\n@@\n+Q')).toBe('a\nc\nP\nQ\n');
    expect(apply('y\ny\t\nb\n', '@@\n+Q\n@@\n y \n+Y\n b\n+P')).toBe('y\ny\t\nY\nb\nQ\nP\n');
  });

  it('an @@ line is read without spaces at its end, as Codex 0.169 reads it (not its context lines)', () => {
    expect(apply('a\nY\na \nY\n', '@@ a \n-Y\n+Z')).toBe('a\nZ\na \nY\n');
    expect(apply('a\nY\n a\nY\n', '@@  a\n-Y\n+Z')).toBe('a\nY\n a\nZ\n');
    expect(apply('a\nY\na \nY\n', '@@\n a \n-Y\n+Z')).toBe('a\nY\na \nZ\n');
  });

  it('a pure addition after an anchor goes after it (Codex would put it at the end)', () => {
    expect(apply('def f():\n    pass\ndef g():\n    pass\n', '@@ def f():\n+    x = 1')).toBe('def f():\n    x = 1\n    pass\ndef g():\n    pass\n');
  });

  it('ASCII context matches typographic punctuation (test_update_line_with_unicode_dash)', () => {
    expect(
      apply(
        'import asyncio  # local import \u2013 avoids top\u2011level dep\n',
        '@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO',
      ),
    ).toBe('import asyncio  # HELLO\n');
  });

  it('the first line, the last line, an insertion at the end (test_unified_diff_*; contents)', () => {
    expect(apply('foo\nbar\nbaz\n', '@@\n-foo\n+FOO\n bar\n')).toBe('FOO\nbar\nbaz\n');
    expect(apply('foo\nbar\nbaz\n', '@@\n foo\n bar\n-baz\n+BAZ\n')).toBe('foo\nbar\nBAZ\n');
    expect(apply('foo\nbar\n', '@@\n foo\n-bar\n+BAR\n')).toBe('foo\nBAR\n');
    expect(apply('foo\nbar\nbaz\n', '@@\n+quux\n*** End of File\n')).toBe('foo\nbar\nbaz\nquux\n');
    expect(apply('session directory content\n', '@@\n-session directory content\n+updated session directory content')).toBe(
      'updated session directory content\n',
    );
  });

  it('a last empty old line stands for the final line ending', () => {
    expect(apply('a\nb', '@@\n a\n-b\n-\n+B\n+')).toBe('a\nB\n');
  });

  it("context lines keep the file's own text after a lenient match", () => {
    expect(apply('  keep me  \nold\n', '@@\n keep me\n-old\n+new')).toBe('  keep me  \nnew\n');
  });

  it('an empty result has no line ending; an empty file takes the patch’s', () => {
    expect(apply('only\n', '@@\n-only')).toBe('');
    const [hunk] = parsePatch('*** Begin Patch\r\n*** Update File: f\r\n@@\r\n+a\r\n*** End Patch');
    expect(applyChunks('', (hunk as Extract<Hunk, { type: 'update' }>).chunks, '\r\n')).toBe('a\r\n');
  });
});

describe('applyChunks with few and with many chunks', () => {
  it('replaces, removes and adds lines at every chunk, a few (spliced) or many (rebuilt), CRLF and a last line without one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.tuple(fc.nat(59), fc.constantFrom('replace', 'remove', 'add-after')), { maxLength: 40, size: 'max' }),
        fc.boolean(),
        fc.boolean(),
        (n, picks, crlf, lastEol) => {
          const eol = crlf ? '\r\n' : '\n';
          const lines = Array.from({ length: n }, (_, i) => `l${i}`);
          const text = lines.join(eol) + (lastEol ? eol : '');
          const edits = new Map(picks.filter(([i]) => i < n).map(([i, what]) => [i, what]));
          const body = [...edits.entries()]
            .sort(([a], [b]) => a - b)
            .map(([i, what]) => `@@\n${what === 'replace' ? `-l${i}\n+X${i}` : what === 'remove' ? `-l${i}` : ` l${i}\n+A${i}`}`)
            .join('\n');
          const expected = lines.flatMap((l, i) => {
            const what = edits.get(i);
            return what === 'replace' ? [`X${i}`] : what === 'remove' ? [] : what === 'add-after' ? [l, `A${i}`] : [l];
          });
          // (A file of one line without an ending has no line ending of its own: added ones take the patch's.)
          const want = expected.map((l) => l + (n > 1 || lastEol ? eol : '\n')).join('');
          if (edits.size === 0) return;
          const [hunk] = parsePatch(`*** Begin Patch\n*** Update File: f\n${body}\n*** End Patch`);
          expect(applyChunks(text, (hunk as Extract<Hunk, { type: 'update' }>).chunks, '\n')).toBe(want);
        },
      ),
      { numRuns: 400 },
    );
  });
});
