/**
 * Public types of the backend contract, shared by the in-process backend and the worker client.
 * Types only: implementation modules import from here, never the reverse (so no import cycles).
 */
import type { Limits } from '../limits.ts';

export interface FileInfo {
  /** Absolute, normalized path. */
  path: string;
  /** Last path segment ("" for the root). */
  name: string;
  isDir: boolean;
  /** Size in bytes (0 for directories). */
  size: number;
  /** Last modification time, from the backend's clock (ms since epoch). */
  mtimeMs: number;
  /** Changes on every write to this path; never reused, even after remove + recreate. */
  version: number;
}

export interface WriteResult extends FileInfo {
  /** True when the file did not exist before this write. */
  created: boolean;
}

export interface WriteOptions {
  /** Refuse with ESTALE unless the file's current version is this one (-1: the file must not exist). */
  expectedVersion?: number | undefined;
  /**
   * false: keep the Uint8Array you pass instead of copying it (no effect on a string). Saves a
   * copy of every byte, for bytes made only to be written; you must not modify them afterwards,
   * or the file changes without a new version. Bytes over a SharedArrayBuffer are copied anyway.
   * Default true.
   */
  copy?: boolean | undefined;
}

export interface PrepareSearchOptions {
  /** Stop once this many bytes of files were indexed (at least one file). Default Infinity. */
  maxBytes?: number | undefined;
}

export interface PrepareSearchResult {
  /** Every file has a current index: the next search builds nothing. */
  done: boolean;
  /** Files indexed by this call. */
  indexedFiles: number;
}

export interface UploadOptions {
  /** false: keep the arrays you pass instead of copying them, as in WriteOptions.copy. Default true. */
  copy?: boolean | undefined;
}

export interface RestoreOptions {
  /**
   * false: keep the snapshot's bytes instead of copying each file out of it: every restored file
   * is a view into `bytes`, which you must not modify afterwards (a file would change without a
   * new version), and which stays alive while any of those files does. A failed restore never
   * writes into it. Bytes over a SharedArrayBuffer are copied anyway. Default true.
   */
  copy?: boolean | undefined;
}

export interface EditOptions {
  /** Replace every occurrence instead of refusing with EAMBIGUOUS. */
  replaceAll?: boolean | undefined;
  /** Refuse with ESTALE unless the file's current version is this one. */
  expectedVersion?: number | undefined;
}

export interface EditRequest extends EditOptions {
  old_string?: string | undefined;
  new_string?: string | undefined;
  replace_all?: boolean | undefined;
  oldString?: string | undefined;
  newString?: string | undefined;
}

export type EditCorrection =
  | 'line-endings'
  | 'unescaped'
  | 'line-numbers'
  | 'unicode-punctuation'
  | 'unicode-normalization'
  | 'trailing-whitespace'
  | 'indentation';

export interface EditResult extends FileInfo {
  /** Number of replacements made. */
  count: number;
  /** Which correction made old_string match, or null for an exact match. */
  correction: EditCorrection | null;
  /** One sentence describing the correction, or null. */
  correctionNote: string | null;
  /** 1-based line range of the new text covering every replaced region. */
  firstLine: number;
  lastLine: number;
  /** Each replacement's 1-based line range in the new text (first, last), in order. */
  replacedLines: Array<[first: number, last: number]>;
}

/**
 * Bytes the backend made for the caller, over an ArrayBuffer of their own (never a
 * SharedArrayBuffer): what `Blob`, `Response` and `crypto.subtle` take as they are. The type
 * `Uint8Array<ArrayBuffer>`, written so that TypeScript before 5.7 (no generic Uint8Array) reads
 * a plain Uint8Array.
 */
export type OwnedBytes = ReturnType<Uint8Array['slice']>;

export interface ReadResult {
  path: string;
  content: OwnedBytes;
  version: number;
  mtimeMs: number;
}

/**
 * Leave out what .gitignore files (anywhere in the tree, with git's rules) and the default
 * ignores of `.git/` and `node_modules/` (at any depth, lowest precedence) exclude. A `path` that
 * is itself ignored is searched as asked, the rules applying beneath it. Default false here;
 * the tools pass true unless the model sets `respect_git_ignore: false`.
 */
