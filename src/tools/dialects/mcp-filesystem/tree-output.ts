/**
 * directory_tree's text: the server's JSON (2-space indent) whole, or, over the result cap, the
 * tree as deep as fits, still valid JSON, and a line after it saying what was left out and how
 * to see it (a cut in the middle of the JSON would leave the model nothing it can parse).
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
  const whole = JSON.stringify(tree, null, 2);
  if (whole.length <= max) return whole;
  const total = countEntries(tree);
  for (let depth = depthOf(tree) - 1; depth >= 1; depth--) {
    const shown = cutAt(tree, depth);
    const text = JSON.stringify(shown, null, 2);
    const note = `[${counted(total, 'entry', 'entries')} are more than fit in ${max.toLocaleString('en-US')} characters: the tree is shown ${counted(depth, 'level')} deep, and its directories without "children" are not expanded (${counted(total - countEntries(shown), 'entry', 'entries')} left out). Call directory_tree on one of them, or leave some out with excludePatterns.]`;
    if (text.length + 1 + note.length <= max) return `${text}\n${note}`;
  }
  // One level is still too long: as many of its entries as fit, unexpanded.
  const top = cutAt(tree, 1);
  const firstOf = (n: number) =>
    `${JSON.stringify(top.slice(0, n), null, 2)}\n[${counted(total, 'entry', 'entries')} are more than fit in ${max.toLocaleString('en-US')} characters: shown are the first ${n} of the ${top.length} at the top, directories not expanded. Call directory_tree on a subdirectory, or leave some out with excludePatterns.]`;
  let n = top.length - 1;
  while (n > 0 && firstOf(n).length > max) n--;
  return firstOf(n);
}

/** The tree down to `depth` levels, the directories on the last level without their children. */
function cutAt(tree: TreeEntry[], depth: number): TreeEntry[] {
  return tree.map((e) =>
    e.type === 'file' ? e : depth > 1 ? { name: e.name, type: 'directory', children: cutAt(e.children ?? [], depth - 1) } : { name: e.name, type: 'directory' },
  );
}

function countEntries(tree: TreeEntry[]): number {
  return tree.reduce((n, e) => n + 1 + countEntries(e.children ?? []), 0);
}

function depthOf(tree: TreeEntry[]): number {
  return tree.reduce((d, e) => Math.max(d, 1 + depthOf(e.children ?? [])), 0);
}
