/**
 * Checkpoints for agent steps. A checkpoint stores only what changed since
 * the checkpoint the live state descends from (a delta of path metadata);
 * file bytes are shared with the live tree and copied only when a mutation is
 * about to drop a version some checkpoint still holds. So a checkpoint costs
 * memory in proportion to what changed, not to the size of the filesystem.
 */
import type { Meta, Tree, TreeObserver } from '../backend/tree.ts';
import type { CheckpointDiff, CheckpointInfo } from '../backend/types.ts';
import { VfsError } from '../errors.ts';
import { comparePaths } from '../paths.ts';
import { decodeRawText } from '../text.ts';
import { gitQuoted, MAX_DIFF_BYTES, notText, unifiedDiff } from './unified-diff.ts';
import { sameBytes } from '../same-bytes.ts';

interface Checkpoint extends CheckpointInfo {
  delta: Map<string, Meta | null>;
}

export class Checkpoints implements TreeObserver {
  readonly #list: Checkpoint[] = [];
  readonly #byId = new Map<string, Checkpoint>();
  #head: Checkpoint | null = null;
  /** Paths changed since #head. */
  readonly #dirty = new Set<string>();
  /** File versions some checkpoint holds. */
  readonly #held = new Set<number>();
  /** Bytes of held versions that are no longer live. */
  readonly #kept = new Map<number, Uint8Array>();
  #counter = 0;

  retiring(path: string, meta: Meta, tree: Tree): void {
    if (meta.kind === 'file' && this.#held.has(meta.version) && !this.#kept.has(meta.version)) {
      this.#kept.set(meta.version, tree.bytes(path));
    }
  }

  changed(path: string): void {
    if (this.#head) this.#dirty.add(path);
  }

  create(tree: Tree, label: string | null): CheckpointInfo {
    const delta = new Map<string, Meta | null>();
    if (this.#head === null) {
      // Meta objects are never mutated (a change replaces them), so they can be shared.
      for (const [path, meta] of tree.entries()) if (path !== '/') delta.set(path, meta);
    } else {
      // The root is in no checkpoint's state (the first one leaves it out, diff compares without it):
      // a change that touches it (a restore) must not add it, or diff would list "/" as added.
      for (const path of this.#dirty) {
        if (path === '/') continue;
        const meta = tree.get(path);
        delta.set(path, meta ?? null);
      }
    }
    for (const meta of delta.values()) if (meta?.kind === 'file') this.#held.add(meta.version);
    const checkpoint: Checkpoint = {
      id: `cp${++this.#counter}`,
      label,
      createdAt: tree.now(),
      parent: this.#head?.id ?? null,
      changedPaths: delta.size,
      delta,
    };
    this.#list.push(checkpoint);
    this.#byId.set(checkpoint.id, checkpoint);
    this.#head = checkpoint;
    this.#dirty.clear();
    return info(checkpoint);
  }

  list(): CheckpointInfo[] {
    return this.#list.map(info);
  }

  #get(id: unknown): Checkpoint {
    const checkpoint = typeof id === 'string' ? this.#byId.get(id) : undefined;
    if (!checkpoint) {
      const known =
        this.#list.length === 0
          ? 'there are none yet'
          : `known: ${this.#list
              .map((c) => c.id)
              .slice(-10)
              .join(', ')}`;
      throw new VfsError('EINVAL', `No checkpoint ${JSON.stringify(id)} (${known}).`);
    }
    return checkpoint;
  }

  /** Path metadata at a checkpoint: its ancestors' deltas applied in order. */
  #state(checkpoint: Checkpoint): Map<string, Meta> {
    const chain: Checkpoint[] = [];
    for (let c: Checkpoint | undefined = checkpoint; c; c = c.parent === null ? undefined : this.#byId.get(c.parent)) chain.push(c);
    const state = new Map<string, Meta>();
    for (const c of chain.reverse()) {
      for (const [path, meta] of c.delta) {
        if (meta) state.set(path, meta);
        else state.delete(path);
      }
    }
    return state;
  }

