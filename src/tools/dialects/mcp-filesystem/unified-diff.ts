/**
 * A unified diff of two texts, as `diff -u` and jsdiff's createTwoFilesPatch print it (the
 * reference MCP filesystem server's edit_file returns jsdiff's): an `Index:` and `===` header,
 * `--- path\toriginal` / `+++ path\tmodified`, hunks with 4 lines of context, and, as jsdiff 8
 * does, `\ No newline at end of file` after a last line that has none (so "c" and "c\n" differ).
 * Lines are compared as jsdiff compares them (line-diff.ts).
 */
import { linesWithEnds } from '../../../text.ts';
import { script } from '../line-diff.ts';

const CONTEXT = 4;

/** The unified diff of `before` → `after`, both named `path` (line endings compared as LF). */
export function unifiedDiff(before: string, after: string, path: string): string {
  const a = linesWithEnds(before.replaceAll('\r\n', '\n'));
  const b = linesWithEnds(after.replaceAll('\r\n', '\n'));
  const ops = script(a, b);
  const out = [`Index: ${path}`, '===================================================================', `--- ${path}\toriginal`, `+++ ${path}\tmodified`];
  let i = 0;
  let oldLine = 1;
  let newLine = 1;
  const changed = ops.map((op) => op.kind !== ' ');
  while (i < ops.length) {
    if (!changed[i]) {
      oldLine++;
      newLine++;
      i++;
      continue;
    }
    // A hunk: CONTEXT lines before, changes joined while the gap between them is at most 2·CONTEXT.
    const start = Math.max(0, i - CONTEXT);
    let end = i;
    let lastChange = i;
    while (end < ops.length && (changed[end] || end - lastChange <= 2 * CONTEXT)) {
      if (changed[end]) lastChange = end;
      end++;
    }
    end = Math.min(ops.length, lastChange + 1 + CONTEXT);
    const before = i - start;
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((o) => o.kind !== '+').length;
    const newCount = hunk.filter((o) => o.kind !== '-').length;
    const oldStart = oldCount === 0 ? oldLine - before - 1 : oldLine - before;
    const newStart = newCount === 0 ? newLine - before - 1 : newLine - before;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) {
      if (op.text.endsWith('\n')) out.push(`${op.kind}${op.text.slice(0, -1)}`);
      else out.push(`${op.kind}${op.text}`, '\\ No newline at end of file');
    }
    for (let j = i; j < end; j++) {
      if (ops[j]!.kind !== '+') oldLine++;
      if (ops[j]!.kind !== '-') newLine++;
    }
    i = end;
  }
  return `${out.join('\n')}\n`;
}
