/**
 * backend.watch(): who listens, what each listener wants to see, and the events of one
 * commit. The tree records an event for every path a committed mutation touched; the backend
 * hands them over once the call's work is done, as one batch per call, in commit order.
 */
import { compileGlob, type PathMatcher } from '../glob/glob.ts';
import { isWithin, relativeTo } from '../paths.ts';
import type { Meta, Tree } from './tree.ts';
import type { WatchEvent, WatchListener } from './types.ts';

interface Subscription {
  listener: WatchListener;
  base: string;
  match: PathMatcher | null;
  /** Also directories' own events. */
  directories: boolean;
}

export class Watchers {
  readonly #subs = new Set<Subscription>();
  /** Events of the call in progress: the tree appends to it while anyone listens. */
  pending: WatchEvent[] | null = null;

  get active(): boolean {
    return this.#subs.size > 0;
  }

  add(listener: unknown, base: string, glob: unknown, directories: unknown = false): () => void {
    if (typeof listener !== 'function') throw new TypeError('agentvfs: watch(listener) needs a function, called with each commit’s events.');
    if (glob !== undefined && typeof glob !== 'string') throw new TypeError('agentvfs: watch option `glob` must be a string.');
    if (typeof directories !== 'boolean') throw new TypeError('agentvfs: watch option `directories` must be a boolean.');
    const sub: Subscription = { listener: listener as WatchListener, base, match: glob === undefined ? null : compileGlob(glob), directories };
    this.#subs.add(sub);
    this.pending ??= [];
    return () => {
      this.#subs.delete(sub);
      if (this.#subs.size === 0) this.pending = null;
    };
  }

  /** Hands the call's events to every listener that wants some of them. */
  flush(): void {
    if (this.pending === null || this.pending.length === 0) return;
    const events = onePerPath(this.pending);
    this.pending = [];
    for (const sub of [...this.#subs]) {
      const wanted = events.filter((e) => (sub.directories || !e.isDir) && (wants(sub, e.path) || (e.oldPath !== undefined && wants(sub, e.oldPath))));
      if (wanted.length === 0) continue;
      try {
        sub.listener(wanted);
      } catch (error) {
        // A listener's failure is its own: the call committed and the other listeners still hear of it.
        report(error);
      }
    }
  }
}

/**
 * A call's events with one per path (SPEC §11: one per file): a call that touches a path twice
 * (a merge that renames a file and edits it, a batch that creates then edits) is reported as its
 * net change, at the place of the first event, with the last version.
 */
export function onePerPath(events: readonly WatchEvent[]): WatchEvent[] {
  const out: (WatchEvent | null)[] = [];
  const at = new Map<string, number>();
  const put = (e: WatchEvent) => at.set(e.path, out.push(e) - 1);
  for (const e of events) {
    const from = e.type === 'rename' ? e.oldPath! : e.path;
    const i = at.get(from);
    const prior = i === undefined ? null : out[i]!;
    if (prior === null || prior.isDir !== e.isDir) {
      put(e);
      continue;
    }
    at.delete(from);
    out[i!] = null;
    const merged = netChange(prior, e);
    if (merged !== null) {
      out[i!] = merged;
      at.set(merged.path, i!);
    }
  }
  return out.filter((e) => e !== null);
}

/** `prior` then `next` on the same path (next's source path), as one event; null when they cancel out. */
function netChange(prior: WatchEvent, next: WatchEvent): WatchEvent | null {
  const { isDir } = next;
  // Where the path was before the call, if it existed then.
  const origin = prior.type === 'create' ? null : prior.type === 'rename' ? prior.oldPath! : prior.path;
  if (next.type === 'remove') return origin === null ? null : { type: 'remove', path: origin, isDir };
  if (next.type === 'rename') {
    if (origin === null) return { type: 'create', path: next.path, version: next.version!, isDir };
    return origin === next.path ? { type: 'modify', path: origin, version: next.version!, isDir } : { ...next, oldPath: origin };
  }
  // create or modify of a path the call already touched.
  if (prior.type === 'remove') return { type: 'modify', path: next.path, version: next.version!, isDir };
  return { ...prior, version: next.version! };
}

function wants(sub: Subscription, path: string): boolean {
  if (!isWithin(path, sub.base)) return false;
  return sub.match === null || sub.match(relativeTo(path, sub.base));
}

function report(error: unknown): void {
  const g = globalThis as { reportError?: (e: unknown) => void; console?: { error(...a: unknown[]): void } };
  if (typeof g.reportError === 'function') g.reportError(error);
  else g.console?.error('agentvfs: a watch listener threw', error);
}

/**
 * The events that turn `before` into `after` (a restore or rollback): paths only in `before`
 * are removed, only in `after` created, and a path in both is modified when its content or
 * time differs (`sameFile` decides for files whose Meta differ).
 */
export function treeDifferences(before: Tree, after: Tree, sameFile: (path: string, a: Meta, b: Meta) => boolean): WatchEvent[] {
  const out: WatchEvent[] = [];
  for (const [path, a] of before.entries()) {
    if (path === '/') continue;
    const b = after.get(path);
    if (b === undefined || b.kind !== a.kind) out.push({ type: 'remove', path, isDir: a.kind === 'dir' });
  }
  for (const [path, b] of after.entries()) {
    if (path === '/') continue;
    const a = before.get(path);
    const isDir = b.kind === 'dir';
    if (a === undefined || a.kind !== b.kind) out.push({ type: 'create', path, version: b.version, isDir });
    else if (!isDir && a !== b && !sameFile(path, a, b)) out.push({ type: 'modify', path, version: b.version, isDir });
  }
  return out;
}
