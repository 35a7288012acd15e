/**
 * Line diff (Myers' O(ND) greedy algorithm) rendered as a unified diff with
 * 3 lines of context, as `diff -u` / git show it, with "\ No newline at end of file"
 * after a last line that has no line break (so a change of the final newline shows,
 * and `git apply` takes the patch). Bounded: past MAX_EDITS differences the caller
 * gets null and says the files differ (or shows wholeFileDiff).
 */

const CONTEXT = 3;
const MAX_EDITS = 2000;

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
  const a = before === null ? [] : splitMarkingLast(before);
  const b = after === null ? [] : splitMarkingLast(after);
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
  if (hunks.length === 0) return '';
  return [...header(path, before, after), ...hunks].join('\n');
}

/** A diff that removes every old line and adds every new one: for texts too different to diff. */
export function wholeFileDiff(path: string, before: string | null, after: string | null): string {
  const a = before === null ? [] : splitMarkingLast(before);
  const b = after === null ? [] : splitMarkingLast(after);
  return [
    ...header(path, before, after),
    `@@ -${a.length === 0 ? 0 : 1},${a.length} +${b.length === 0 ? 0 : 1},${b.length} @@`,
    ...a.map((line) => row('-', line)),
    ...b.map((line) => row('+', line)),
  ].join('\n');
}

const header = (path: string, before: string | null, after: string | null): string[] => [
  `--- ${before === null ? '/dev/null' : `a${path}`}`,
  `+++ ${after === null ? '/dev/null' : `b${path}`}`,
];

// Marks a last line that has no line break, so the differ tells "b" from "b\n". A Unicode
// noncharacter: text never means it.
const NO_EOL = '\uFDD0';

const row = (kind: Op['kind'], line: string): string =>
  line.endsWith(NO_EOL) ? `${kind}${line.slice(0, -NO_EOL.length)}\n\\ No newline at end of file` : `${kind}${line}`;

function countBefore(ops: readonly Op[], end: number, skip: Op['kind']): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (ops[i]!.kind !== skip) n++;
  return n;
}

function splitMarkingLast(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}