export interface IgnoreOptions {
  respectGitIgnore?: boolean | undefined;
}

/** Asks glob, grep or ls for a report: the result and how many files (for ls, entries) ignore rules left out. */
export interface CountIgnored {
  countIgnored: true;
}

export interface LsOptions extends IgnoreOptions {}

export interface LsReport {
  entries: FileInfo[];
  /** Entries of the directory that ignore rules left out. */
  ignored: number;
}

export interface GlobOptions extends IgnoreOptions {
  /** Directory the pattern is matched relative to. Default "/". */
  path?: string | undefined;
  /** Match letters in either case (`*.md` also finds `README.MD`). Default false. */
  ignoreCase?: boolean | undefined;
}

export interface GlobReport {
  paths: string[];
  /** Files matching the pattern that ignore rules left out. */
  ignored: number;
}

export interface GrepReport {
  matches: GrepMatch[];
  /** Files in the search's scope (path and glob) that ignore rules left out, unsearched (up to where maxMatches stopped the search). */
  ignored: number;
}

export interface GrepOptions extends IgnoreOptions {
  /** File or directory to search. Default "/". */
  path?: string | undefined;
  /** Only search files whose path (relative to `path`) matches; a pattern without "/" matches basenames; one starting with "/" matches whole paths. */
  glob?: string | undefined;
  ignoreCase?: boolean | undefined;
  /** Treat `pattern` as a literal string. */
  fixedStrings?: boolean | undefined;
  /** Stop after this many matching lines (default: no limit). */
  maxMatches?: number | undefined;
  /** Report at most this many matching lines per file, like `rg --max-count` (default: no limit); 1 lists the files. */
  maxMatchesPerFile?: number | undefined;
  /**
   * Also return one `{ path, line: 0, column: 0, length: 0, text: '', binary: true }` entry for
   * each binary file in the search's scope, in path order among the matches (binary files are
   * skipped either way; these entries count toward no limit). Default false.
   */
  reportBinary?: boolean | undefined;
}

export interface GrepMatch {
  path: string;
  /** 1-based line number. */
  line: number;
  /** 0-based UTF-16 offset of the first match in the line. */
  column: number;
  /** Length of the first match, in UTF-16 units. */
  length: number;
  /** The whole line, without its line ending. */
  text: string;
  /** Only on the entries `reportBinary` asks for: a binary file that was skipped. */
  binary?: true;
}

/** One file of applyBatch. */
export interface BatchChange {
  path: string;
  /** The new content (the file is created or replaced, parents created), or null to remove the file. */
  content: string | Uint8Array | null;
  /** Refuse the whole batch with ESTALE unless the file's current version is this one (-1: the file must not exist). */
  expectedVersion?: number | undefined;
  /**
   * The path this content moves from, which the same batch removes (a patch's `*** Move to:`): an
   * approval step asks once, about the move, as for a rename. The backend itself ignores it.
   */
  from?: string | undefined;
}

export interface BatchResult {
  path: string;
  /** The file's new version; null for a file the batch removed. */
  version: number | null;
  /** True when the file did not exist before. */
  created: boolean;
}

export interface UploadResult {
  path: string;
  error?: string;
}

export interface DownloadResult {
  path: string;
  content: OwnedBytes | null;
  error?: string;
}

export interface RemoveOptions {
  /** Required to remove a non-empty directory. */
  recursive?: boolean | undefined;
}

export interface RenameOptions {
  /** Replace an existing destination file (never a directory). */
  overwrite?: boolean | undefined;
}

export interface CheckpointInfo {
  id: string;
  label: string | null;
  /** Backend clock time when it was taken. */
  createdAt: number;
  /** The checkpoint this one descends from (null for the first). */
  parent: string | null;
  /** Paths created, changed or removed since `parent`. */
  changedPaths: number;
}

export interface CheckpointDiff {
  added: string[];
  removed: string[];
  modified: string[];
  /** Unified diff of every added, removed or modified file ("Binary files … differ" for binary ones and ones not UTF-8), as `git diff` writes it: ends with a line break ('' when nothing differs). */
  patch: string;
}

