/**
 * The view of a backend that one guarded tool call runs over. Every file access of every tool
 * (whatever its dialect) goes through a Backend, so checking here covers them all: paths
 * outside the permissions are EACCES before anything is read or written, searches and listings
 * drop what may not be read, and each write or removal is put to approve() with the diff of
 * exactly what would be written, then done with the version seen when asking (ESTALE if the
 * file changed while the question was open). No lock is held while a question is open.
 */
import type { Backend, DownloadResult, EditOptions, EditRequest, EditResult, GrepOptions, UploadResult, WriteOptions, WriteResult } from '../backend/types.ts';
import { BACKEND_CALLS, BACKEND_METHODS } from '../calls.ts';
import { counted } from '../counted.ts';
import { applyEdit } from '../edit/apply-edit.ts';
import { isVfsError, VfsError } from '../errors.ts';
import { countLines, decodeText, encodeText, hasBom, isBinary } from '../text.ts';
import { askApproval, type Asked } from './ask.ts';
import type { PathRules } from './permissions.ts';
import type { ApprovalRequest, Approve, Decision } from './types.ts';
import { writeDiff } from './write-diff.ts';

/** What a tool set remembers across calls: whether the person said "always". */
export interface GuardSession {
  readonly rules: PathRules;
  readonly approve: Approve | undefined;
  always: boolean;
}

/** One guarded call: the backend view its tool runs over, and what the model and the audit must hear afterwards. */
export interface CallGuard {
  readonly backend: Backend;
  /** Sentences added to the tool's result (a person changed what was written). */
  readonly notes: string[];
  /** Paths the session must read again before editing them (they hold a person's content). */
  readonly unread: string[];
  decision(): Decision | undefined;
}

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const UTF8_BOM = (bytes: Uint8Array) => {
  const out = new Uint8Array(bytes.length + 3);
  out.set(BOM);
  out.set(bytes, 3);
  return out;
};

