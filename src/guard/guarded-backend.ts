/**
 * The view of a backend that one guarded tool call runs over. Every file access of every tool
 * (whatever its dialect) goes through a Backend, so checking here covers them all: paths
 * outside the permissions are EACCES before anything is read or written, searches and listings
 * drop what may not be read, and each write or removal is put to approve() with the diff of
 * exactly what would be written, then done with the version seen when asking (ESTALE if the
 * file changed while the question was open). No lock is held while a question is open.
 */
import type { Backend, DownloadResult, FileInfo, GlobOptions, GlobReport, GrepMatch, GrepOptions, GrepReport, LsOptions, LsReport } from '../backend/types.ts';
import { BACKEND_CALLS, BACKEND_METHODS, callMayWrite, toolCall } from '../calls.ts';
import { isVfsError, VfsError } from '../errors.ts';
import { statOrNull } from '../backend/stat-or-null.ts';
import { ancestorsOf } from '../paths.ts';
import { guardedWrites } from './guarded-writes.ts';
import type { AskingCall } from './ask.ts';
import { forWriting, type PathRules } from './permissions.ts';
import type { GuardSession } from './session.ts';
import type { Decision } from './types.ts';
import { asMissingSuggestions, notFoundWith, suggestionsOf } from '../backend/not-found.ts';

/** One guarded call: the backend view its tool runs over, and what the model and the audit must hear afterwards. */
export interface CallGuard {
  readonly backend: Backend;
  /** Sentences added to the tool's result (a person changed what was written). */
  readonly notes: string[];
  /** Paths the session must read again before editing them (they hold a person's content). */
  readonly unread: string[];
  decision(): Decision | undefined;
}

