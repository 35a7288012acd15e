/**
 * createStateBackend: the in-memory backend. Methods are async (one contract
 * for in-process and worker use) but run synchronously inside, so each call is
 * atomic with respect to every other call.
 */
import { CHECK_FITS, SCRATCH_FORK } from './look-ahead.ts';
import { BACKEND_CALLS } from '../calls.ts';
import { Checkpoints } from '../checkpoints/checkpoints.ts';
import { applyEdit } from '../edit/apply-edit.ts';
import { counted } from '../counted.ts';
import { VfsError, isVfsError } from '../errors.ts';
import { resolveLimits } from '../limits.ts';
import { comparePaths, normalizePath } from '../paths.ts';
import { applyPlan, diffTrees } from '../merge/apply-plan.ts';
import { joinVersionFamily, unwrapBackend } from './wrapped-backends.ts';
import { planMerge } from '../merge/three-way.ts';
import { decodeSnapshotEntries, encodeSnapshot } from '../snapshot/format.ts';
import { decodeForEdit, decodeText, encodeText, hasBom, isBinary, isValidUtf8 } from '../text.ts';
import { wellFormedText } from './refusals.ts';
import { applyBatch, checkBatchLimits, type PreparedChange } from './batch.ts';
import { createSearchIndex } from './search-index.ts';
import { DEFAULT_TEXT_CACHE_BYTES, TextCache, roundTrips } from './text-cache.ts';
import { BulkCopy } from '../storage/memfs-store.ts';
import { Tree } from './tree.ts';
import { treeDifferences, Watchers } from './watch.ts';
import type {
  BatchChange,
  BatchResult,
  Backend,
  OwnedBytes,
  CheckpointDiff,
  CheckpointInfo,
  CountIgnored,
  DownloadResult,
  EditOptions,
  EditRequest,
  EditResult,
  FileInfo,
  GlobOptions,
  GlobReport,
  GrepMatch,
  GrepOptions,
  GrepReport,
  LsOptions,
  LsReport,
  MergeOptions,
  MergeResult,
  ReadResult,
  RemoveOptions,
  RenameOptions,
  StateBackend,
  StateBackendOptions,
  PrepareSearchOptions,
  PrepareSearchResult,
  UploadOptions,
  RestoreOptions,
  UploadResult,
  WriteOptions,
  WriteResult,
  WatchEvent,
  WatchListener,
  WatchOptions,
} from './types.ts';
import { sameBytes } from '../same-bytes.ts';
import { checkOptionNames } from '../option-names.ts';
import { STATE_BACKEND_OPTIONS } from './state-backend-options.ts';

export type { StateBackend };

export function createStateBackend(options: StateBackendOptions = {}): StateBackend {
  checkOptionNames(options, STATE_BACKEND_OPTIONS, 'agentvfs: createStateBackend');
  return new InMemoryBackend(options);
}

// Set by InMemoryBackend's static block (they reach its private state); used by wrapMutations.
let beforeMutation: (backend: InMemoryBackend) => void;
let afterMutation: (backend: InMemoryBackend) => void;
// Also set there: a brand check, where instanceof would pass a Proxy that has none of the private state.
let isInMemoryBackend: (value: unknown) => value is InMemoryBackend;

class InMemoryBackend implements Backend {
  #tree: Tree;
  readonly #cwd: string;
  // One counter for a backend and all its forks: a version names one content in the whole family (merge relies on it).
  readonly #versions: { next: number };
  readonly #textBudget: number;
  /** #tree is also another backend's (a fork's, or the backend this was forked from): copy it before changing it. */
  #shared = false;
  /** Set on a fork: the backend it was forked from, and that backend's tree at the fork point (never changed: the merge base). */
  #origin: InMemoryBackend | null = null;
  #base: Tree | null = null;
  #merged = false;
  readonly #checkpoints = new Checkpoints();
  readonly #texts: TextCache;
  readonly #search = createSearchIndex();
  readonly #watchers = new Watchers();