export function guardCall(inner: Backend, session: GuardSession, tool: string, args: Record<string, unknown>): CallGuard {
  const { rules } = session;
  const decisions: Decision[] = [];
  const notes: string[] = [];
  const unread: string[] = [];

  /** The file as it is now: its bytes and version, or null / -1 when it does not exist. */
  async function current(path: string): Promise<{ bytes: Uint8Array | null; version: number }> {
    try {
      const r = await inner.read(path);
      return { bytes: r.content, version: r.version };
    } catch (error) {
      if (isVfsError(error) && error.code === 'ENOENT') return { bytes: null, version: -1 };
      throw error;
    }
  }

  /**
   * Asks before writing `proposed` to `path` (unless no approve or "always"). Resolves to the
   * version to write over and the content a person put instead, if any.
   */
  async function ask(
    path: string,
    before: { bytes: Uint8Array | null; version: number },
    proposed: string | Uint8Array | null,
  ): Promise<{ version: number; replacement?: string }> {
    if (session.approve === undefined) return { version: before.version };
    if (session.always) {
      decisions.push('always');
      return { version: before.version };
    }
    const asked: Asked = await put({
      tool,
      args,
      path,
      diff: writeDiff(path, before.bytes, proposed),
      created: before.bytes === null,
      action: proposed === null ? 'remove' : 'write',
      ...(typeof proposed === 'string' ? { content: proposed } : {}),
    });
    if (asked.replacement !== undefined && proposed === null) {
      throw new VfsError('EINVAL', `approve() answered a removal of ${path} with a content; a removal can only be allowed or denied. Nothing was removed.`, {
        path,
      });
    }
    return asked.replacement === undefined ? { version: before.version } : { version: before.version, replacement: asked.replacement };
  }

  /** One question; the answer is recorded for the audit (a denial too), and "always" is remembered. */
  async function put(request: ApprovalRequest): Promise<Asked> {
    let asked: Asked;
    try {
      asked = await askApproval(session.approve!, request);
    } catch (error) {
      decisions.push('deny');
      throw error;
    }
    decisions.push(asked.decision);
    if (asked.decision === 'always') session.always = true;
    return asked;
  }

  /** A person's content was written instead of the model's: the model is told, and must read it again. */
  function replaced(path: string, content: string): void {
    unread.push(path);
    notes.push(
      `Note: the user changed the content before it was written: ${path} now holds their version (${counted(countLines(content), 'line')}), not the one you proposed. Read it with read_file before editing it again.`,
    );
  }

  async function stale<T>(path: string, write: Promise<T>, asked: boolean): Promise<T> {
    try {
      return await write;
    } catch (error) {
      if (!asked || !isVfsError(error) || error.code !== 'ESTALE') throw error;
      throw new VfsError('ESTALE', `${path} changed while the write was waiting for approval. Nothing was written. Read it again with read_file, then retry.`, {
        path,
      });
    }
  }

  const checkExpected = (path: string, expected: number | undefined, actual: number) => {
    if (expected === undefined || expected === actual) return;
    const what = actual === -1 ? 'it no longer exists' : expected === -1 ? 'it was created' : 'it was modified';
    throw new VfsError('ESTALE', `${path} changed since it was read (${what}). It is unchanged by this call. Read it again with read_file, then retry.`, {
      path,
    });
  };

  const asking = () => session.approve !== undefined && !session.always;

  async function writeFile(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<WriteResult> {
    const p = await inner.resolvePath(path);
    rules.requireWrite(p);
    if (!asking()) {
      if (session.always) decisions.push('always');
      return inner.writeFile(p, data, options);
    }
    const before = await current(p);
    checkExpected(p, options.expectedVersion, before.version);
    const answer = await ask(p, before, data);
    if (answer.replacement !== undefined) {
      const result = await stale(p, inner.writeFile(p, answer.replacement, { expectedVersion: answer.version }), true);
      replaced(p, answer.replacement);
      return result;
    }
    return stale(p, inner.writeFile(p, data, { ...options, expectedVersion: answer.version }), true);
  }

  async function edit(path: string, oldOrRequest: string | EditRequest, newString?: string, options: EditOptions = {}): Promise<EditResult> {
    const p = await inner.resolvePath(path);
    rules.requireWrite(p);
    const plain = typeof oldOrRequest === 'object' && oldOrRequest !== null;
    const request: EditRequest = plain ? oldOrRequest : { ...options, old_string: oldOrRequest, new_string: newString };
    const oldString = request.old_string ?? request.oldString;
    const replacement = request.new_string ?? request.newString;
    const replaceAll = (request.replaceAll ?? request.replace_all) === true;
    if (!asking()) {
      if (session.always) decisions.push('always');
      return inner.edit(p, request);
    }
    const before = await current(p);
    // Anything the edit itself refuses (missing file, binary, bad strings, stale) is refused the same way, without a question.
    if (before.bytes === null || isBinary(before.bytes) || typeof oldString !== 'string' || typeof replacement !== 'string') return inner.edit(p, request);
    checkExpected(p, request.expectedVersion, before.version);
    let outcome: ReturnType<typeof applyEdit>;
    try {
      outcome = applyEdit(decodeText(before.bytes), oldString, replacement, { replaceAll });
    } catch (error) {
      if (isVfsError(error)) throw new VfsError(error.code, `${p}: ${error.message}`, { path: p });
      throw error;
    }
    const answer = await ask(p, before, outcome.text);
    if (answer.replacement === undefined) {
      return stale(p, inner.edit(p, { old_string: oldString, new_string: replacement, replaceAll, expectedVersion: answer.version }), true);
    }
    const bytes = encodeText(answer.replacement);
    const written = await stale(p, inner.writeFile(p, hasBom(before.bytes) ? UTF8_BOM(bytes) : bytes, { expectedVersion: answer.version, copy: false }), true);
    replaced(p, answer.replacement);
    const { created: _, ...info } = written;
    return {
      ...info,
      count: outcome.count,
      correction: outcome.correction,
      correctionNote: outcome.correctionNote,
      firstLine: outcome.firstLine,
      lastLine: outcome.lastLine,
    };
  }

  async function remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const p = await inner.resolvePath(path);
    rules.requireWrite(p);
    const info = await inner.stat(p);
    const files = info.isDir ? (await inner.glob('**', { path: p })).sort() : [p]; // in path order, for the diff
    for (const file of files) rules.requireWrite(file);
    if (!asking() || (info.isDir && options.recursive !== true) || files.length === 0) {
      if (session.always) decisions.push('always');
      return inner.remove(p, options);
    }
    // One question for the whole removal, with every file's lines as - lines.
    const befores = await Promise.all(files.map(current));
    const diff = files.map((file, i) => writeDiff(file, befores[i]!.bytes, null)).join('\n');
    const asked = await put({ tool, args, path: p, diff, created: false, action: 'remove' });
    if (asked.replacement !== undefined) {
      throw new VfsError('EINVAL', `approve() answered a removal of ${p} with a content; a removal can only be allowed or denied. Nothing was removed.`, {
        path: p,
      });
    }
    const now = await Promise.all(files.map(current));
    const changed = files.find((_, i) => now[i]!.version !== befores[i]!.version);
    if (changed !== undefined) {
      throw new VfsError('ESTALE', `${changed} changed while the removal was waiting for approval. Nothing was removed. Look at it again, then retry.`, {
        path: changed,
      });
    }
    return inner.remove(p, options);
  }

  async function rename(from: string, to: string, options: { overwrite?: boolean } = {}) {
    const source = await inner.resolvePath(from);
    const target = await inner.resolvePath(to);
    rules.requireWrite(source);
    rules.requireWrite(target);
    const info = await inner.stat(source);
    if (info.isDir) for (const file of await inner.glob('**', { path: source })) rules.requireWrite(file);
    if (asking()) {
      const asked = await put({
        tool,
        args,
        path: target,
        diff: `rename from ${source}\nrename to ${target}`,
        created: !(await inner.exists(target)),
        action: 'write',
      });
      if (asked.replacement !== undefined) {
        throw new VfsError('EINVAL', `approve() answered a rename of ${source} with a content; a rename can only be allowed or denied. Nothing was moved.`, {
          path: source,
        });
      }
      if ((await inner.stat(source)).version !== info.version) {
        throw new VfsError('ESTALE', `${source} changed while the rename was waiting for approval. Nothing was moved. Look at it again, then retry.`, {
          path: source,
        });
      }
    } else if (session.always) decisions.push('always');
    return inner.rename(source, target, options);
  }

  async function uploadFiles(files: ReadonlyArray<readonly [string, Uint8Array]>): Promise<UploadResult[]> {
    if (!Array.isArray(files)) return inner.uploadFiles(files);
    const out: UploadResult[] = [];
    // One question per file, each written on its own answer.
    for (const [path, bytes] of files) {
      try {
        await writeFile(path, bytes);
        out.push({ path: await inner.resolvePath(path) });
      } catch (error) {
        out.push({ path: String(path), error: isVfsError(error) ? `${error.code}: ${error.message}` : String(error) });
      }
    }
    return out;
  }

  const refuseWhole = (method: string) => async () => {
    throw new VfsError(
      'EACCES',
      `${method} works on every file at once, which a tool set with permissions or approval may not do. Nothing was changed. Call it on the backend itself.`,
    );
  };

  const view: Record<string, unknown> = {
    resolvePath: (path: string) => inner.resolvePath(path),
    async ls(path = '/') {
      const p = await inner.resolvePath(path);
      rules.requireSearchable(p);
      const entries = await inner.ls(p);
      return rules.limitsRead ? entries.filter((e) => (e.isDir ? rules.mayHoldReadable(e.path) : rules.canRead(e.path))) : entries;
    },
    async stat(path: string) {
      const p = await inner.resolvePath(path);
      if (!rules.canWrite(p)) rules.requireRead(p);
      return inner.stat(p);
    },
    async exists(path: string) {
      const p = await inner.resolvePath(path);
      if (!rules.canWrite(p)) rules.requireRead(p);
      return inner.exists(p);
    },
    readFile: readOnly('readFile'),
    readText: readOnly('readText'),
    read: readOnly('read'),
    writeFile,
    edit,
    async mkdir(path: string) {
      const p = await inner.resolvePath(path);
      rules.requireWrite(p);
      return inner.mkdir(p);
    },
    remove,
    rename,
    async glob(pattern: string, options: { path?: string } = {}) {
      const base = await inner.resolvePath(options.path ?? '/');
      rules.requireSearchable(base);
      const paths = await inner.glob(pattern, { ...options, path: base });
      return rules.limitsRead ? paths.filter(rules.canRead) : paths;
    },
    async grep(pattern: string, options: GrepOptions = {}) {
      const base = await inner.resolvePath(options.path ?? '/');
      rules.requireSearchable(base);
      if (!rules.limitsRead) return inner.grep(pattern, options);
      // maxMatches counts readable matches only, so it is applied after the filter.
      const { maxMatches, ...rest } = options;
      const found = (await inner.grep(pattern, { ...rest, path: base })).filter((m) => rules.canRead(m.path));
      return maxMatches === undefined ? found : found.slice(0, maxMatches);
    },
    uploadFiles,
    async downloadFiles(paths: readonly string[]): Promise<DownloadResult[]> {
      if (!Array.isArray(paths)) return inner.downloadFiles(paths);
      return Promise.all(
        paths.map(async (path): Promise<DownloadResult> => {
          try {
            const p = await inner.resolvePath(path);
            rules.requireRead(p);
            return (await inner.downloadFiles([p]))[0]!;
          } catch (error) {
            return { path: String(path), content: null, error: isVfsError(error) ? `${error.code}: ${error.message}` : String(error) };
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

  // A not-found error suggests files with the same name: only readable ones may be named.
  if (rules.limitsRead) {
    for (const [method, fn] of Object.entries(view)) {
      view[method] = (...a: unknown[]) =>
        (fn as (...a: unknown[]) => Promise<unknown>)(...a).catch((error: unknown) => {
          throw withReadableSuggestions(error, rules);
        });
    }
  }

  return {
    backend: view as unknown as Backend,
    notes,
    unread,
    decision: () => summarize(decisions),
  };
}

function withReadableSuggestions(error: unknown, rules: PathRules): unknown {
  if (!isVfsError(error) || error.code !== 'ENOENT') return error;
  const match = / Did you mean (.+)\?$/.exec(error.message);
  if (!match) return error;
  const kept = match[1]!.split(', ').filter(rules.canRead);
  const hint = kept.length > 0 ? ` Did you mean ${kept.join(', ')}?` : ' Use ls or glob to see what exists.';
  return new VfsError('ENOENT', error.message.slice(0, match.index) + hint, error.path === undefined ? {} : { path: error.path });
}

function summarize(decisions: readonly Decision[]): Decision | undefined {
  if (decisions.length === 0) return undefined;
  for (const d of ['deny', 'edit', 'always'] as const) if (decisions.includes(d)) return d;
  return 'allow';
}
