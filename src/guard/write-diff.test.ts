// The diff an approval question shows, in the cases a line diff alone would get wrong.
import { describe, expect, it } from 'vitest';
import { encodeText } from '../text.ts';
import { writeDiff } from './write-diff.ts';

describe('writeDiff', () => {
  // Each expected body is what `git diff --no-index` prints for the same two files (git writes "-1" for "-1,1").
  it('marks a last line without a line break, as git does, so a change of the final newline shows', () => {
    expect(writeDiff('/a', encodeText('x\ny\n'), 'x\ny')).toBe(
      'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file',
    );
    expect(writeDiff('/a', encodeText('x'), 'x\n')).toBe('diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+x');
    expect(writeDiff('/a', encodeText('a\nb'), 'A\nb\n')).toBe(
      'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n-a\n-b\n\\ No newline at end of file\n+A\n+b',
    );
  });

  it('is empty for the same content, and names binary content instead of showing it', () => {
    expect(writeDiff('/a', encodeText('same\n'), 'same\n')).toBe('');
    expect(writeDiff('/b', new Uint8Array([0, 1, 2]), 'text')).toBe('Binary file /b differs (before: 3 bytes, after: 4 bytes)');
    expect(writeDiff('/b', null, new Uint8Array([0, 1]))).toBe('Binary file /b differs (before: none, after: 2 bytes)');
    // Text with a NUL is kept as binary (read_file refuses it): it is named, not shown as lines.
    expect(writeDiff('/b', encodeText('a\n'), 'a\0b\n')).toBe('Binary file /b differs (before: 2 bytes, after: 4 bytes)');
  });

  it('names a file that is not UTF-8 instead of showing lines that are not its bytes', () => {
    // "café" in Latin-1, written back as read_file showed it (U+FFFD): every line shown equal would hide the change.
    const latin1 = new Uint8Array([...encodeText('name = caf'), 0xe9, 0x0a, ...encodeText('x = 1\n')]);
    expect(writeDiff('/c', latin1, 'name = caf\uFFFD\nx = 1\n')).toBe(
      'File /c differs (before: 18 bytes, after: 20 bytes): it is not UTF-8 text before the write, so its lines cannot be shown exactly.',
    );
    expect(writeDiff('/c', encodeText('a\n'), new Uint8Array([0xe9, 0x0a]))).toBe(
      'File /c differs (before: 2 bytes, after: 2 bytes): it is not UTF-8 text as written, so its lines cannot be shown exactly.',
    );
  });

  it('a new empty file and a removed one as git shows them (a hunk cannot say it), and a removal', () => {
    expect(writeDiff('/e', null, '')).toBe('diff --git a/e b/e\nnew file mode 100644');
    expect(writeDiff('/e', encodeText(''), null)).toBe('diff --git a/e b/e\ndeleted file mode 100644');
    expect(writeDiff('/r', encodeText('a\nb\n'), null)).toBe('diff --git a/r b/r\ndeleted file mode 100644\n--- a/r\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b');
  });

  it('quotes a name with a tab, a quote or a backslash, as git does (git apply reads a bare name up to the tab)', () => {
    expect(writeDiff('/notes\tdraft', encodeText('a\n'), 'b\n').split('\n').slice(0, 3)).toEqual([
      'diff --git "a/notes\\tdraft" "b/notes\\tdraft"',
      '--- "a/notes\\tdraft"',
      '+++ "b/notes\\tdraft"',
    ]);
    expect(writeDiff('/say "hi"\\x', null, 'b\n').split('\n')[3]).toBe('+++ "b/say \\"hi\\"\\\\x"\t');
    // A space: the name as it is, then a tab, as git writes it (GNU patch reads a bare name up to a space).
    expect(writeDiff('/plain name é', null, 'b\n').split('\n')[3]).toBe('+++ b/plain name é\t');
  });

  it('shows a line ending in U+FDD0 (a noncharacter, but text) as it is', () => {
    expect(writeDiff('/u', encodeText('ok\uFDD0\n'), 'ok')).toBe(
      'diff --git a/u b/u\n--- a/u\n+++ b/u\n@@ -1,1 +1,1 @@\n-ok\uFDD0\n+ok\n\\ No newline at end of file',
    );
  });

  it('sends no diff too large for a person to read: a line says so, with the sizes', () => {
    const lines = (word: string) => Array.from({ length: 60_000 }, (_, i) => `${word} ${i} ${'x'.repeat(20)}`).join('\n');
    const diff = writeDiff('/big', encodeText(lines('old')), lines('new'));
    expect(diff).toMatch(/^File \/big differs \(before: [\d,]+ bytes, after: [\d,]+ bytes\): the diff is too large to show\.$/);
    // One changed line of a large file still shows.
    const big = lines('same');
    expect(writeDiff('/big', encodeText(big), big.replace('same 5 ', 'SAME 5 ')).split('\n')).toHaveLength(12);
  });

  it('a file whose every line changed: every old line out and every new line in, one hunk', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n');
    const diff = writeDiff('/big', encodeText(before), after).split('\n');
    expect(diff.slice(0, 4)).toEqual(['diff --git a/big b/big', '--- a/big', '+++ b/big', '@@ -1,3000 +1,3000 @@']);
    expect(diff.filter((l) => l.startsWith('-old')).length).toBe(3000);
    expect(diff.filter((l) => l.startsWith('+new')).length).toBe(3000);
  });
});

describe('writeDiff and a byte order mark', () => {
  const withBom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...encodeText(text)]);

  it('shows a removed BOM, which an equal text would hide, as git shows it and in words', () => {
    expect(writeDiff('/b', withBom('hi\n'), 'hi\n')).toBe(
      'Removes the byte order mark (BOM, U+FEFF) at the start of /b.\ndiff --git a/b b/b\n--- a/b\n+++ b/b\n@@ -1,1 +1,1 @@\n-\uFEFFhi\n+hi',
    );
    expect(writeDiff('/b', withBom('hi\n'), encodeText('hi\n'))).toBe(writeDiff('/b', withBom('hi\n'), 'hi\n'));
  });

  it('shows an added BOM, and keeps a BOM that stays in the first line without a note', () => {
    expect(writeDiff('/b', encodeText('hi\n'), '\uFEFFhi\n').split('\n')[0]).toBe('Adds the byte order mark (BOM, U+FEFF) at the start of /b.');
    expect(writeDiff('/b', withBom('a\nb\n'), withBom('a\nc\n'))).toBe('diff --git a/b b/b\n--- a/b\n+++ b/b\n@@ -1,2 +1,2 @@\n \uFEFFa\n-b\n+c');
    expect(writeDiff('/b', withBom('same\n'), withBom('same\n'))).toBe('');
  });

  it('a new file or a removal with a BOM needs no note', () => {
    expect(writeDiff('/n', null, '\uFEFFx\n')).toBe('diff --git a/n b/n\nnew file mode 100644\n--- /dev/null\n+++ b/n\n@@ -0,0 +1,1 @@\n+\uFEFFx');
    expect(writeDiff('/r', withBom('x\n'), null)).toBe('diff --git a/r b/r\ndeleted file mode 100644\n--- a/r\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-\uFEFFx');
  });
});