export function guardCall(inner: Backend, session: GuardSession, tool: string, args: Record<string, unknown>, call: AskingCall = {}): CallGuard {
  const rules = callMayWrite(toolCall(tool, session.dialect), args) ? forWriting(session.rules) : session.rules;
  const decisions: Decision[] = [];
  const notes: string[] = [];
  const unread: string[] = [];

  const { writeFile, edit, remove, rename, uploadFiles, applyBatch, mkdir } = guardedWrites({ inner, session, tool, args, decisions, notes, unread, call });

  const refuseWhole = (method: string) => async () => {
    throw new VfsError(
      'EACCES',
      `${method} works on every file at once, which a tool set with permissions or approval may not do. Nothing was changed. Call it on the backend itself.`,
    );
  };

  const visible = (path: string, isDir: boolean) => (isDir ? rules.mayHoldReadable(path) : rules.canRead(path));
  // What ignore rules left out, counted over what this call may see (so respect_git_ignore: false
  // adds exactly that many): the same query without the rules, less what was kept. Only asked
  // when something was left out; plain data, so it works over any backend, a worker's too.
  const readableIgnored = async (kept: number, everything: () => Promise<readonly { path: string; isDir: boolean }[]>) =>
    (await everything()).filter((e) => visible(e.path, e.isDir)).length - kept;
  const asFiles = (paths: readonly string[]) => paths.map((path) => ({ path, isDir: false }));

  // A directory readable paths lie in may be looked at, as ls lists it. Anything else there (a
  // file, or nothing) is refused alike, so a refusal never tells what exists.
  const listableDir = async (p: string): Promise<FileInfo | null> => {
    if (!rules.mayHoldReadable(p)) return null;
    const info = await statOrNull(inner, p);
    return info?.isDir === true ? info : null;
  };

  const view: Record<string, unknown> = {
    resolvePath: (path: string) => inner.resolvePath(path),
    // ls, glob and grep answer a plain list, or a report with the list and an ignored count
    // (countIgnored): the list is filtered either way, and the count counts only what may be read.
    async ls(path = '/', options?: LsOptions) {
      const p = await inner.resolvePath(path);
      rules.requireSearchable(p);
      const keep = (entries: FileInfo[]) => (rules.limitsRead ? entries.filter((e) => visible(e.path, e.isDir)) : entries);
      const result = (await inner.ls(p, options as LsOptions)) as FileInfo[] | LsReport;
      if (Array.isArray(result)) return keep(result);
      const entries = keep(result.entries);
      if (!rules.limitsRead || result.ignored === 0) return { ...result, entries };
      const { countIgnored: _, ...plain } = options as LsOptions & { countIgnored?: true };
      return { entries, ignored: await readableIgnored(entries.length, () => inner.ls(p, { ...plain, respectGitIgnore: false })) };
    },
    async stat(path: string) {
      const p = await inner.resolvePath(path);
      if (rules.canWrite(p) || rules.canRead(p)) return inner.stat(p);
      const dir = await listableDir(p);
      if (dir === null) rules.requireRead(p); // (throws: p is not readable)
      return dir;
    },
    async exists(path: string) {
      const p = await inner.resolvePath(path);
      if (rules.canWrite(p) || rules.canRead(p)) return inner.exists(p);
      if ((await listableDir(p)) === null) rules.requireRead(p); // (throws: p is not readable)
      return true;
    },
    readFile: readOnly('readFile'),
    readText: readOnly('readText'),
    read: readOnly('read'),
    writeFile,
    edit,
    mkdir,
    remove,
    rename,
    async glob(pattern: string, options: GlobOptions = {}) {
      const base = await inner.resolvePath(options.path ?? '/');
      rules.requireSearchable(base);
      const keep = (paths: string[]) => (rules.limitsRead ? paths.filter(rules.canRead) : paths);
      const result = (await inner.glob(pattern, { ...options, path: base })) as string[] | GlobReport;
      if (Array.isArray(result)) return keep(result);
      const paths = keep(result.paths);
      if (!rules.limitsRead || result.ignored === 0) return { ...result, paths };
      const { countIgnored: _, ...plain } = options as GlobOptions & { countIgnored?: true };
      const everything = async () => asFiles(await inner.glob(pattern, { ...plain, path: base, respectGitIgnore: false }));
      return { paths, ignored: await readableIgnored(paths.length, everything) };
    },
    async grep(pattern: string, options: GrepOptions = {}) {
      const base = await inner.resolvePath(options.path ?? '/');
      rules.requireSearchable(base);
      if (!rules.limitsRead) return inner.grep(pattern, options);
      // A file it may not read, named as the place to search, is answered as a missing one: listing
      // it fails as listing a file does (ENOTDIR), which the catch below turns into that answer.
      if (!rules.canRead(base) && (await statOrNull(inner, base))?.isDir === false) await inner.ls(base);
      // maxMatches counts readable matches only, so it is applied after the filter.
      const { maxMatches, ...rest } = options;
      const keep = (matches: GrepMatch[]) => {
        const found = matches.filter((m) => rules.canRead(m.path));
        return maxMatches === undefined ? found : found.slice(0, maxMatches);
      };
      const result = (await inner.grep(pattern, { ...rest, path: base })) as GrepMatch[] | GrepReport;
      if (Array.isArray(result)) return keep(result);
      const matches = keep(result.matches);
      if (result.ignored === 0) return { ...result, matches };
      // grep counts the files in its scope it left out: the scope is its glob (a pattern without "/" names a file at any depth).
      const scope = rest.glob === undefined ? '**' : rest.glob.includes('/') ? rest.glob : `**/${rest.glob}`;
      const files = async (respectGitIgnore: boolean) => asFiles(await inner.glob(scope, { path: base, respectGitIgnore }));
      const searched = (await files(true)).filter((f) => rules.canRead(f.path)).length;
      return { matches, ignored: await readableIgnored(searched, () => files(false)) };
    },
    uploadFiles,
    async downloadFiles(paths: readonly string[]): Promise<DownloadResult[]> {
      if (!Array.isArray(paths)) return inner.downloadFiles(paths);
      return Promise.all(
        paths.map(async (path): Promise<DownloadResult> => {
          let p: string | undefined;
          try {
            p = await inner.resolvePath(path);
            rules.requireRead(p);
            return (await inner.downloadFiles([p]))[0]!;
          } catch (error) {
            return { path: p ?? String(path), content: null, error: isVfsError(error) ? `${error.code}: ${error.message}` : String(error) };
          }
        }),
      );
    },
    async snapshot() {
      if (rules.limitsRead) await refuseWhole('snapshot')();
      return inner.snapshot();
    },
    async diff(fromId: string, toId?: string) {
      if (rules.limitsRead) await refuseWhole('diff')();
      return toId === undefined ? inner.diff(fromId) : inner.diff(fromId, toId);
    },
    restore: refuseWhole('restore'),
    rollback: refuseWhole('rollback'),
  };

  if (typeof (inner as { applyBatch?: unknown }).applyBatch === 'function') view.applyBatch = applyBatch;

  function readOnly(method: 'readFile' | 'readText' | 'read') {
    return async (path: string) => {
      const p = await inner.resolvePath(path);
      rules.requireRead(p);
      return (inner[method] as (p: string) => Promise<unknown>)(p);
    };
  }

  // Every other method (prepareSearch, checkpoints, and any added later): one that reads goes
  // through with its path arguments checked; one that changes the state is refused, so a new
  // mutating method is never an unguarded way around the questions.
  for (const method of BACKEND_METHODS) {
    if (method in view) continue;
    const info = BACKEND_CALLS[method];
    const original = inner[method] as (...a: unknown[]) => Promise<unknown>;
    view[method] = info.mutates
      ? refuseWhole(method)
      : async (...a: unknown[]) => {
          for (const at of info.pathArgs) if (typeof a[at] === 'string') rules.requireRead(await inner.resolvePath(a[at] as string));
          return original.apply(inner, a);
        };
  }

  // A not-found error suggests files with the same name: only readable ones may be named. And a
  // path at or under a file the session may not read answers as a missing path does: "… is a
  // file" would tell that the file exists.
  if (rules.limitsRead) {
    for (const [method, fn] of Object.entries(view)) {
      view[method] = (...a: unknown[]) =>
        (fn as (...a: unknown[]) => Promise<unknown>)(...a).catch(async (error: unknown) => {
          throw await hidden(error);
        });
    }
  }

  async function hidden(error: unknown): Promise<unknown> {
    if (isVfsError(error) && error.code === 'ENOTDIR' && error.path !== undefined) {
      const path = await inner.resolvePath(error.path).catch(() => null);
      const file = path === null ? null : await fileAtOrAbove(path);
      // What the backend would have suggested for a missing path, less what may not be read, as for one.
      const asMissing = asMissingSuggestions(error);
      if (path !== null && file !== null && !rules.canRead(file)) return notFoundWith(path, (asMissing ?? []).filter(rules.canRead));
    }
    return withReadableSuggestions(error, rules);
  }

  /** The file that `path` is, or lies under; null when there is none. */
  async function fileAtOrAbove(path: string): Promise<string | null> {
    for (const p of [...ancestorsOf(path), path]) if ((await statOrNull(inner, p))?.isDir === false) return p;
    return null;
  }

  return {
    backend: view as unknown as Backend,
    notes,
    unread,
    decision: () => summarize(decisions),
  };
}

/** A not-found error that names only readable paths: its suggestions are made again from those. */
function withReadableSuggestions(error: unknown, rules: PathRules): unknown {
  if (!isVfsError(error) || error.code !== 'ENOENT' || error.path === undefined) return error;
  const suggested = suggestionsOf(error);
  // (An error whose suggestions are not known here suggests nothing: it might name anything.)
  if (suggested === undefined) return error.message.includes(' Did you mean ') ? notFoundWith(error.path, []) : error;
  if (suggested.every(rules.canRead)) return error;
  return notFoundWith(error.path, suggested.filter(rules.canRead));
}

function summarize(decisions: readonly Decision[]): Decision | undefined {
  if (decisions.length === 0) return undefined;
  for (const d of ['deny', 'edit', 'always'] as const) if (decisions.includes(d)) return d;
  return 'allow';
}