export interface StateBackendOptions {
  /** Initial files: path → text or bytes. Parents are created. */
  files?: Record<string, string | Uint8Array> | undefined;
  /** Directory that relative paths resolve against. Default "/". */
  cwd?: string | undefined;
  /** Any of the size limits; one left out (or undefined) keeps its default. */
  limits?: { [K in keyof Limits]?: Limits[K] | undefined } | undefined;
  /** Clock for modification times. Default Date.now. */
  now?: (() => number) | undefined;
  /**
   * Memory for the decoded text of recently read, written or edited files, so reading one
   * again (or editing it) does not decode its bytes again. Default 16 MiB; 0 turns it off.
   */
  textCacheBytes?: number | undefined;
}

/** The backend contract. Every method is async so the same type fits an in-process backend and a worker proxy. */
export interface Backend {
  /** The absolute, normalized form of `path` (resolved against the backend's cwd); EINVAL if invalid. */
  resolvePath(path: string): Promise<string>;
  ls(path: string | undefined, options: LsOptions & CountIgnored): Promise<LsReport>;
  ls(path?: string, options?: LsOptions): Promise<FileInfo[]>;
  stat(path: string): Promise<FileInfo>;
  exists(path: string): Promise<boolean>;
  readFile(path: string): Promise<OwnedBytes>;
  /** UTF-8 text of a file; a leading BOM is dropped. */
  readText(path: string): Promise<string>;
  /** Bytes and version of a file, read atomically. */
  read(path: string): Promise<ReadResult>;
  writeFile(path: string, data: string | Uint8Array, options?: WriteOptions): Promise<WriteResult>;
  edit(path: string, oldString: string, newString: string, options?: EditOptions): Promise<EditResult>;
  /** The same, with the tool's argument names: `{ old_string, new_string, replace_all? }` (camelCase works too). */
  edit(path: string, edit: EditRequest): Promise<EditResult>;
  mkdir(path: string): Promise<FileInfo>;
  remove(path: string, options?: RemoveOptions): Promise<void>;
  rename(from: string, to: string, options?: RenameOptions): Promise<FileInfo>;
  glob(pattern: string, options: GlobOptions & CountIgnored): Promise<GlobReport>;
  glob(pattern: string, options?: GlobOptions): Promise<string[]>;
  grep(pattern: string, options: GrepOptions & CountIgnored): Promise<GrepReport>;
  grep(pattern: string, options?: GrepOptions): Promise<GrepMatch[]>;
  uploadFiles(files: ReadonlyArray<readonly [string, Uint8Array]>, options?: UploadOptions): Promise<UploadResult[]>;
  /**
   * Writes and removes several files as one change: all of them, or (on any error, which names
   * the file) none. Every check (versions, kinds, limits) comes before the first write. Results
   * are in the order of `changes`; a path may appear once.
   */
  applyBatch(changes: readonly BatchChange[]): Promise<BatchResult[]>;
  /**
   * Builds grep's per-file index (trigram filters) now, up to `maxBytes` of file bytes per
   * call (default: all); otherwise each search builds it for an eighth of what it searches
   * (at least 4 MB; the first search of a new state, none) and scans the rest unindexed. Call it when you have time to spare, e.g.
   * after a load; a worker does it by itself when idle. `done`: every file is indexed.
   */
  prepareSearch(options?: PrepareSearchOptions): Promise<PrepareSearchResult>;
  downloadFiles(paths: readonly string[]): Promise<DownloadResult[]>;
  snapshot(): Promise<OwnedBytes>;
  restore(bytes: Uint8Array, options?: RestoreOptions): Promise<void>;
  /** Records the current state; returns its id. Costs memory in proportion to what changed since the last one. */
  checkpoint(label?: string): Promise<string>;
  listCheckpoints(): Promise<CheckpointInfo[]>;
  /** Returns the whole state to checkpoint `id` (file versions included, so earlier reads of that content stay valid). */
  rollback(id: string): Promise<void>;
  /**
   * What changed from checkpoint `fromId` to `toId` (default: the current state); or, given a
   * backend of the same family (a fork, the backend it was forked from, or a sibling), what
   * differs from this backend's current state to that one's.
   */
  diff(fromId: string | Backend, toId?: string): Promise<CheckpointDiff>;
  /**
   * Forgets checkpoint `id` and frees the file bytes only it held. The other checkpoints keep
   * their exact states (later ones absorb its changes); the current state is untouched.
   */
  deleteCheckpoint(id: string): Promise<void>;
  /**
   * Calls `listener` after every committed mutation with the events of that call (one call per
   * mutation, in commit order; none for a refused call); returns the function that stops it.
   * Through a worker the events arrive before the mutating call's own answer.
   */
  watch(listener: WatchListener, options?: WatchOptions): () => void;
  /**
   * A copy-on-write copy of the current state: nothing is copied until either side writes,
   * and then only the path table (file bytes stay shared). Writes on one side are invisible
   * to the other. It starts with no checkpoints, no watchers and no tool sessions.
   */
  fork(): Promise<Backend>;
  /**
   * Three-way merge of `fork` (made by this backend's fork()) into this backend, with the fork
   * point as base. All or nothing: with conflicts under `report` (default), nothing changes.
   * A fork merges into its parent once. In a fork, `merge(parent)` takes in what changed in the
   * parent since, and makes the parent's current state the fork's new base.
   */
  merge(fork: Backend, options?: MergeOptions): Promise<MergeResult>;
}