  #bytes(path: string, meta: Meta, tree: Tree): Uint8Array {
    if (tree.get(path)?.version === meta.version) return tree.view(path);
    const kept = this.#kept.get(meta.version);
    if (!kept) throw new Error(`agentvfs: checkpoint content for ${path} (version ${meta.version}) is missing; this is a bug.`);
    return kept;
  }

  /**
   * Forgets checkpoint `id`. Every other checkpoint keeps exactly its state (the ones taken
   * after it absorb its changes), and file bytes that only it held are freed.
   */
  delete(id: string): void {
    const gone = this.#get(id);
    const parent = gone.parent === null ? null : this.#byId.get(gone.parent)!;
    const parentState = parent ? this.#state(parent) : new Map<string, Meta>();
    for (const child of this.#list) {
      if (child.parent !== gone.id) continue;
      // The child's delta was relative to `gone`: make it relative to `gone`'s parent.
      const merged = new Map(gone.delta);
      for (const [path, meta] of child.delta) merged.set(path, meta);
      for (const [path, meta] of merged) if (sameMeta(parentState.get(path), meta)) merged.delete(path);
      child.delta = merged;
      child.parent = gone.parent;
      child.changedPaths = merged.size;
    }
    if (this.#head === gone) {
      // The live state now descends from the parent: what changed since it is gone's delta and more.
      for (const path of gone.delta.keys()) this.#dirty.add(path);
      this.#head = parent;
      if (parent === null) this.#dirty.clear(); // the next checkpoint records the whole tree
    }
    this.#list.splice(this.#list.indexOf(gone), 1);
    this.#byId.delete(gone.id);
    this.#held.clear();
    for (const c of this.#list) for (const meta of c.delta.values()) if (meta?.kind === 'file') this.#held.add(meta.version);
    for (const version of this.#kept.keys()) if (!this.#held.has(version)) this.#kept.delete(version);
  }

  /** Rebuilds the state of checkpoint `id` into `next` (an empty tree), versions and times included. */
  rollback(id: string, current: Tree, next: Tree): void {
    const checkpoint = this.#get(id);
    const state = this.#state(checkpoint);
    // Parents before children. Bytes of versions `current` still has are shared, not copied.
    next.adopt([...state.keys()].sort(comparePaths), state, current, (path, meta) => this.#bytes(path, meta, current));
    this.#handOver(current, next);
    this.#head = checkpoint;
    this.#dirty.clear();
  }

  /** The whole state is being replaced (a restore): keep held bytes, and track what changed. */
  replaced(current: Tree, next: Tree): void {
    if (this.#head) {
      for (const path of current.paths()) this.#dirty.add(path);
      for (const path of next.paths()) this.#dirty.add(path);
    }
    this.#handOver(current, next);
  }

  /**
   * Keeps the bytes of held versions that `current` has and `next` does not (a version lives at
   * one path), and moves the observer to `next`. A held version `next` has is kept later, when
   * `next` retires it, like any live one.
   */
  #handOver(current: Tree, next: Tree): void {
    for (const [path, meta] of current.entries()) {
      if (meta.kind === 'file' && next.get(path)?.version !== meta.version) this.retiring(path, meta, current);
    }
    current.observer = null;
    next.observer = this;
  }

  diff(fromId: string, toId: string | undefined, tree: Tree): CheckpointDiff {
    const from = this.#state(this.#get(fromId));
    const to = toId === undefined ? new Map([...tree.entries()].filter(([p]) => p !== '/')) : this.#state(this.#get(toId));
    const added: string[] = [];
    const removed: string[] = [];
    const modified: string[] = [];
    const patches: string[] = [];
    const paths = [...new Set([...from.keys(), ...to.keys()])].sort(comparePaths);
    for (const path of paths) {
      const a = from.get(path);
      const b = to.get(path);
      const aBytes = a?.kind === 'file' ? this.#bytes(path, a, tree) : null;
      const bBytes = b?.kind === 'file' ? this.#bytes(path, b, tree) : null;
      if (a && !b) removed.push(path);
      else if (b && !a) added.push(path);
      else if (a && b && (a.kind !== b.kind || (aBytes && bBytes && a.version !== b.version && !sameBytes(aBytes, bBytes)))) modified.push(path);
      else continue;
      if (aBytes || bBytes) patches.push(filePatch(path, aBytes, bBytes));
    }
    return { added, removed, modified, patch: joinPatches(patches) };
  }
}

function info({ delta: _delta, ...rest }: Checkpoint): CheckpointInfo {
  return { ...rest };
}

/** Same entry: absent in both, or the same kind, version and time (a delta entry that changes nothing). */
function sameMeta(a: Meta | undefined, b: Meta | null): boolean {
  if (!a || !b) return !a && !b;
  return a.kind === b.kind && a.version === b.version && a.mtimeMs === b.mtimeMs;
}

/**
 * File patches as one, ending with a line break as `git diff` writes it (so `git apply` takes it
 * as it is); '' for none. The lines that name a file without showing it (binary, too large) come
 * first: after a git header with no hunk (an empty file's), git would read one as that file's.
 */
export function joinPatches(patches: readonly string[]): string {
  const kept = patches.filter((p) => p !== '');
  const named = kept.filter((p) => !p.startsWith('diff --git '));
  const shown = kept.filter((p) => p.startsWith('diff --git '));
  return kept.length === 0 ? '' : `${[...named, ...shown].join('\n')}\n`;
}

export function filePatch(path: string, before: Uint8Array | null, after: Uint8Array | null): string {
  // Not UTF-8: its decoded lines are not its bytes, so a text patch would show (or hide) a change that is not the one made.
  if ((before && notText(before)) || (after && notText(after))) {
    return `Binary files ${before ? gitQuoted(`a${path}`) : '/dev/null'} and ${after ? gitQuoted(`b${path}`) : '/dev/null'} differ`;
  }
  if ((before?.length ?? 0) > MAX_DIFF_BYTES || (after?.length ?? 0) > MAX_DIFF_BYTES) {
    return `Files ${gitQuoted(`a${path}`)} and ${gitQuoted(`b${path}`)} differ (too large to show a diff)`;
  }
  // A BOM stays in the first line, as git shows it, so the patch applies to the bytes.
  return unifiedDiff(path, before && decodeRawText(before), after && decodeRawText(after))!;
}
