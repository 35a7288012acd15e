/**
 * Line diff (merge's, src/merge/line-changes.ts) rendered as a unified diff with
 * 3 lines of context, as `diff -u` / git show it, with "\ No newline at end of file"
 * after a last line that has no line break (so a change of the final newline shows,
 * and `git apply` takes the patch). Each file's diff starts with git's header (`diff --git`,
 * and `new file mode` / `deleted file mode`), so an empty file created or removed shows too,
 * and names git would quote (a tab, a quote) are quoted as git does.
 */

import { diffLines, type LineChange } from '../merge/line-changes.ts';
import { isBinary, isValidUtf8, linesWithEnds } from '../text.ts';

const CONTEXT = 3;

/** Files larger than this get no line diff: a patch (checkpoints, merges) or a question says they differ. */
export const MAX_DIFF_BYTES = 1024 * 1024;

/** Why `bytes` has no exact text diff (its lines, decoded, are not its bytes), or null when it has one. */
export function notText(bytes: Uint8Array): 'binary' | 'not UTF-8' | null {
  return isBinary(bytes) ? 'binary' : isValidUtf8(bytes) ? null : 'not UTF-8';
}

type Op = { kind: ' ' | '-' | '+'; text: string };

/** Edit script turning `a` into `b`, one op per line. */
function editScript(a: readonly string[], b: readonly string[], changes: readonly LineChange[]): Op[] {
  const ops: Op[] = [];
  let i = 0;
  for (const c of [...changes, { a0: a.length, a1: a.length, b0: b.length, b1: b.length }]) {
    for (; i < c.a0; i++) ops.push({ kind: ' ', text: a[i]! });
    for (; i < c.a1; i++) ops.push({ kind: '-', text: a[i]! });
    for (let j = c.b0; j < c.b1; j++) ops.push({ kind: '+', text: b[j]! });
  }
  return ops;
}

/**
 * Unified diff of two texts' lines; "" when equal; null when its changed lines alone are longer
 * than `maxChars`. `from`: the path `before` was at, for a file moved to `path` (git's rename form,
 * which also stands alone when the content is the same).
 */
export function unifiedDiff(path: string, before: string | null, after: string | null, maxChars = Infinity, from = path): string | null {
  const a = before === null ? [] : linesWithEnds(before);
  const b = after === null ? [] : linesWithEnds(after);
  const changes = diffLines(a, b);
  let changed = 0;
  for (const c of changes) {
    for (let i = c.a0; i < c.a1; i++) changed += a[i]!.length;
    for (let j = c.b0; j < c.b1; j++) changed += b[j]!.length;
    if (changed > maxChars) return null;
  }
  const ops = editScript(a, b, changes);
  const hunks: string[] = [];
  // Lines of a and b before ops[counted]: hunks start in order, so one walk counts them all.
  let counted = 0;
  let linesA = 0;
  let linesB = 0;
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === ' ') {
      i++;
      continue;
    }
    // Grow a hunk: changes plus context, merging changes closer than 2 × CONTEXT.
    let from = Math.max(0, i - CONTEXT);
    let to = i;
    while (to < ops.length) {
      let next = to;
      while (next < ops.length && ops[next]!.kind !== ' ') next++;
      let gap = next;
      while (gap < ops.length && ops[gap]!.kind === ' ') gap++;
      if (gap < ops.length && gap - next <= 2 * CONTEXT) {
        to = gap;
        continue;
      }
      to = Math.min(ops.length, next + CONTEXT);
      break;
    }
    for (; counted < from; counted++) {
      if (ops[counted]!.kind !== '+') linesA++;
      if (ops[counted]!.kind !== '-') linesB++;
    }
    const lineA = linesA + 1;
    const lineB = linesB + 1;
    const body = ops.slice(from, to);
    const lenA = body.filter((o) => o.kind !== '+').length;
    const lenB = body.filter((o) => o.kind !== '-').length;
    hunks.push(`@@ -${lenA === 0 ? lineA - 1 : lineA},${lenA} +${lenB === 0 ? lineB - 1 : lineB},${lenB} @@`);
    for (const o of body) hunks.push(row(o.kind, o.text));
    i = to;
    from = to;
  }
  // An empty file created or removed, or a file moved unchanged: git's header says it, as no hunk can.
  if (hunks.length === 0) return (before === null) !== (after === null) || from !== path ? header(path, before, after, false, from).join('\n') : '';
  return [...header(path, before, after, true, from), ...hunks].join('\n');
}

/** Git's header of one file's diff: every file has its own, so `git apply` reads each apart (an empty file's header is all it has). */
const header = (path: string, before: string | null, after: string | null, withHunks = true, from = path): string[] => [
  ...gitHeader(path, before === null, after === null, from),
  ...(withHunks ? [`--- ${before === null ? '/dev/null' : nameLine(`a${from}`)}`, `+++ ${after === null ? '/dev/null' : nameLine(`b${path}`)}`] : []),
];

/** The `diff --git` line of a file's diff, then `new file mode` / `deleted file mode` for one created or removed, or `rename from` / `rename to` for one moved from `from`. */
function gitHeader(path: string, created: boolean, removed: boolean, from = path): string[] {
  return [
    `diff --git ${gitQuoted(`a${from}`)} ${gitQuoted(`b${path}`)}`,
    ...(created ? ['new file mode 100644'] : removed ? ['deleted file mode 100644'] : []),
    ...(from !== path ? [`rename from ${gitQuoted(from.slice(1))}`, `rename to ${gitQuoted(path.slice(1))}`] : []),
  ];
}

/** A name on a ---/+++ line: with a tab after it when it holds a space, as git writes it (GNU patch reads a bare name up to a space). */
const nameLine = (name: string): string => `${gitQuoted(name)}${name.includes(' ') ? '\t' : ''}`;

/** A name as git writes it in a diff: in quotes, C-style escaped, when it holds a control character, a quote or a backslash. */
export function gitQuoted(name: string): string {
  if (!/[\x00-\x1f\x7f"\\]/.test(name)) return name;
  return `"${name.replace(/[\x00-\x1f\x7f"\\]/g, (c) => ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
}

const ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '"': '\\"',
  '\\': '\\\\',
};

// Each line keeps its line break, so the differ tells a last "b" from "b\n".
const row = (kind: Op['kind'], line: string): string => (line.endsWith('\n') ? `${kind}${line.slice(0, -1)}` : `${kind}${line}\n\\ No newline at end of file`);