/** One path a committed mutation created, changed, removed or moved. */
export interface WatchEvent {
  type: 'create' | 'modify' | 'remove' | 'rename';
  /** The path after the change (for `rename`, where it went). */
  path: string;
  /** For `rename`: where it was. */
  oldPath?: string;
  /** The path's version after the change (absent for `remove`). */
  version?: number;
  /** True for a directory. */
  isDir: boolean;
}

export interface WatchOptions {
  /** Only paths at or under this directory (or this file). Default "/". */
  path?: string | undefined;
  /** Only paths matching this glob, relative to `path` (dotfiles included); one starting with "/" matches whole paths. */
  glob?: string | undefined;
  /**
   * Also a directory's own events (`isDir: true`): one made, removed or renamed. Default false:
   * one event per file (a recursive remove gives one `remove` per file), as SPEC §11 has it.
   */
  directories?: boolean | undefined;
}

/** Receives the events of one committed call at a time, in commit order. */
export type WatchListener = (events: WatchEvent[]) => void;

/** One region both sides changed differently. */
export interface ConflictHunk {
  /** 1-based line of its `<<<<<<<` marker in the text written with markers. */
  line: number;
  /** The region as it was at the fork point. */
  base: string;
  /** The region in the backend merged into. */
  ours: string;
  /** The region in the fork. */
  theirs: string;
}

/** Something a merge could not combine. */
export interface MergeConflict {
  path: string;
  /**
   * `content`: both sides changed the same lines (`hunks`), or moved the file to different paths
   * (no `hunks`; `detail` names both); `delete-modify`: one side removed (or moved
   * away) what the other changed; `add-add`: both created the path with different content;
   * `binary`: both changed a file that is not text; `type`: a file on one side, a directory on the other.
   */
  kind: 'content' | 'delete-modify' | 'add-add' | 'binary' | 'type';
  /** For text files: the regions changed on both sides. */
  hunks?: ConflictHunk[];
  /** One sentence saying what happened and what the merge kept. */
  detail: string;
}

export interface MergeOptions {
  /** `report` (default): any conflict changes nothing. `markers`: merge, writing conflicting regions between git-style markers. */
  conflicts?: 'report' | 'markers' | undefined;
}

export interface MergeResult {
  /** Paths this merge changed, sorted (empty when a conflict under `report` stopped it). */
  merged: string[];
  conflicts: MergeConflict[];
  /** Unified diff of what this merge changed. */
  patch: string;
}

/** What createStateBackend returns: the in-memory backend. */
export type StateBackend = Backend;
