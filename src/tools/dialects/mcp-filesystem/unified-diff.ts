/**
 * A unified diff of two texts, as `diff -u` and jsdiff's createTwoFilesPatch print it (the
 * reference MCP filesystem server's edit_file returns jsdiff's): an `Index:` and `===` header,
 * `--- path\toriginal` / `+++ path\tmodified`, hunks with 4 lines of context.
 *
 * Lines are compared with Myers' O((N+M)·D) algorithm after trimming the common head and tail,
 * so an edit in a large file costs the size of the change, not the file. Past MAX_D differences
 * the remaining middle is shown as one replaced block (still a correct patch, just not minimal).
 */
const CONTEXT = 4;
const MAX_D = 2000;

type Op = { kind: ' ' | '-' | '+'; text: string };

function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** The edit script turning a into b (shortest when within MAX_D differences). */
function script(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const middle = myers(x, y) ?? [...x.map((text): Op => ({ kind: '-', text })), ...y.map((text): Op => ({ kind: '+', text }))];
  return [...a.slice(0, head).map((text): Op => ({ kind: ' ', text })), ...middle, ...a.slice(a.length - tail).map((text): Op => ({ kind: ' ', text }))];
}

function myers(a: readonly string[], b: readonly string[]): Op[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_D);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let px = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let py = px - k;
      while (px < n && py < m && a[px] === b[py]) {
        px++;
        py++;
      }
      v[offset + k] = px;
      if (px >= n && py >= m) return backtrack(trace, a, b, d, offset);
    }
  }
  return null;
}

function backtrack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[], dEnd: number, offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: ' ', text: a[--x]! }), y--;
    if (down) ops.push({ kind: '+', text: b[--y]! });
    else ops.push({ kind: '-', text: a[--x]! });
  }
  while (x > 0 && y > 0) ops.push({ kind: ' ', text: a[--x]! }), y--;
  return ops.reverse();
}

/** The unified diff of `before` → `after`, both named `path` (line endings compared as LF). */
export function unifiedDiff(before: string, after: string, path: string): string {
  const a = lines(before.replaceAll('\r\n', '\n'));
  const b = lines(after.replaceAll('\r\n', '\n'));
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
    for (const op of hunk) out.push(`${op.kind}${op.text}`);
    for (let j = i; j < end; j++) {
      if (ops[j]!.kind !== '+') oldLine++;
      if (ops[j]!.kind !== '-') newLine++;
    }
    i = end;
  }
  return `${out.join('\n')}\n`;
}
