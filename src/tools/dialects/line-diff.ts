/**
 * Line diffs as jsdiff 8 computes them (diffLines: its variant of Myers' O((N+M)·D) algorithm,
 * diff/base.js, step for step), so that where several shortest scripts exist this picks the one
 * jsdiff picks: the MCP filesystem server's edit_file diff and Gemini CLI's "updated code"
 * snippet are made with it. Past MAX_D differences the lines between the common head and tail
 * are shown as replaced (a correct script, not a shortest one).
 */
const MAX_D = 2000;

export type Op = { kind: ' ' | '-' | '+'; text: string };

interface Component {
  count: number;
  kind: Op['kind'];
  previous: Component | undefined;
}

interface Path {
  oldPos: number;
  last: Component | undefined;
}

/** The edit script turning a into b (lines as `linesWithEnds` gives them), one op per line. */
export function script(a: readonly string[], b: readonly string[]): Op[] {
  const oldLen = a.length;
  const newLen = b.length;
  const extend = (path: Path, diagonal: number): number => {
    let oldPos = path.oldPos;
    let newPos = oldPos - diagonal;
    let common = 0;
    while (newPos + 1 < newLen && oldPos + 1 < oldLen && a[oldPos + 1] === b[newPos + 1]) {
      newPos++;
      oldPos++;
      common++;
    }
    if (common > 0) path.last = { count: common, kind: ' ', previous: path.last };
    path.oldPos = oldPos;
    return newPos;
  };
  const step = (path: Path, kind: '+' | '-'): Path => {
    const last = path.last;
    const oldPos = path.oldPos + (kind === '-' ? 1 : 0);
    if (last !== undefined && last.kind === kind) return { oldPos, last: { count: last.count + 1, kind, previous: last.previous } };
    return { oldPos, last: { count: 1, kind, previous: last } };
  };
  const best = new Map<number, Path>();
  const first: Path = { oldPos: -1, last: undefined };
  best.set(0, first);
  const start = extend(first, 0);
  if (first.oldPos + 1 >= oldLen && start + 1 >= newLen) return ops(first.last, a, b);
  let minDiagonal = -Infinity;
  let maxDiagonal = Infinity;
  const maxEdit = Math.min(oldLen + newLen, MAX_D);
  for (let d = 1; d <= maxEdit; d++) {
    for (let k = Math.max(minDiagonal, -d); k <= Math.min(maxDiagonal, d); k += 2) {
      const removePath = best.get(k - 1);
      const addPath = best.get(k + 1);
      if (removePath !== undefined) best.delete(k - 1);
      const canAdd = addPath !== undefined && addPath.oldPos - k >= 0 && addPath.oldPos - k < newLen;
      const canRemove = removePath !== undefined && removePath.oldPos + 1 < oldLen;
      if (!canAdd && !canRemove) {
        best.delete(k);
        continue;
      }
      const path = !canRemove || (canAdd && removePath.oldPos < addPath!.oldPos) ? step(addPath!, '+') : step(removePath, '-');
      const newPos = extend(path, k);
      if (path.oldPos + 1 >= oldLen && newPos + 1 >= newLen) return ops(path.last, a, b);
      best.set(k, path);
      if (path.oldPos + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, k - 1);
      if (newPos + 1 >= newLen) minDiagonal = Math.max(minDiagonal, k + 1);
    }
  }
  // Too many differences to find the shortest script: the common head and tail stay, the middle is replaced.
  let head = 0;
  while (head < oldLen && head < newLen && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < oldLen - head && tail < newLen - head && a[oldLen - 1 - tail] === b[newLen - 1 - tail]) tail++;
  const same = (text: string): Op => ({ kind: ' ', text });
  return [
    ...a.slice(0, head).map(same),
    ...a.slice(head, oldLen - tail).map((text): Op => ({ kind: '-', text })),
    ...b.slice(head, newLen - tail).map((text): Op => ({ kind: '+', text })),
    ...a.slice(oldLen - tail).map(same),
  ];
}

/** The components, last first, as one op per line. */
function ops(last: Component | undefined, a: readonly string[], b: readonly string[]): Op[] {
  const components: Component[] = [];
  for (let c = last; c !== undefined; c = c.previous) components.push(c);
  components.reverse();
  const out: Op[] = [];
  let oldPos = 0;
  let newPos = 0;
  for (const { count, kind } of components) {
    for (let i = 0; i < count; i++) {
      if (kind === '-') out.push({ kind, text: a[oldPos++]! });
      else {
        out.push({ kind, text: b[newPos++]! });
        if (kind === ' ') oldPos++;
      }
    }
  }
  return out;
}
