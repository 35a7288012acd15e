/**
 * The diff an approval question shows: a unified diff of exactly what would be written. Lines
 * as `diff -u` shows them, and, as git does, "\ No newline at end of file" after a last line
 * without one (so a change of the final newline shows too); binary content is named, not
 * shown; past what the line differ does cheaply, every old line is removed and every new one added.
 */
import { unifiedDiff } from '../checkpoints/unified-diff.ts';
import { counted } from '../counted.ts';
import { decodeText, isBinary } from '../text.ts';

// Marks a last line that has no line break, so the differ tells "b" from "b\n". A Unicode
// noncharacter: text never means it.
const NO_EOL = '\uFDD0';
const NO_EOL_NOTE = '\\ No newline at end of file';

export function writeDiff(path: string, before: Uint8Array | null, after: string | Uint8Array | null): string {
  const afterBytes = typeof after === 'string' ? null : after;
  if ((before !== null && isBinary(before)) || (afterBytes !== null && isBinary(afterBytes))) {
    const size = (b: Uint8Array | string | null) => (b === null ? 'none' : typeof b === 'string' ? 'text' : counted(b.length, 'byte'));
    return `Binary file ${path} differs (before: ${size(before)}, after: ${size(after)})`;
  }
  const a = before === null ? null : decodeText(before);
  const b = after === null ? null : typeof after === 'string' ? after : decodeText(after);
  if (a === b) return '';
  const marked = (s: string | null) => (s === null || s === '' || s.endsWith('\n') ? s : `${s}${NO_EOL}\n`);
  const diff = unifiedDiff(path, marked(a), marked(b)) ?? wholeFileDiff(path, marked(a), marked(b));
  if (diff === '') return [`--- ${a === null ? '/dev/null' : `a${path}`}`, `+++ ${b === null ? '/dev/null' : `b${path}`}`, '@@ -0,0 +0,0 @@'].join('\n'); // a new empty file
  return diff
    .split('\n')
    .map((line) => (line.endsWith(NO_EOL) ? `${line.slice(0, -NO_EOL.length)}\n${NO_EOL_NOTE}` : line))
    .join('\n');
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
