// The diff an approval question shows, in the cases a line diff alone would get wrong.
import { describe, expect, it } from 'vitest';
import { encodeText } from '../text.ts';
import { writeDiff } from './write-diff.ts';

describe('writeDiff', () => {
  // Each expected body is what `git diff --no-index` prints for the same two files (git writes "-1" for "-1,1").
  it('marks a last line without a line break, as git does, so a change of the final newline shows', () => {
    expect(writeDiff('/a', encodeText('x\ny\n'), 'x\ny')).toBe('--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\n-y\n+y\n\\ No newline at end of file');
    expect(writeDiff('/a', encodeText('x'), 'x\n')).toBe('--- a/a\n+++ b/a\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+x');
    expect(writeDiff('/a', encodeText('a\nb'), 'A\nb\n')).toBe('--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n-a\n-b\n\\ No newline at end of file\n+A\n+b');
  });

  it('is empty for the same content, and names binary content instead of showing it', () => {
    expect(writeDiff('/a', encodeText('same\n'), 'same\n')).toBe('');
    expect(writeDiff('/b', new Uint8Array([0, 1, 2]), 'text')).toBe('Binary file /b differs (before: 3 bytes, after: text)');
    expect(writeDiff('/b', null, new Uint8Array([0, 1]))).toBe('Binary file /b differs (before: none, after: 2 bytes)');
  });

  it('a new empty file, and a removal', () => {
    expect(writeDiff('/e', null, '')).toBe('--- /dev/null\n+++ b/e\n@@ -0,0 +0,0 @@');
    expect(writeDiff('/r', encodeText('a\nb\n'), null)).toBe('--- a/r\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b');
  });

  it('past what the line differ does cheaply, every old line out and every new line in', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n');
    const diff = writeDiff('/big', encodeText(before), after).split('\n');
    expect(diff.slice(0, 3)).toEqual(['--- a/big', '+++ b/big', '@@ -1,3000 +1,3000 @@']);
    expect(diff.filter((l) => l.startsWith('-old')).length).toBe(3000);
    expect(diff.filter((l) => l.startsWith('+new')).length).toBe(3000);
  });
});

describe('writeDiff and a byte order mark', () => {
  const withBom = (text: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...encodeText(text)]);

  it('shows a removed BOM, which an equal text would hide, as git shows it and in words', () => {
    expect(writeDiff('/b', withBom('hi\n'), 'hi\n')).toBe(
      'Removes the byte order mark (BOM, U+FEFF) at the start of /b.\n--- a/b\n+++ b/b\n@@ -1,1 +1,1 @@\n-\uFEFFhi\n+hi',
    );
    expect(writeDiff('/b', withBom('hi\n'), encodeText('hi\n'))).toBe(writeDiff('/b', withBom('hi\n'), 'hi\n'));
  });

  it('shows an added BOM, and keeps a BOM that stays in the first line without a note', () => {
    expect(writeDiff('/b', encodeText('hi\n'), '\uFEFFhi\n').split('\n')[0]).toBe('Adds the byte order mark (BOM, U+FEFF) at the start of /b.');
    expect(writeDiff('/b', withBom('a\nb\n'), withBom('a\nc\n'))).toBe('--- a/b\n+++ b/b\n@@ -1,2 +1,2 @@\n \uFEFFa\n-b\n+c');
    expect(writeDiff('/b', withBom('same\n'), withBom('same\n'))).toBe('');
  });

  it('a new file or a removal with a BOM needs no note', () => {
    expect(writeDiff('/n', null, '\uFEFFx\n')).toBe('--- /dev/null\n+++ b/n\n@@ -0,0 +1,1 @@\n+\uFEFFx');
    expect(writeDiff('/r', withBom('x\n'), null)).toBe('--- a/r\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-\uFEFFx');
  });
});
