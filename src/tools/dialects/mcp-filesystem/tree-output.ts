/**
 * directory_tree's text: the server's JSON (2-space indent) whole, or, over the result cap, the
 * tree as deep as fits, still valid JSON, and a line after it saying what was left out and how
 * to see it (a cut in the middle of the JSON would leave the model nothing it can parse). Written
 * without recursion and never past the cap, so a tree thousands of levels deep or with hundreds
 * of thousands of entries costs what the cap does.
 */
import { counted } from '../../../counted.ts';
import { MAX_RESULT_CHARS } from '../../definitions.ts';

export interface TreeEntry {
  name: string;
  type: 'file' | 'directory';
  /** Absent for a directory shown without what it holds (the tree was cut above it). */
  children?: TreeEntry[];
}

export function treeText(tree: TreeEntry[], max = MAX_RESULT_CHARS): string {
  const whole = jsonOf(tree, Number.POSITIVE_INFINITY, max);
  if (whole !== null) return whole;
  const perLevel = entriesPerLevel(tree);
  const total = perLevel.reduce((a, b) => a + b, 0);
  const fits = max.toLocaleString('en-US');
  // The deepest cut whose text and note fit (a deeper cut is never shorter): found by halving.
  const cut = (depth: number): string | null => {
    const text = jsonOf(tree, depth, max);
    if (text === null) return null;
    const shown = perLevel.slice(0, depth).reduce((a, b) => a + b, 0);
    const note = `[${counted(total, 'entry', 'entries')} are more than fit in ${fits} characters: the tree is shown ${counted(depth, 'level')} deep, and its directories without "children" are not expanded (${counted(total - shown, 'entry', 'entries')} left out). Call directory_tree on one of them, or leave some out with excludePatterns.]`;
    return text.length + 1 + note.length <= max ? `${text}\n${note}` : null;
  };
  const deepest = deepestFit(1, perLevel.length - 1, cut);
  if (deepest !== null) return deepest;
  // One level is still too long: as many of its entries as fit, unexpanded.
  const firstOf = (n: number): string | null => {
    const text = jsonOf(tree.slice(0, n), 1, max);
    if (text === null) return null;
    const out = `${text}\n[${counted(total, 'entry', 'entries')} are more than fit in ${fits} characters: shown are the first ${n} of the ${tree.length} at the top, directories not expanded. Call directory_tree on a subdirectory, or leave some out with excludePatterns.]`;
    return out.length <= max ? out : null;
  };
  return deepestFit(1, tree.length - 1, firstOf) ?? firstOf(0)!;
}

/** `attempt` at the largest n in [low, high] where it gives a text (it does up to some n, not past it), or null. */
function deepestFit(low: number, high: number, attempt: (n: number) => string | null): string | null {
  let best: string | null = null;
  while (low <= high) {
    const mid = Math.floor((low + high) / 2);
    const text = attempt(mid);
    if (text !== null) [best, low] = [text, mid + 1];
    else high = mid - 1;
  }
  return best;
}

/**
 * JSON.stringify(tree cut at `depth` levels, null, 2): directories on the last level without their
 * children. Null as soon as it would be longer than `budget`.
 */
function jsonOf(tree: TreeEntry[], depth: number, budget: number): string | null {
  if (tree.length === 0) return '[]';
  const parts: string[] = ['[\n'];
  let length = 2;
  const put = (s: string) => {
    parts.push(s);
    length += s.length;
  };
  const stack = [{ list: tree, next: 0, indent: '', levels: depth }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.list.length) {
      stack.pop();
      put(`${frame.indent}]`);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) put(`\n${parent.indent}  }${parent.next < parent.list.length ? ',' : ''}\n`);
    } else {
      const { indent } = frame;
      const entry = frame.list[frame.next++]!;
      put(`${indent}  {\n${indent}    "name": ${JSON.stringify(entry.name)},\n${indent}    "type": ${JSON.stringify(entry.type)}`);
      const children = entry.type === 'directory' && frame.levels > 1 ? (entry.children ?? []) : undefined;
      if (children !== undefined && children.length > 0) {
        put(`,\n${indent}    "children": [\n`);
        stack.push({ list: children, next: 0, indent: `${indent}    `, levels: frame.levels - 1 });
      } else put(`${children !== undefined ? `,\n${indent}    "children": []` : ''}\n${indent}  }${frame.next < frame.list.length ? ',' : ''}\n`);
    }
    if (length > budget) return null;
  }
  return parts.join('');
}

/** How many entries the tree has at each level (the first, the top). */
function entriesPerLevel(tree: TreeEntry[]): number[] {
  const counts: number[] = [];
  const stack: [TreeEntry[], number][] = [[tree, 0]];
  while (stack.length > 0) {
    const [list, level] = stack.pop()!;
    if (list.length === 0) continue;
    counts[level] = (counts[level] ?? 0) + list.length;
    for (const e of list) if (e.children !== undefined) stack.push([e.children, level + 1]);
  }
  return counts;
}
