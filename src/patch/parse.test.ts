// Codex's parser tests (codex-rs/apply-patch/src/parser.rs), ported. Codex's public parse_patch is
// lenient (PARSE_IN_STRICT_MODE = false), and so is parsePatch: the strict-only expectations
// (a heredoc refused) are the lenient ones here. The streaming-parser tests have no counterpart.
import { describe, expect, it } from 'vitest';
import { type Hunk, PatchParseError, parseCreateDiff, parsePatch, parseUpdateDiff, type UpdateChunk } from './parse.ts';

function parseError(patch: string): { message: string; lineNumber: number | undefined } {
  try {
    parsePatch(patch);
  } catch (error) {
    expect(error).toBeInstanceOf(PatchParseError);
    const e = error as PatchParseError;
    return { message: e.message, lineNumber: e.lineNumber };
  }
  throw new Error('expected a parse error');
}

const chunk = (c: Partial<UpdateChunk> & Pick<UpdateChunk, 'oldLines' | 'newLines'>): UpdateChunk => ({
  anchors: [],
  keeps: [],
  isEndOfFile: false,
  line: expect.any(Number) as unknown as number,
  ...c,
});

describe('parsePatch (parser.rs test_parse_patch)', () => {
  it('the boundary markers', () => {
    expect(parseError('bad')).toEqual({ message: "The first line of the patch must be '*** Begin Patch'", lineNumber: undefined });
    expect(parseError('*** Begin Patch\nbad')).toEqual({ message: "The last line of the patch must be '*** End Patch'", lineNumber: undefined });
    expect(parseError('')).toEqual({ message: "The last line of the patch must be '*** End Patch'", lineNumber: undefined });
    expect(parsePatch('*** Begin Patch \n*** Add File: foo\n+hi\n *** End Patch')).toEqual([{ type: 'add', path: 'foo', contents: 'hi\n' }]);
  });

  it('an empty update hunk, an empty patch', () => {
    expect(parseError('*** Begin Patch\n*** Update File: test.py\n*** End Patch')).toEqual({
      message: "Update file hunk for path 'test.py' is empty",
      lineNumber: 2,
    });
    expect(parsePatch('*** Begin Patch\n*** End Patch')).toEqual([]);
  });

  it('add, delete, and update with a move', () => {
    const hunks = parsePatch(
      '*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n*** End Patch',
    );
    expect(hunks).toEqual<Hunk[]>([
      { type: 'add', path: 'path/add.py', contents: 'abc\ndef\n' },
      { type: 'delete', path: 'path/delete.py' },
      {
        type: 'update',
        path: 'path/update.py',
        movePath: 'path/update2.py',
        chunks: [chunk({ anchors: ['def f():'], oldLines: ['    pass'], newLines: ['    return 123'], keeps: [-1], line: 8 })],
      },
    ]);
  });

  it('an update hunk followed by another hunk', () => {
    expect(parsePatch('*** Begin Patch\n*** Update File: file.py\n@@\n+line\n*** Add File: other.py\n+content\n*** End Patch')).toEqual<Hunk[]>([
      { type: 'update', path: 'file.py', movePath: null, chunks: [chunk({ oldLines: [], newLines: ['line'], keeps: [-1] })] },
      { type: 'add', path: 'other.py', contents: 'content\n' },
    ]);
  });

  it('a first chunk without an @@ header', () => {
    expect(parsePatch('*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch')).toEqual<Hunk[]>([
      { type: 'update', path: 'file2.py', movePath: null, chunks: [chunk({ oldLines: ['import foo'], newLines: ['import foo', 'bar'], keeps: [0, -1] })] },
    ]);
  });

  it('relative and absolute paths are kept as written (test_parse_patch_accepts_relative_and_absolute_hunk_paths)', () => {
    const hunks = parsePatch(
      '*** Begin Patch\n*** Add File: relative-add.py\n+content\n*** Delete File: /abs/delete.py\n*** Update File: /abs/update.py\n@@\n-old\n+new\n*** End Patch',
    );
    expect(hunks.map((h) => h.path)).toEqual(['relative-add.py', '/abs/delete.py', '/abs/update.py']);
  });
});

