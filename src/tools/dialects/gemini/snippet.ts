/**
 * Gemini CLI's "Here is the updated code:" snippet (packages/core/src/tools/diff-utils.ts,
 * getDiffContextSnippet): the new text's changed lines with 5 lines around them, "..." where
 * lines are left out; the whole text for a new file or no change. Its replace and write_file
 * add it to every success, so the model need not read the file again to check.
 */
import { linesWithEnds } from '../../../text.ts';
import { script } from '../line-diff.ts';

const CONTEXT_LINES = 5;

export function updatedCodeSnippet(before: string, after: string): string {
  if (before === '') return after;
  const ops = script(linesWithEnds(before.replaceAll('\r\n', '\n')), linesWithEnds(after.replaceAll('\r\n', '\n')));
  const newLines = after.split(/\r?\n/);
  // Where each change lands in the new text: added lines as a range, a removal as an empty one.
  const ranges: { start: number; end: number }[] = [];
  let at = 0;
  for (let i = 0; i < ops.length; ) {
    const kind = ops[i]!.kind;
    let count = 0;
    while (i < ops.length && ops[i]!.kind === kind) i++, count++;
    if (kind === '+') ranges.push({ start: at, end: at + count });
    else if (kind === '-') ranges.push({ start: at, end: at });
    if (kind !== '-') at += count;
  }
  if (ranges.length === 0) return after;
  const merged: { start: number; end: number }[] = [];
  for (const r of ranges) {
    const start = Math.max(0, r.start - CONTEXT_LINES);
    const end = Math.min(newLines.length, r.end + CONTEXT_LINES);
    const last = merged[merged.length - 1];
    if (last !== undefined && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  const parts: string[] = [];
  let lastEnd = 0;
  for (const r of merged) {
    if (r.start > lastEnd) parts.push('...');
    parts.push(newLines.slice(r.start, r.end).join('\n'));
    lastEnd = r.end;
  }
  if (lastEnd < newLines.length) parts.push('...');
  return parts.join('\n');
}
