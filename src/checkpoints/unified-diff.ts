/**
 * Line diff (Myers' O(ND) greedy algorithm) rendered as a unified diff with
 * 3 lines of context, as `diff -u` / git show it, with "\ No newline at end of file"
 * after a last line that has no line break (so a change of the final newline shows,
 * and `git apply` takes the patch). Each file's diff starts with git's header (`diff --git`,
 * and `new file mode` / `deleted file mode`), so an empty file created or removed shows too,
 * and names git would quote (a tab, a quote) are quoted as git does. Bounded: past MAX_EDITS
 * differences the caller gets null and says the files differ (or shows wholeFileDiff).
 */

import { isBinary, isValidUtf8 } from '../text.ts';

const CONTEXT = 3;
const MAX_EDITS = 2000;

/** Files larger than this get no line diff: a patch (checkpoints, merges) or a question says they differ. */
export const MAX_DIFF_BYTES = 1024 * 1024;

/** Why `bytes` has no exact text diff (its lines, decoded, are not its bytes), or null when it has one. */
export function notText(bytes: Uint8Array): 'binary' | 'not UTF-8' | null {
  return isBinary(bytes) ? 'binary' : isValidUtf8(bytes) ? null : 'not UTF-8';
}

type Op = { kind: ' ' | '-' | '+'; text: string };

/** Edit script turning `a` into `b`, or null when more than MAX_EDITS lines differ. */
function editScript(a: readonly string[], b: readonly string[]): Op[] | null {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = n === 0 && m === 0;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[start + x] === b[start + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return null;
  // Walk the trace back from (n, m) to (0, 0).
  const middle: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) middle.push({ kind: ' ', text: a[start + --x]! }), y--;
    if (d > 0) {
      if (x === prevX) middle.push({ kind: '+', text: b[start + --y]! });
      else middle.push({ kind: '-', text: a[start + --x]! });
    }
  }
  middle.reverse();
  return [...a.slice(0, start).map((text): Op => ({ kind: ' ', text })), ...middle, ...a.slice(endA).map((text): Op => ({ kind: ' ', text }))];
}

/** Unified diff of two texts' lines; "" when equal; null when too different to diff cheaply. */
export function unifiedDiff(path: string, before: string | null, after: string | null): string | null {
  const a = before === null ? [] : splitKeepingBreaks(before);
  const b = after === null ? [] : splitKeepingBreaks(after);
  const ops = editScript(a, b);
  if (ops === null) return null;
  const hunks: string[] = [];
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
    const lineA = countBefore(ops, from, '+') + 1;
    const lineB = countBefore(ops, from, '-') + 1;
    const body = ops.slice(from, to);
    const lenA = body.filter((o) => o.kind !== '+').length;
    const lenB = body.filter((o) => o.kind !== '-').length;
    hunks.push(`@@ -${lenA === 0 ? lineA - 1 : lineA},${lenA} +${lenB === 0 ? lineB - 1 : lineB},${lenB} @@`);
    for (const o of body) hunks.push(row(o.kind, o.text));
    i = to;
    from = to;
  }
  // An empty file created or removed: git's header says it, as no hunk can.
  if (hunks.length === 0) return (before === null) !== (after === null) ? header(path, before, after, false).join('\n') : '';
  return [...header(path, before, after), ...hunks].join('\n');
}

/** A diff that removes every old line and adds every new one: for texts too different to diff. */
export function wholeFileDiff(path: string, before: string | null, after: string | null): string {
  const a = before === null ? [] : splitKeepingBreaks(before);
  const b = after === null ? [] : splitKeepingBreaks(after);
  return [
    ...header(path, before, after),
    `@@ -${a.length === 0 ? 0 : 1},${a.length} +${b.length === 0 ? 0 : 1},${b.length} @@`,
    ...a.map((line) => row('-', line)),
    ...b.map((line) => row('+', line)),
  ].join('\n');
}

/** Git's header of one file's diff: every file has its own, so `git apply` reads each apart (an empty file's header is all it has). */
const header = (path: string, before: string | null, after: string | null, withHunks = true): string[] => [
  ...gitHeader(path, before === null, after === null),
  ...(withHunks ? [`--- ${before === null ? '/dev/null' : nameLine(`a${path}`)}`, `+++ ${after === null ? '/dev/null' : nameLine(`b${path}`)}`] : []),
];

/** The `diff --git` line of a file's diff, and `new file mode` / `deleted file mode` for one created or removed. */
function gitHeader(path: string, created: boolean, removed: boolean): string[] {
  return [
    `diff --git ${gitQuoted(`a${path}`)} ${gitQuoted(`b${path}`)}`,
    ...(created ? ['new file mode 100644'] : removed ? ['deleted file mode 100644'] : []),
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

function countBefore(ops: readonly Op[], end: number, skip: Op['kind']): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (ops[i]!.kind !== skip) n++;
  return n;
}

/** The lines of `text`, each with its line break (the last may have none). */
function splitKeepingBreaks(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
