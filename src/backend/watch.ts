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
  /** The glob starts with `/`: matched against whole paths, as `glob()` and grep's `glob` match it. */
  whole: boolean;
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
    const whole = glob?.startsWith('/') === true;
    const sub: Subscription = {
      listener: listener as WatchListener,
      base,
      match: glob === undefined ? null : compileGlob(whole ? glob.slice(1) : glob),
      whole,
      directories,
    };
    this.#subs.add(sub);
    this.pending ??= [];
    return () => {
      this.#subs.delete(sub);
      if (this.#subs.size === 0) this.pending = null;
    };
  }

  /** Adds events of the call in progress (one at a time: a restore may bring more than a spread's argument limit). */
  record(events: readonly WatchEvent[]): void {
    const pending = this.pending;
    if (pending !== null) for (const e of events) pending.push(e);
  }

  /** Batches waiting for the listeners subscribed when each was committed, oldest first. */
  readonly #queue: Array<{ events: WatchEvent[]; subs: Subscription[] }> = [];
  #dispatching = false;

  /**
   * Hands the call's events to every listener that wants some of them. A listener that changes
   * the backend commits while the others have not heard of the batch before: its batch waits
   * until they have, so every listener sees every commit in order.
   */
  flush(): void {
    if (this.pending === null || this.pending.length === 0) return;
    this.#queue.push({ events: onePerPath(this.pending), subs: [...this.#subs] });
    this.pending = [];
    if (this.#dispatching) return;
    this.#dispatching = true;
    try {
      for (let batch = this.#queue.shift(); batch !== undefined; batch = this.#queue.shift()) this.#dispatch(batch.events, batch.subs);
    } finally {
      this.#dispatching = false;
    }
  }

  /** `subs`: who listened when the batch was committed (one who subscribed later never hears of it). */
  #dispatch(events: readonly WatchEvent[], subs: readonly Subscription[]): void {
    for (const sub of subs) {
      if (!this.#subs.has(sub)) continue; // stopped by a listener before it: at once, as through a worker
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
 * A call's events with one per path (SPEC §11: one per file): a call that touches a path more
 * than once (a merge that renames a file the other side edited) is reported as its net change,
 * with the last version. Files are followed through renames: each path that holds a file at the
 * end says where that file came from (`rename`), that it is new (`create`) or replaced (`modify`);
 * each path that held one and holds none is a `remove`. Those events name disjoint paths, so
 * their order does not matter to a listener that applies them; they keep the order the paths
 * were first touched in (a directory before its files). When the net change cannot be told that
 * way (two files swapped, a path whose kind changed, a file renamed away and another put in its
 * place) the events are given as they happened, which is always right.
 */
export function onePerPath(events: readonly WatchEvent[]): WatchEvent[] {
  if (!touchesAPathTwice(events)) return [...events]; // the common case (a restore of 100,000 files): nothing to fold
  // Each path's first event: where it stands in the call, whether something was there before.
  const first = new Map<string, { at: number; existed: boolean; isDir: boolean }>();
  // What each path holds at the end: the file or directory that was at `origin` (null: made in this call).
  const now = new Map<string, { origin: string | null; isDir: boolean; version: number | undefined; changed: boolean }>();
  const touch = (path: string, at: number, existed: boolean, isDir: boolean) => {
    if (!first.has(path)) first.set(path, { at, existed, isDir });
  };
  const held = (path: string, isDir: boolean) => now.get(path) ?? { origin: path, isDir, version: undefined, changed: false };
  events.forEach((e, at) => {
    if (e.type === 'create') {
      touch(e.path, at, false, e.isDir);
      now.set(e.path, { origin: null, isDir: e.isDir, version: e.version, changed: true });
    } else if (e.type === 'modify') {
      touch(e.path, at, true, e.isDir);
      now.set(e.path, { ...held(e.path, e.isDir), version: e.version, changed: true });
    } else if (e.type === 'remove') {
      touch(e.path, at, true, e.isDir);
      now.delete(e.path);
    } else {
      const from = e.oldPath!;
      touch(from, at, true, e.isDir);
      touch(e.path, at, false, e.isDir); // a rename over a path that held something follows its `remove`
      const moved = held(from, e.isDir);
      now.delete(from);
      now.set(e.path, { ...moved, version: e.version, changed: true });
    }
  });
  const out: { at: number; event: WatchEvent }[] = [];
  const named = new Set<string>();
  let clear = true;
  const emit = (event: WatchEvent, ...paths: string[]) => {
    for (const path of paths) {
      if (named.has(path)) clear = false;
      named.add(path);
    }
    out.push({ at: Math.min(...paths.map((path) => first.get(path)!.at)), event });
  };
  for (const [path, { origin, isDir, version, changed }] of now) {
    const before = first.get(path)!;
    if (origin === path) {
      if (changed) emit({ type: 'modify', path, version, isDir }, path);
    } else if (origin === null) {
      if (before.existed && before.isDir !== isDir) clear = false;
      emit({ type: before.existed ? 'modify' : 'create', path, version, isDir }, path);
    } else emit({ type: 'rename', path, oldPath: origin, version, isDir }, origin, path);
  }
  for (const [path, { at, existed, isDir }] of first) {
    if (existed && !now.has(path) && !named.has(path)) {
      named.add(path);
      out.push({ at, event: { type: 'remove', path, isDir } });
    }
  }
  if (!clear) return [...events];
  return out.sort((a, b) => a.at - b.at).map(({ event }) => (event.version === undefined ? withoutVersion(event) : event));
}

function touchesAPathTwice(events: readonly WatchEvent[]): boolean {
  const seen = new Set<string>();
  for (const e of events) {
    if (seen.has(e.path) || (e.oldPath !== undefined && (seen.has(e.oldPath) || e.oldPath === e.path))) return true;
    seen.add(e.path);
    if (e.oldPath !== undefined) seen.add(e.oldPath);
  }
  return false;
}

function withoutVersion({ version: _, ...event }: WatchEvent): WatchEvent {
  return event;
}

function wants(sub: Subscription, path: string): boolean {
  if (!isWithin(path, sub.base)) return false;
  return sub.match === null || sub.match(sub.whole ? path.slice(1) : relativeTo(path, sub.base));
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
    else if (isDir ? a.mtimeMs !== b.mtimeMs : a !== b && !sameFile(path, a, b)) out.push({ type: 'modify', path, version: b.version, isDir });
  }
  return out;
}
