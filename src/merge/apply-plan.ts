/**
 * Applies a merge plan to a tree, and describes what two trees differ by (for a merge's patch
 * and for diff() between a backend and its fork).
 */
import type { Tree } from '../backend/tree.ts';
import type { CheckpointDiff } from '../backend/types.ts';
import { filePatch, joinPatches } from '../checkpoints/checkpoints.ts';
import { comparePaths } from '../paths.ts';
import type { MergeOp } from './three-way.ts';
import { sameBytes } from '../same-bytes.ts';

/** Runs `ops` on `tree` (a copy the caller discards if this throws). */
export function applyPlan(tree: Tree, ops: readonly MergeOp[]): void {
  for (const op of ops) {
    switch (op.op) {
      case 'remove':
        tree.remove(op.path, true);
        break;
      case 'rename':
        tree.rename(op.from, op.to, false);
        break;
      case 'mkdir':
        if (tree.get(op.path) === undefined) {
          tree.mkdir(op.path);
        }
        break;
      case 'write':
        // Bytes from the fork's storage or made for this merge: never changed in place, so kept as they are.
        tree.writeFile(op.path, op.bytes, true);
        break;
      case 'replace':
        tree.remove(op.path, true);
        tree.writeFile(op.path, op.bytes, true);
        break;
      case 'prune':
        if (tree.get(op.path)?.kind === 'dir' && tree.children(op.path).length === 0) {
          tree.remove(op.path, false);
        }
        break;
    }
  }
}

/** What differs from `from` to `to` at `paths` (default: every path of either), as CheckpointDiff says it. */
export function diffTrees(from: Tree, to: Tree, paths?: Iterable<string>): CheckpointDiff {
  const all = paths ? [...paths] : [...new Set([...from.paths(), ...to.paths()])];
  const added: string[] = [];
  const removed: string[] = [];
  const modified: string[] = [];
  const patches: string[] = [];
  for (const path of all.sort(comparePaths)) {
    if (path === '/') continue;
    const a = from.get(path);
    const b = to.get(path);
    if (a === b || (a?.kind === 'dir' && b?.kind === 'dir')) continue;
    const aBytes = a?.kind === 'file' ? from.view(path) : null;
    const bBytes = b?.kind === 'file' ? to.view(path) : null;
    if (a && !b) removed.push(path);
    else if (b && !a) added.push(path);
    else if (a!.kind !== b!.kind || (aBytes && bBytes && a!.version !== b!.version && !sameBytes(aBytes, bBytes))) modified.push(path);
    else continue;
    if (aBytes || bBytes) patches.push(filePatch(path, aBytes, bBytes));
  }
  return { added, removed, modified, patch: joinPatches(patches) };
}
