/**
 * The diff an approval question shows: a unified diff of exactly what would be written. Lines
 * as `diff -u` shows them; a change of the final newline alone (which a line diff cannot show)
 * gets git's "\ No newline at end of file" marker; binary content is named, not shown; past
 * what the line differ does cheaply, every old line is removed and every new one added.
 */
import { unifiedDiff } from '../checkpoints/unified-diff.ts';
import { counted } from '../counted.ts';
import { decodeText, isBinary } from '../text.ts';

export function writeDiff(path: string, before: Uint8Array | null, after: string | Uint8Array | null): string {
  const afterBytes = typeof after === 'string' ? null : after;
  if ((before !== null && isBinary(before)) || (afterBytes !== null && isBinary(afterBytes))) {
    const size = (b: Uint8Array | string | null) => (b === null ? 'none' : typeof b === 'string' ? 'text' : counted(b.length, 'byte'));
    return `Binary file ${path} differs (before: ${size(before)}, after: ${size(after)})`;
  }
  const a = before === null ? null : decodeText(before);
  const b = after === null ? null : typeof after === 'string' ? after : decodeText(after);
  const diff = unifiedDiff(path, a, b) ?? wholeFileDiff(path, a, b);
  if (diff !== '' || a === b) return diff;
  // Same lines, different final newline (or a new empty file).
  const header = [`--- ${a === null ? '/dev/null' : `a${path}`}`, `+++ ${b === null ? '/dev/null' : `b${path}`}`];
  if (a === null || b === null) return [...header, '@@ -0,0 +0,0 @@'].join('\n');
  const last = (s: string) => s.slice(s.lastIndexOf('\n', s.length - 2) + 1).replace(/\n$/, '');
  const lineNo = (s: string) => s.replace(/\n$/, '').split('\n').length;
  const noNewline = '\\ No newline at end of file';
  const n = lineNo(a);
  const minus = a.endsWith('\n') ? [`-${last(a)}`] : [`-${last(a)}`, noNewline];
  const plus = b.endsWith('\n') ? [`+${last(b)}`] : [`+${last(b)}`, noNewline];
  return [...header, `@@ -${n},1 +${lineNo(b)},1 @@`, ...minus, ...plus].join('\n');
}

function wholeFileDiff(path: string, a: string | null, b: string | null): string {
  const lines = (s: string | null) => (s === null || s === '' ? [] : s.replace(/\n$/, '').split('\n'));
  const before = lines(a);
  const after = lines(b);
  return [
    `--- ${a === null ? '/dev/null' : `a${path}`}`,
    `+++ ${b === null ? '/dev/null' : `b${path}`}`,
    `@@ -${before.length === 0 ? 0 : 1},${before.length} +${after.length === 0 ? 0 : 1},${after.length} @@`,
    ...before.map((l) => `-${l}`),
    ...after.map((l) => `+${l}`),
  ].join('\n');
}