  constructor(options: StateBackendOptions, from?: InMemoryBackend) {
    if (from) {
      // A fork: the same tree, until either side writes (see #own).
      this.#versions = from.#versions;
      joinVersionFamily(this, this.#versions);
      this.#textBudget = from.#textBudget;
      this.#texts = new TextCache(this.#textBudget);
      this.#cwd = from.#cwd;
      this.#tree = this.#base = from.#tree;
      this.#origin = from;
      this.#shared = true;
      return;
    }
    const limits = resolveLimits(options.limits);
    this.#versions = { next: 1 };
    joinVersionFamily(this, this.#versions);
    this.#textBudget = textCacheBudget(options.textCacheBytes);
    this.#texts = new TextCache(this.#textBudget);
    const now = options.now ?? Date.now;
    if (typeof now !== 'function') throw new TypeError('agentvfs: options.now must be a function returning ms since epoch.');
    const files = options.files ?? {};
    const proto = typeof files === 'object' && files !== null ? Object.getPrototypeOf(files) : undefined;
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError('agentvfs: options.files must be an object of path → content (a string or a Uint8Array).');
    }
    this.#cwd = normalizePath(options.cwd ?? '/');
    // Checked at every call: a time that is not a number would be saved, and no snapshot of it restores.
    const clock = () => {
      const ms = now();
      if (!Number.isFinite(ms))
        throw new VfsError('EINVAL', `options.now must return ms since epoch (a finite number), got ${String(ms)}. Nothing was changed.`);
      return ms;
    };
    this.#tree = new Tree(limits, clock, this.#versions);
    this.#tree.observer = this.#checkpoints;
    this.#tree.log = this.#watchers;
    // Initial files go through the same checks as any write; a bad one fails construction.
    for (const [path, data] of Object.entries(files)) {
      this.#tree.writeFile(this.#path(path), toBytes(data, path), typeof data === 'string');
    }
  }

  #path(input: unknown): string {
    return normalizePath(input, this.#cwd);
  }

  async resolvePath(path: string): Promise<string> {
    return this.#path(path);
  }

  ls(path: string | undefined, options: LsOptions & CountIgnored): Promise<LsReport>;
  ls(path?: string, options?: LsOptions): Promise<FileInfo[]>;
  async ls(path: string = '/', options: LsOptions & Partial<CountIgnored> = {}): Promise<FileInfo[] | LsReport> {
    const dir = this.#path(path);
    this.#tree.requireDir(dir);
    let infos = this.#tree.children(dir).map((p) => this.#tree.info(p, this.#tree.get(p)!));
    let ignored = 0;
    if (options.respectGitIgnore === true) {
      const out = this.#search.ignoredEntries(this.#tree, dir, infos);
      const kept = infos.filter((_, i) => !out[i]);
      ignored = infos.length - kept.length;
      infos = kept;
    }
    const entries = infos.sort((a, b) => Number(b.isDir) - Number(a.isDir) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return options.countIgnored === true ? { entries, ignored } : entries;
  }

  async stat(path: string): Promise<FileInfo> {
    const p = this.#path(path);
    return this.#tree.info(p, this.#tree.require(p));
  }

  async exists(path: string): Promise<boolean> {
    return this.#tree.get(this.#path(path)) !== undefined;
  }

  async readFile(path: string): Promise<OwnedBytes> {
    const p = this.#path(path);
    this.#tree.requireFile(p);
    return this.#tree.bytes(p);
  }

  async readText(path: string): Promise<string> {
    const p = this.#path(path);
    const meta = this.#tree.requireFile(p);
    const cached = this.#texts.get(p, meta);
    if (cached !== undefined) return cached.text;
    const bytes = this.#tree.view(p);
    const text = decodeText(bytes);
    // Only text an edit may start from is kept: not a file whose bytes are no valid UTF-8 (decodeForEdit refuses those).
    if (!isBinary(bytes) && (!text.includes('\uFFFD') || isValidUtf8(bytes)))
      this.#texts.set(p, meta, text, hasBom(bytes), bytes.length, this.#tree.totalBytes);
    return text;
  }

  async read(path: string): Promise<ReadResult> {
    const p = this.#path(path);
    const meta = this.#tree.requireFile(p);
    return { path: p, content: this.#tree.bytes(p), version: meta.version, mtimeMs: meta.mtimeMs };
  }

  async writeFile(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<WriteResult> {
    const p = this.#path(path);
    const bytes = toBytes(data, p);
    this.#checkVersion(p, options.expectedVersion);
    // Text was just encoded: no second copy.
    const { meta, created } = this.#tree.writeFile(p, bytes, typeof data === 'string' || keeps(options.copy, bytes));
    // An agent edits what it just wrote: keep the text, so the edit need not decode it.
    if (typeof data === 'string' && roundTrips(data, bytes)) this.#texts.set(p, meta, data, false, bytes.length, this.#tree.totalBytes);
    return { ...this.#tree.info(p, meta), created };
  }

  async edit(path: string, oldOrRequest: string | EditRequest, newStringArg?: string, optionsArg: EditOptions = {}): Promise<EditResult> {
    let oldString: unknown = oldOrRequest;
    let newString: unknown = newStringArg;
    let options = optionsArg;
    if (typeof oldOrRequest === 'object' && oldOrRequest !== null) {
      const r = oldOrRequest;
      oldString = r.old_string ?? r.oldString;
      newString = r.new_string ?? r.newString;
      options = { ...r, replaceAll: r.replaceAll ?? r.replace_all };
    }
    const p = this.#path(path);
    if (typeof oldString !== 'string' || typeof newString !== 'string') {
      throw new VfsError('EINVAL', 'old_string and new_string must be strings.', { path: p });
    }
    wellFormedText(newString, 'new_string', p);
    const current = this.#tree.requireFile(p);
    this.#checkVersion(p, options.expectedVersion);
    const { text, bom } = this.#texts.get(p, current) ?? this.#decodeForEdit(p);
    let outcome: ReturnType<typeof applyEdit>;
    try {
      outcome = applyEdit(text, oldString as string, newString as string, { replaceAll: options.replaceAll === true });
    } catch (error) {
      if (isVfsError(error)) throw new VfsError(error.code, `${p}: ${error.message}`, { path: p });
      throw error;
    }
    const encoded = encodeText(outcome.text);
    const next = bom ? withBom(encoded) : encoded;
    const { meta } = this.#tree.writeFile(p, next, true);
    // The edit_file tool reads the result back for its snippet, and agents edit a file again.
    if (roundTrips(outcome.text, encoded)) this.#texts.set(p, meta, outcome.text, bom, next.length, this.#tree.totalBytes);
    return {
      ...this.#tree.info(p, meta),
      count: outcome.count,
      correction: outcome.correction,
      correctionNote: outcome.correctionNote,
      firstLine: outcome.firstLine,
      lastLine: outcome.lastLine,
      replacedLines: outcome.replacedLines,
    };
  }

  #decodeForEdit(path: string): { text: string; bom: boolean } {
    const bytes = this.#tree.view(path);
    if (isBinary(bytes)) {
      throw new VfsError(
        'EBINARY',
        `${path} is a binary file (${counted(bytes.length, 'byte')}); it cannot be edited as text. It is unchanged. Use write_file to replace it whole.`,
        { path },
      );
    }
    return { text: decodeForEdit(bytes, path), bom: hasBom(bytes) };
  }

  #checkVersion(path: string, expected: number | undefined): void {
    if (expected === undefined) return;
    if (!Number.isInteger(expected) || expected < -1) {
      throw new VfsError(
        'EINVAL',
        `expectedVersion must be a version (an integer, -1 for "must not exist"), got ${typeof expected === 'string' ? JSON.stringify(expected) : String(expected)}. Nothing was written.`,
        {
          path,
        },
      );
    }
    const current = this.#tree.get(path);
    const actual = current?.kind === 'file' ? current.version : -1;
    if (actual !== expected) {
      const what = actual === -1 ? 'it no longer exists' : expected === -1 ? 'it was created' : 'it was modified';
      throw new VfsError('ESTALE', `${path} changed since it was read (${what}). It is unchanged by this call. Read it again with read_file, then retry.`, {
        path,
      });
    }
  }

  async mkdir(path: string): Promise<FileInfo> {
    const p = this.#path(path);
    return this.#tree.info(p, this.#tree.mkdir(p));
  }

  async remove(path: string, options: RemoveOptions = {}): Promise<void> {
    this.#tree.remove(this.#path(path), options.recursive === true);
  }

  async rename(from: string, to: string, options: RenameOptions = {}): Promise<FileInfo> {
    const source = this.#path(from);
    const target = this.#path(to);
    return this.#tree.info(target, this.#tree.rename(source, target, options.overwrite === true));
  }

  glob(pattern: string, options: GlobOptions & CountIgnored): Promise<GlobReport>;
  glob(pattern: string, options?: GlobOptions): Promise<string[]>;
  async glob(pattern: string, options: GlobOptions & Partial<CountIgnored> = {}): Promise<string[] | GlobReport> {
    const base = this.#path(options.path ?? '/');
    this.#tree.requireDir(base);
    const flags = this.#search.ignoredFlags(this.#tree, options.respectGitIgnore === true);
    const report = this.#search.glob(this.#tree, requireString(pattern, 'pattern'), base, flags, options.ignoreCase === true);
    return options.countIgnored === true ? report : report.paths;
  }

  grep(pattern: string, options: GrepOptions & CountIgnored): Promise<GrepReport>;
  grep(pattern: string, options?: GrepOptions): Promise<GrepMatch[]>;
  async grep(pattern: string, options: GrepOptions & Partial<CountIgnored> = {}): Promise<GrepMatch[] | GrepReport> {
    const base = this.#path(options.path ?? '/');
    this.#tree.require(base);
    const maxMatches = countOption(options.maxMatches, 'maxMatches');
    const maxMatchesPerFile = countOption(options.maxMatchesPerFile, 'maxMatchesPerFile');
    const report = this.#search.grep(this.#tree, {
      pattern: requireString(pattern, 'pattern'),
      base,
      glob: options.glob,
      ignoreCase: options.ignoreCase === true,
      fixedStrings: options.fixedStrings === true,
      maxMatches,
      maxMatchesPerFile,
      reportBinary: options.reportBinary === true,
      ignoredFlags: this.#search.ignoredFlags(this.#tree, options.respectGitIgnore === true),
    });
    return options.countIgnored === true ? report : report.matches;
  }

  async prepareSearch(options: PrepareSearchOptions = {}): Promise<PrepareSearchResult> {
    const maxBytes = options.maxBytes ?? Infinity;
    if (typeof maxBytes !== 'number' || !(maxBytes >= 0)) {
      throw new VfsError('EINVAL', `maxBytes must be a number >= 0, got ${JSON.stringify(maxBytes)}.`);
    }
    return this.#search.prepare(this.#tree, maxBytes);
  }

  async uploadFiles(files: ReadonlyArray<readonly [string, Uint8Array]>, options: UploadOptions = {}): Promise<UploadResult[]> {
    if (!Array.isArray(files)) throw new VfsError('EINVAL', 'uploadFiles expects an array of [path, bytes] pairs.');
    const bulk = options.copy === false ? undefined : new BulkCopy(uploadSizes(files));
    return files.map((pair, i) => {
      const isPair = Array.isArray(pair) && typeof pair[0] === 'string';
      const path = isPair ? pair[0] : `files[${i}]`;
      let p: string | undefined;
      try {
        if (!isPair)
          throw new VfsError(
            'EINVAL',
            `files[${i}] must be a [path, bytes] pair, got ${pair === null ? 'null' : Array.isArray(pair) ? 'an array without a path' : typeof pair}. It was not written.`,
          );
        p = this.#path(path);
        const bytes = toBytes(pair[1], p, false);
        this.#tree.writeFile(p, bytes, keeps(options.copy, bytes), bulk);
        return { path: p };
      } catch (error) {
        return { path: p ?? path, error: describe(error) };
      }
    });
  }

  async applyBatch(changes: readonly BatchChange[]): Promise<BatchResult[]> {
    if (!Array.isArray(changes))
      throw new VfsError('EINVAL', 'applyBatch expects an array of { path, content, expectedVersion? } changes. Nothing was written.');
    const prepared = changes.map((change: unknown, i): PreparedChange => {
      const c = change as Partial<BatchChange> | null;
      if (typeof c !== 'object' || c === null || typeof c.path !== 'string' || c.content === undefined) {
        throw new VfsError(
          'EINVAL',
          `applyBatch: changes[${i}] must be { path, content, expectedVersion? } (content null removes the file). Nothing was written.`,
        );
      }
      const path = this.#path(c.path);
      const bytes = c.content === null ? null : toBytes(c.content, path);
      return { path, bytes, owned: typeof c.content === 'string', expectedVersion: c.expectedVersion };
    });
    return applyBatch(this.#tree, prepared, (path, expected) => this.#checkVersion(path, expected));
  }

  async downloadFiles(paths: readonly string[]): Promise<DownloadResult[]> {
    if (!Array.isArray(paths)) throw new VfsError('EINVAL', 'downloadFiles expects an array of paths.');
    return paths.map((path) => {
      let p: string | undefined;
      try {
        p = this.#path(path);
        this.#tree.requireFile(p);
        return { path: p, content: this.#tree.bytes(p) };
      } catch (error) {
        // Normalized like every path a method returns; as given only when it has no normal form.
        return { path: p ?? String(path), content: null, error: describe(error) };
      }
    });
  }

  async snapshot(): Promise<OwnedBytes> {
    // A live tree's entries are valid by construction: skip encodeSnapshot's re-validation.
    return encodeSnapshot(this.#tree.snapshotEntries(), { validate: false });
  }

  async restore(bytes: Uint8Array, options: RestoreOptions = {}): Promise<void> {
    const old = this.#tree;
    // Decoding copies the files (laid out as bulk-buffers.ts says, in the pass that checks the
    // checksum), unless the caller hands the snapshot over (copy: false): the files then stay
    // views into it. Either way the tree keeps what decoding gives.
    // The tree limits path length in UTF-16 units, the format in UTF-8 bytes (up to 3 per unit):
    // allow what the tree allows, and let load() check units.
    const limits = { ...old.limits, maxPathLength: old.limits.maxPathLength * 3 };
    const { entries, inPathOrder } = decodeSnapshotEntries(bytes, limits, { copy: !keeps(options?.copy, bytes) });
    // Our own snapshots are already in path order; a foreign writer's may not be (any order is valid).
    if (!inPathOrder) entries.sort((a, b) => comparePaths(a.path, b.path));
    // Build the new state to the side; swap only when every entry went in.
    const next = new Tree(old.limits, old.now, this.#versions);
    try {
      next.load(entries, old.now());
    } catch (error) {
      throw new VfsError('ESNAPSHOT', `Snapshot rejected, state unchanged: ${describe(error)}`, { cause: error });
    }
    this.#checkpoints.replaced(old, next);
    this.#replaceTree(old, next, (path) => sameBytes(old.view(path), next.view(path)));
    this.#texts.clear(); // every file has new metadata: nothing kept could be returned again
  }

  async checkpoint(label?: string): Promise<string> {
    if (label !== undefined && typeof label !== 'string') throw new VfsError('EINVAL', 'A checkpoint label must be a string.');
    return this.#checkpoints.create(this.#tree, label ?? null).id;
  }

  async listCheckpoints(): Promise<CheckpointInfo[]> {
    return this.#checkpoints.list();
  }

  async rollback(id: string): Promise<void> {
    const old = this.#tree;
    const next = new Tree(old.limits, old.now, this.#versions);
    this.#checkpoints.rollback(id, old, next);
    // A rollback keeps Metas: a path whose Meta differs holds other content, or the same at another time.
    this.#replaceTree(old, next, () => false);
  }

  /** Makes `next` the state; watchers hear of every path that differs. */
  #replaceTree(old: Tree, next: Tree, sameContent: (path: string) => boolean): void {
    if (this.#watchers.active) {
      const events = treeDifferences(old, next, (path, a, b) => a.size === b.size && a.mtimeMs === b.mtimeMs && sameContent(path));
      this.#watchers.record(events);
    }
    if (old.log === this.#watchers) old.log = null;
    next.log = this.#watchers;
    this.#tree = next;
    this.#shared = false;
  }

  /**
   * Before a change: a tree shared with a fork (or with the backend this was forked from) is
   * copied first, so the other side, and a fork's merge base, never see the change. The copy
   * shares every file's bytes and Meta; only the path table is new.
   */
  #own(): void {
    if (!this.#shared) return;
    const old = this.#tree;
    const next = old.clone();
    if (old.observer === this.#checkpoints) old.observer = null;
    next.observer = this.#checkpoints;
    if (old.log === this.#watchers) old.log = null;
    next.log = this.#watchers;
    this.#tree = next;
    this.#shared = false;
  }

  async fork(): Promise<StateBackend> {
    this.#shared = true;
    return new InMemoryBackend({}, this);
  }

  /**
   * A fork that is never merged (look-ahead.ts): this backend stays unshared, so it writes in
   * place as before; the fork copies the table before its own first write, and may see this
   * backend's writes until then (it only looks ahead).
   */
  [SCRATCH_FORK](): StateBackend {
    return new InMemoryBackend({}, this);
  }

  [CHECK_FITS](changes: ReadonlyArray<readonly [string, number | null]>, batch: boolean): void {
    const normal = changes.map(([path, size]) => [this.#path(path), size] as const);
    if (batch) checkBatchLimits(this.#tree, normal);
    else for (const [path, size] of normal) if (size !== null) this.#tree.checkFits(path, size);
  }

  async merge(other: StateBackend, options: MergeOptions = {}): Promise<MergeResult> {
    const fork = unwrapBackend(other);
    const mode = options.conflicts ?? 'report';
    if (mode !== 'report' && mode !== 'markers') {
      throw new VfsError('EINVAL', `conflicts must be 'report' or 'markers', got ${JSON.stringify(mode)}. Nothing was merged.`);
    }
    // A fork may also take in what changed in the backend it was forked from (its base then moves up to that state).
    const isOurs = isInMemoryBackend(fork);
    const update = isOurs && this.#origin === fork;
    if (!isOurs || (fork.#origin !== this && !update)) {
      throw new VfsError(
        'EINVAL',
        `merge() takes a fork made by this backend’s fork(), or, in a fork, the backend it was forked from (a fork of another backend, or this backend itself, cannot be merged here${isOurs ? '' : '; pass the fork itself, not a wrapper or proxy around it'}). Nothing was merged.`,
      );
    }
    if (fork.#merged || (update && this.#merged)) {
      throw new VfsError('EINVAL', 'This fork was already merged; a fork merges once. Fork again for more work. Nothing was merged.');
    }
    const ours = this.#tree;
    const theirsTree = fork.#tree;
    // A fork taking in its parent: the side merged in, as the conflicts' `detail` names it, is the parent.
    const plan = planMerge(update ? this.#base! : fork.#base!, ours, theirsTree, mode === 'markers', update ? 'the parent' : 'the fork');
    if (plan.conflicts.length > 0 && mode === 'report') return { merged: [], conflicts: plan.conflicts, patch: '' };
    // Applied to a copy, swapped in only when every step went in (a quota can still refuse one).
    const next = ours.clone();
    // The checkpoints hear which paths changed only once every step went in (a refused merge
    // changed nothing); a retiring version's bytes they may keep at once (still those of `ours`).
    const touched: string[] = [];
    const checkpoints = this.#checkpoints;
    next.observer = { retiring: (path, meta, tree) => checkpoints.retiring(path, meta, tree), changed: (path) => void touched.push(path) };
    // What the merge changed, as watchers will hear it: it also gives `merged`.
    const log: { pending: WatchEvent[] } = { pending: [] };
    next.log = log;
    try {
      applyPlan(next, plan.ops);
    } catch (error) {
      next.observer = null;
      next.log = null;
      if (isVfsError(error))
        throw new VfsError(error.code, `${error.message.replace(/ Nothing was written[^.]*\./, '')} The merge changed nothing.`, {
          path: error.path,
          cause: error,
        });
      throw error;
    }
    for (const path of touched) checkpoints.changed(path);
    next.observer = checkpoints;
    if (ours.observer === this.#checkpoints) ours.observer = null;
    if (ours.log === this.#watchers) ours.log = null;
    next.log = this.#watchers;
    this.#watchers.record(log.pending);
    this.#tree = next;
    this.#shared = false;
    if (update) {
      // The state just taken in is this fork's new base: from now on neither side may change that tree.
      this.#base = theirsTree;
      fork.#shared = true;
    } else fork.#merged = true;
    const merged = [...new Set(log.pending.flatMap((e) => (e.oldPath === undefined ? [e.path] : [e.oldPath, e.path])))].sort(comparePaths);
    return { merged, conflicts: plan.conflicts, patch: diffTrees(ours, next, merged).patch };
  }

  /**
   * Calls `listener` after every committed mutation with its events (one call per backend call,
   * in commit order; refused calls send none). Returns the function that stops it.
   */
  watch(listener: WatchListener, options: WatchOptions = {}): () => void {
    return this.#watchers.add(listener, this.#path(options.path ?? '/'), options.glob, options.directories);
  }

  static {
    // Private hooks for wrapMutations (below): kept out of this block, whose lowering some bundlers get wrong.
    beforeMutation = (backend) => backend.#own();
    afterMutation = (backend) => backend.#watchers.flush();
    isInMemoryBackend = (value): value is InMemoryBackend => typeof value === 'object' && value !== null && #tree in value;
  }

  async deleteCheckpoint(id: string): Promise<void> {
    this.#checkpoints.delete(id);
  }

  async diff(from: string | StateBackend, toId?: string): Promise<CheckpointDiff> {
    const fromId = unwrapBackend(from);
    if (typeof fromId === 'object' && fromId !== null) {
      if (!isInMemoryBackend(fromId)) {
        throw new VfsError('EINVAL', 'diff(backend) takes a backend made by createStateBackend() or fork() itself, not a wrapper or proxy around one.');
      }
      if (fromId.#versions !== this.#versions) {
        throw new VfsError(
          'EINVAL',
          'diff(backend) compares a backend with its forks and their forks; this one is of another family. Compare snapshots instead.',
        );
      }
      return diffTrees(this.#tree, fromId.#tree);
    }
    return this.#checkpoints.diff(fromId as string, toId, this.#tree);
  }
}

// Methods that make a whole new tree need no copy of a shared one first.
const REPLACES_TREE = new Set(['restore', 'rollback', 'merge']);

/**
 * Every mutating method (the table says which) first copies a tree shared with a fork, and
 * hands its events to the watchers when its work is done, also when it failed part way
 * (uploadFiles keeps the files that went in): only committed changes are ever recorded.
 */
function wrapMutations(): void {
  for (const [name, info] of Object.entries(BACKEND_CALLS)) {
    if (!info.mutates) continue;
    const copyFirst = !REPLACES_TREE.has(name);
    const method = InMemoryBackend.prototype[name as keyof InMemoryBackend] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(InMemoryBackend.prototype, name, {
      configurable: true,
      writable: true,
      value: {
        [name](this: InMemoryBackend, ...args: unknown[]): Promise<unknown> {
          if (copyFirst) beforeMutation(this);
          try {
            return method.apply(this, args);
          } finally {
            afterMutation(this);
          }
        },
      }[name],
    });
  }
}
wrapMutations();

function textCacheBudget(bytes: unknown): number {
  if (bytes === undefined) return DEFAULT_TEXT_CACHE_BYTES;
  if (typeof bytes !== 'number' || !(bytes >= 0)) {
    throw new TypeError(`agentvfs: options.textCacheBytes must be a number of bytes, 0 or more (0 turns the cache off); got ${String(bytes)}.`);
  }
  return bytes;
}

function toBytes(data: unknown, path: string, allowString = true): Uint8Array {
  if (allowString && typeof data === 'string') return encodeText(wellFormedText(data, `Content for ${path}`, path));
  // Any realm's Uint8Array (or Buffer); storage copies it, so the caller may reuse it.
  // The tag Object.prototype.toString would print, read directly (~30x cheaper per call, which bulk uploads feel).
  if (ArrayBuffer.isView(data) && (data as Uint8Array)[Symbol.toStringTag] === 'Uint8Array') return data as Uint8Array;
  throw new VfsError(
    'EINVAL',
    `Content for ${path} must be ${allowString ? 'a string or ' : ''}a Uint8Array, got ${data === null ? 'null' : typeof data}. Nothing was written.`,
    { path },
  );
}

/** The lengths of the files an upload would copy (what is not a Uint8Array is refused later). */
function uploadSizes(files: readonly unknown[]): number[] {
  const sizes: number[] = [];
  for (const pair of files) {
    const bytes = Array.isArray(pair) ? (pair[1] as unknown) : undefined;
    if (ArrayBuffer.isView(bytes)) sizes.push(bytes.byteLength);
  }
  return sizes;
}

/** Whether to keep the caller's bytes as they are (copy: false), which shared memory never is. */
function keeps(copy: unknown, bytes: Uint8Array): boolean {
  return copy === false && !(typeof SharedArrayBuffer === 'function' && bytes.buffer instanceof SharedArrayBuffer);
}

function withBom(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(bytes, 3);
  return out;
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new VfsError('EINVAL', `${name} must be a string, got ${value === null ? 'null' : typeof value}.`);
  return value;
}

function describe(error: unknown): string {
  if (isVfsError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** A limit option: a number >= 1, or Infinity when absent. */
function countOption(value: unknown, name: string): number {
  const n = value ?? Infinity;
  if (typeof n !== 'number' || !(n >= 1)) throw new VfsError('EINVAL', `${name} must be a number >= 1, got ${String(value)}.`);
  return n;
}