describe('the heredoc wrapper (parser.rs test_parse_patch_lenient)', () => {
  const body = '*** Begin Patch\n*** Update File: file2.py\n import foo\n+bar\n*** End Patch';
  const expected: Hunk[] = [
    { type: 'update', path: 'file2.py', movePath: null, chunks: [chunk({ oldLines: ['import foo'], newLines: ['import foo', 'bar'], keeps: [0, -1] })] },
  ];

  it('<<EOF, <<\'EOF\' and <<"EOF" are accepted', () => {
    for (const open of ['<<EOF', "<<'EOF'", '<<"EOF"']) expect(parsePatch(`${open}\n${body}\nEOF\n`), open).toEqual(expected);
  });

  it("also after the shell command, as Codex parses `apply_patch <<'EOF'` in a shell call", () => {
    for (const open of ["apply_patch <<'EOF'", 'applypatch <<EOF']) expect(parsePatch(`${open}\n${body}\nEOF\n`), open).toEqual(expected);
  });

  it('mismatched quotes, or no closing marker inside, are refused', () => {
    expect(parseError(`<<"EOF'\n${body}\nEOF\n`).message).toBe("The first line of the patch must be '*** Begin Patch'");
    expect(parseError('<<EOF\n*** Begin Patch\n*** Update File: file2.py\nEOF\n').message).toBe("The last line of the patch must be '*** End Patch'");
  });
});

describe('hunks and chunks (parser.rs test_parse_one_hunk, test_update_file_chunk)', () => {
  it('a bad hunk header names the valid ones and its line', () => {
    expect(parseError('*** Begin Patch\nbad\n*** End Patch')).toEqual({
      message: "'bad' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
      lineNumber: 2,
    });
  });

  const update = (lines: string) => `*** Begin Patch\n*** Update File: f\n${lines}\n*** End Patch`;

  it("an update_file diff without a chunk is refused as Codex refuses an empty '*** Update File' section", () => {
    for (const diff of ['', '\n', '   ', '\n\n']) expect(() => parseUpdateDiff(diff, 'src/f.txt')).toThrow("Update file hunk for path 'src/f.txt' is empty");
    expect(parseError(update('')).message).toBe("Update file hunk for path 'f' is empty");
  });

  it("a second chunk must start with @@; an @@ with nothing after it; a line that is not ' ', '+' or '-'", () => {
    expect(parseError(update('@@\n-a\n+b\nbad'))).toEqual({ message: "Expected update hunk to start with a @@ context marker, got: 'bad'", lineNumber: 6 });
    expect(parseUpdateDiff('@@\n-a\n+b\n@@\n-c', 'f')).toHaveLength(2);
    expect(() => parseUpdateDiff('@@\n-a\nbad', 'f')).toThrow(/Expected update hunk to start with a @@ context marker, got: 'bad'/);
    expect(() => parseUpdateDiff('@@\n-a\n*** End Patch', 'f')).toThrow(/Unexpected line found in update diff: '\*\*\* End Patch'/);
    expect(parseError(update('@@'))).toEqual({ message: 'Update hunk does not contain any lines', lineNumber: 4 });
    expect(parseError(update('@@\nbad'))).toEqual({
      message: "Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), '+' (added line), or '-' (removed line)",
      lineNumber: 4,
    });
    expect(parseError(update('@@\n*** End of File'))).toEqual({ message: 'Update hunk does not contain any lines', lineNumber: 4 });
  });

  it('a chunk with an anchor, an empty line (empty context), context, removal and addition', () => {
    const [hunk] = parsePatch(update('@@ change_context\n\n context\n-remove\n+add\n context2'));
    expect(hunk).toMatchObject({
      chunks: [
        {
          anchors: ['change_context'],
          oldLines: ['', 'context', 'remove', 'context2'],
          newLines: ['', 'context', 'add', 'context2'],
          keeps: [0, 1, -1, 3],
          isEndOfFile: false,
        },
      ],
    });
  });

  it('an end-of-file chunk', () => {
    expect(parsePatch(update('@@\n+line\n*** End of File'))).toMatchObject([
      { chunks: [{ anchors: [], oldLines: [], newLines: ['line'], isEndOfFile: true }] },
    ]);
  });

  it('stacked @@ lines are anchors in order (bare ones add none); Codex refuses the second', () => {
    expect(parseUpdateDiff('@@ class A\n@@\n@@     def f():\n-x\n+y', 'f')).toMatchObject([
      { anchors: ['class A', '    def f():'], oldLines: ['x'], newLines: ['y'] },
    ]);
  });
});

describe('create_file diffs (the V4A helper’s create mode)', () => {
  it('lines joined with the diff’s line ending; a line without "+" is refused', () => {
    expect(parseCreateDiff('+a\n+b')).toBe('a\nb');
    expect(parseCreateDiff('+a\r\n+b\r\n+')).toBe('a\r\nb\r\n');
    expect(() => parseCreateDiff('+a\nb')).toThrow(/Invalid Add File Line: b/);
  });
});
