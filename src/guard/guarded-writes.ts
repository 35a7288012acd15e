/**
 * The writes of one guarded call: each is checked against permissions.write, put to approve()
 * with the diff of exactly what would be written (unless no approve, or "always"), then done
 * with the version seen when asking, so a file changed while the question was open is ESTALE.
 * A person's content is written instead when they gave one; the call's notes then tell the model.
 */
import type { Backend, BatchChange, BatchResult, EditOptions, EditRequest, EditResult, UploadResult, WriteOptions, WriteResult } from '../backend/types.ts';
import { counted } from '../counted.ts';
import { applyEdit } from '../edit/apply-edit.ts';
import { isVfsError, VfsError } from '../errors.ts';
import { countLines, decodeText, encodeText, hasBom, isBinary, isValidUtf8 } from '../text.ts';
import { askApproval, type Asked, type AskingCall } from './ask.ts';
import { statOrNull } from '../backend/stat-or-null.ts';
import { sameBytes } from '../same-bytes.ts';
import { underFileMessage, wellFormedText } from '../backend/refusals.ts';
import { ancestorsOf } from '../paths.ts';
import type { GuardSession } from './session.ts';
import type { ApprovalRequest, Decision } from './types.ts';
import { writeDiff } from './write-diff.ts';
import { fitCheckOf } from '../backend/look-ahead.ts';

const removalTakesNoContent = (path: string) =>
  new VfsError('EINVAL', `approve() answered a removal of ${path} with a content; a removal can only be allowed or denied. Nothing was removed.`, { path });

/** How the note a model gets after a person changed what it wrote begins. */
export const PERSON_EDITED_NOTE = 'Note: the user changed the content before it was written:';

/** One call's state the writes share with the rest of the guard. */
export interface WriteContext {
  readonly inner: Backend;
  readonly session: GuardSession;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly decisions: Decision[];
  readonly notes: string[];
  readonly unread: string[];
  /** The call the writes are asked for (its cancellation). */
  readonly call: AskingCall;
}

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
const UTF8_BOM = (bytes: Uint8Array) => {
  const out = new Uint8Array(bytes.length + 3);
  out.set(BOM);
  out.set(bytes, 3);
  return out;
};

export function guardedWrites(context: WriteContext) {
  const { inner, session, tool, args, decisions, notes, unread, call } = context;
  const fits = fitCheckOf(inner);
  const { rules } = session;

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

  /** current(), for a write: a path under a file is refused as a write (a read's ENOTDIR says to read the file). */
  async function currentForWrite(path: string): Promise<{ bytes: Uint8Array | null; version: number }> {
    try {
      return await current(path);
    } catch (error) {
      if (!isVfsError(error) || error.code !== 'ENOTDIR') throw error;
      for (const ancestor of ancestorsOf(path)) {
        const info = await statOrNull(inner, ancestor);
        if (info !== null && !info.isDir) throw new VfsError('ENOTDIR', underFileMessage(ancestor, path), { path });
      }
      throw error;
    }
  }

  /**
   * Asks before writing `proposed` to `path` (unless no approve or "always"), showing the diff of
   * `written`, the bytes that would be written when they are not `proposed` as it is (a kept BOM).
   * `moved`: the file comes from there (a patch's `*** Move to:`), holding those bytes: one question
   * about the move. `unchanged`: what a refusal says was left as it was (see askApproval).
   * Resolves to the version to write over, whether a question was asked, and the content a person
   * put instead, if any.
   */
  async function ask(
    path: string,
    before: { bytes: Uint8Array | null; version: number },
    proposed: string | Uint8Array | null,
    {
      written = proposed,
      unchanged,
      moved,
      inBatch = false,
    }: { written?: string | Uint8Array | null; unchanged?: string; moved?: { from: string; bytes: Uint8Array | null }; inBatch?: boolean } = {},
  ): Promise<{ version: number; asked: boolean; replacement?: string }> {
    if (session.approve === undefined) return { version: before.version, asked: false };
    if (session.always) {
      decisions.push('always');
      return { version: before.version, asked: false };
    }
    const bytes = written === null ? null : typeof written === 'string' ? encodeText(written) : written;
    // The content the file holds already: the write changes nothing, so no one is asked about it.
    if (moved === undefined && before.bytes !== null && bytes !== null && sameBytes(before.bytes, bytes)) return { version: before.version, asked: false };
    // Nor is anyone asked about a write the backend's limits would refuse: its refusal is the answer.
    // (A batch's files are checked together, before any is asked about: see applyBatch.)
    if (bytes !== null && !inBatch) fits?.([[path, bytes.byteLength]], false);
    const content = proposedText(proposed);
    const asked: Asked = await put(
      {
        tool,
        args,
        path,
        diff: moved === undefined ? writeDiff(path, before.bytes, written) : moveDiff(moved, path, before.bytes, written),
        created: before.bytes === null,
        action: proposed === null ? 'remove' : 'write',
        ...(content !== undefined ? { content } : {}),
        ...(moved !== undefined ? { from: moved.from } : {}),
      },
      proposed === null ? removalTakesNoContent(path) : undefined,
      unchanged,
    );
    return asked.replacement === undefined
      ? { version: before.version, asked: true }
      : { version: before.version, asked: true, replacement: asked.replacement };
  }

  /**
   * One question; the answer is recorded for the audit (a denial too), and "always" is remembered.
   * `noContent`: the refusal of a content given where there is none to give (a removal, a rename, a
   * directory): nothing is written, so the audit records a denial.
   */
  async function put(request: ApprovalRequest, noContent?: VfsError, unchanged?: string): Promise<Asked> {
    let asked: Asked;
    try {
      asked = await askApproval(session.approve!, request, call, unchanged);
    } catch (error) {
      // A cancelled call was not decided.
      if (!isVfsError(error) || error.code !== 'ECANCELED') decisions.push('deny');
      throw error;
    }
    if (asked.replacement !== undefined && noContent !== undefined) {
      decisions.push('deny');
      throw noContent;
    }
    decisions.push(asked.decision);
    if (asked.decision === 'always' || asked.always === true) session.always = true;
    return asked;
  }

  /** A person's content was written instead of the model's: the model is told, and must read it again. */
  function replaced(path: string, content: string): void {
    unread.push(path);
    notes.push(
      `${PERSON_EDITED_NOTE} ${path} now holds their version (${counted(countLines(content), 'line')}), not the one you proposed. Read it with read_file before editing it again.`,
    );
  }

  /**
   * An ESTALE of a write a person was asked about says the file changed while they were asked.
   * `path` null: the path the backend's ESTALE names (a batch), `asked` then says whether it was asked about.
   */
  async function stale<T>(path: string | null, write: Promise<T>, asked: boolean | ((path: string) => boolean)): Promise<T> {
    try {
      return await write;
    } catch (error) {
      if (!isVfsError(error) || error.code !== 'ESTALE') throw error;
      const p = path ?? error.path ?? 'a file';
      if (typeof asked === 'function' ? !asked(p) : !asked) throw error;
      throw new VfsError('ESTALE', `${p} changed while the write was waiting for approval. Nothing was written. Read it again with read_file, then retry.`, {
        ...((path ?? error.path) ? { path: (path ?? error.path)! } : {}),
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

  // A backend that cannot write now (a tab following another's workspace) refuses the write: no one is asked about it.
  const asking = () => session.approve !== undefined && !session.always && (inner as { writable?: unknown }).writable !== false;

  async function writeFile(path: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<WriteResult> {
    const p = await inner.resolvePath(path);
    rules.requireWrite(p);
    if (!asking()) {
      if (session.always) decisions.push('always');
      return inner.writeFile(p, data, options);
    }
    // Content the write would refuse is refused before anyone is asked about it.
    if (typeof data === 'string') wellFormedText(data, `Content for ${p}`, p);
    const before = await currentForWrite(p);
    checkExpected(p, options.expectedVersion, before.version);
    const answer = await ask(p, before, data);
    if (answer.replacement !== undefined) {
      const result = await stale(p, inner.writeFile(p, personsContent(answer.replacement, p, data), { expectedVersion: answer.version }), answer.asked);
      replaced(p, answer.replacement);
      return result;
    }
    return stale(p, inner.writeFile(p, data, { ...options, expectedVersion: answer.version }), answer.asked);
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
    if (before.bytes === null || isBinary(before.bytes) || !isValidUtf8(before.bytes) || typeof oldString !== 'string' || typeof replacement !== 'string') {
      return inner.edit(p, request);
    }
    wellFormedText(replacement, 'new_string', p);
    checkExpected(p, request.expectedVersion, before.version);
    let outcome: ReturnType<typeof applyEdit>;
    try {
      outcome = applyEdit(decodeText(before.bytes), oldString, replacement, { replaceAll });
    } catch (error) {
      if (isVfsError(error)) throw new VfsError(error.code, `${p}: ${error.message}`, { path: p });
      throw error;
    }
    // The edit keeps the file's BOM, which the text it edited leaves out: the diff shows what is written.
    const answer = await ask(p, before, outcome.text, { written: hasBom(before.bytes) ? `\uFEFF${outcome.text}` : outcome.text });
    if (answer.replacement === undefined) {
      return stale(p, inner.edit(p, { old_string: oldString, new_string: replacement, replaceAll, expectedVersion: answer.version }), answer.asked);
    }
    const bytes = encodeText(personsText(answer.replacement, p));
    const written = await stale(
      p,
      inner.writeFile(p, hasBom(before.bytes) ? UTF8_BOM(bytes) : bytes, { expectedVersion: answer.version, copy: false }),
      answer.asked,
    );
    replaced(p, answer.replacement);
    const { created: _, ...info } = written;
    return {
      ...info,
      count: outcome.count,
      correction: outcome.correction,
      correctionNote: outcome.correctionNote,
      firstLine: outcome.firstLine,
      lastLine: outcome.lastLine,
      replacedLines: outcome.replacedLines,
    };
  }

  async function remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const p = await inner.resolvePath(path);
    rules.requireWrite(p);
    const info = await inner.stat(p);
    const files = info.isDir ? (await inner.glob('**', { path: p })).sort() : [p]; // in path order, for the diff
    rules.requireEach(p, files, 'write', 'removed');
    // The directories inside go too: each must be writable, as a rename's are.
    const dirs = info.isDir ? await directoriesUnder(inner, p) : [];
    rules.requireEach(p, dirs, 'write', 'removed');
    // (A directory with files, removed without `recursive`, is refused by the backend: nothing to ask.)
    if (!asking() || (info.isDir && options.recursive !== true && files.length > 0)) {
      if (session.always) decisions.push('always');
      return inner.remove(p, options);
    }
    if (files.length === 0) {
      // Directories only (or none): asked too, a line naming each.
      const diff = [p, ...dirs].map((dir) => `deleted directory ${dir}`).join('\n');
      await put({ tool, args, path: p, diff, created: false, action: 'remove', directory: true }, removalTakesNoContent(p));
      if ((await inner.glob('**', { path: p })).length > 0) {
        throw new VfsError('ESTALE', `${p} got files while its removal was waiting for approval. Nothing was removed. Look at it again, then retry.`, {
          path: p,
        });
      }
      return inner.remove(p, options);
    }
    // One question for the whole removal, with every file's lines as - lines.
    const befores = await Promise.all(files.map(current));
    const diff = files.map((file, i) => writeDiff(file, befores[i]!.bytes, null)).join('\n');
    await put({ tool, args, path: p, diff, created: false, action: 'remove' }, removalTakesNoContent(p));
    const now = await Promise.all(files.map(current));
    const added = info.isDir ? (await inner.glob('**', { path: p })).find((file) => !files.includes(file)) : undefined;
    const changed = added ?? files.find((_, i) => now[i]!.version !== befores[i]!.version);
    if (changed !== undefined) {
      // (A file the session may not read is not named: the directory is.)
      const named = rules.canRead(changed) ? changed : p;
      throw new VfsError('ESTALE', `${named} changed while the removal was waiting for approval. Nothing was removed. Look at it again, then retry.`, {
        path: named,
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
    const files = info.isDir ? (await inner.glob('**', { path: source })).sort() : [];
    const landing = (path: string) => target + path.slice(source.length);
    // Directories come along too (empty ones are not in `files`): where each lands must be writable.
    if (info.isDir) rules.requireEach(target, (await directoriesUnder(inner, source)).map(landing), 'write', 'moved');
    // A move reads what it moves: an unreadable file must not reach a path the session may read.
    if (!info.isDir) rules.requireRead(source);
    // ...and writes where it puts it: each file's new path must be writable too. (A refusal names
    // the directory, not a file in it the session may not see.)
    rules.requireEach(source, files, 'write', 'moved');
    rules.requireEach(source, files, 'read', 'moved');
    rules.requireEach(target, files.map(landing), 'write', 'moved');
    if (asking()) {
      const befores = await Promise.all(files.map(current));
      const replaced = await statOrNull(inner, target); // what the rename would replace (overwrite): a change to it is ESTALE too
      await put(
        {
          tool,
          args,
          path: target,
          diff: `rename from ${source}\nrename to ${target}${replaced !== null ? ` (replacing ${target})` : ''}`,
          created: replaced === null,
          action: 'write',
          from: source,
        },
        new VfsError('EINVAL', `approve() answered a rename of ${source} with a content; a rename can only be allowed or denied. Nothing was moved.`, {
          path: source,
        }),
      );
      const now = info.isDir ? (await inner.glob('**', { path: source })).sort() : [];
      const versions = await Promise.all(files.map(current));
      const sourceNow = await statOrNull(inner, source);
      const changed =
        sourceNow?.version !== info.version
          ? source
          : (await statOrNull(inner, target))?.version !== replaced?.version
            ? target
            : (now.find((file) => !files.includes(file)) ?? files.find((_, i) => versions[i]!.version !== befores[i]!.version));
      if (changed !== undefined) {
        // (A file the session may not read is not named: the directory moved is.)
        const named = rules.canRead(changed) ? changed : source;
        throw new VfsError('ESTALE', `${named} changed while the rename was waiting for approval. Nothing was moved. Look at it again, then retry.`, {
          path: named,
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

  /**
   * applyBatch, on a backend that has it (several files written or removed as one change, e.g.
   * a patch): one question per file, all before anything is written; a denial refuses the whole
   * batch, so the batch stays all-or-nothing. Each file is written at the version seen when asking.
   */
  async function applyBatch(changes: readonly BatchChange[]): Promise<BatchResult[]> {
    const batch = (list: readonly BatchChange[]) => inner.applyBatch(list);
    if (!Array.isArray(changes)) return batch(changes);
    const resolved: BatchChange[] = [];
    for (const change of changes) resolved.push({ ...change, path: await inner.resolvePath(change.path) });
    for (const change of resolved) rules.requireWrite(change.path);
    if (!asking()) {
      if (session.always) decisions.push('always');
      return batch(resolved);
    }
    // Content the batch would refuse is refused before anyone is asked about it.
    for (const { path, content } of resolved) if (typeof content === 'string') wellFormedText(content, `Content for ${path}`, path);
    const planned: BatchChange[] = [];
    const people: Array<[string, string]> = [];
    const asked = new Set<string>();
    // A file moved (and maybe changed) is one question, at its new path, as a rename is: the removal
    // of where it was is part of it (when the batch removes that path).
    const removed = new Set(resolved.filter((c) => c.content === null).map((c) => c.path));
    const movedFrom = new Map<string, string>();
    for (const change of resolved) {
      if (change.from === undefined || change.content === null) continue;
      const from = await inner.resolvePath(change.from);
      if (removed.has(from)) movedFrom.set(change.path, from);
    }
    const movedAway = new Set(movedFrom.values());
    // Each moved file's version as its question shows it: a change while it is asked is ESTALE.
    const seenMoved = new Map<string, number>();
    const unchanged = resolved.length > 1 ? 'No file was changed.' : undefined;
    // A batch the backend would refuse (a file read at another version, the limits on the batch as a
    // whole: a removal or a move makes room for the rest) is refused before anyone is asked about it.
    for (const change of resolved) {
      if (change.expectedVersion !== undefined) checkExpected(change.path, change.expectedVersion, (await currentForWrite(change.path)).version);
    }
    fits?.(
      resolved.map(
        ({ path, content }) => [path, content === null ? null : typeof content === 'string' ? encodeText(content).byteLength : content.byteLength] as const,
      ),
      true,
    );
    for (const change of resolved) {
      const before = await currentForWrite(change.path);
      checkExpected(change.path, change.expectedVersion, before.version);
      if (movedAway.has(change.path)) {
        planned.push({ path: change.path, content: null, expectedVersion: seenMoved.get(change.path) ?? before.version });
        continue;
      }
      const from = movedFrom.get(change.path);
      const source = from === undefined ? undefined : await currentForWrite(from);
      if (from !== undefined) seenMoved.set(from, source!.version);
      const moved = from === undefined ? undefined : { from, bytes: source!.bytes };
      // A refusal of one file of several says that none was changed (its own words speak of one file).
      const answer = await ask(change.path, before, change.content, {
        inBatch: true,
        ...(unchanged !== undefined ? { unchanged } : {}),
        ...(moved !== undefined ? { moved } : {}),
      });
      if (answer.asked) asked.add(change.path);
      if (answer.asked && from !== undefined) asked.add(from);
      const content = answer.replacement === undefined ? change.content : personsContent(answer.replacement, change.path, change.content);
      planned.push({ path: change.path, content, expectedVersion: answer.version });
      if (answer.replacement !== undefined) people.push([change.path, answer.replacement]);
    }
    const results = await stale(null, batch(planned), (path) => asked.has(path));
    for (const [path, content] of people) replaced(path, content);
    return results;
  }

  /** A new directory is a write too: asked, with a diff line that names it (a patch has no form for one). */
  async function mkdir(path: string) {
    const p = await inner.resolvePath(path);
    rules.requireWrite(p);
    // Only a directory that would be made is asked about: one there already, a file in the way or
    // above it (the backend then refuses) is not.
    const blocked = async () => (await statOrNull(inner, p)) !== null || (await fileAbove(inner, p));
    if (asking() && !(await blocked())) {
      await put(
        { tool, args, path: p, diff: `new directory ${p}`, created: true, action: 'write', directory: true },
        new VfsError('EINVAL', `approve() answered the creation of the directory ${p} with a content; it can only be allowed or denied. Nothing was created.`, {
          path: p,
        }),
      );
    } else if (session.always) decisions.push('always');
    return inner.mkdir(p);
  }

  return { writeFile, edit, remove, rename, uploadFiles, applyBatch, mkdir };
}

/** A person's replacement content, refused (EINVAL, naming approve()) if UTF-8 cannot store it. */
function personsText(content: string, path: string): string {
  return wellFormedText(content, `The content approve() gave for ${path}`, path);
}

/** What is written for a person's content given instead of `proposed`: their text, with the BOM the proposal kept (as edit() keeps the file's). */
function personsContent(content: string, path: string, proposed: string | Uint8Array | null): string | Uint8Array {
  const text = personsText(content, path);
  return proposed instanceof Uint8Array && hasBom(proposed) ? UTF8_BOM(encodeText(text)) : text;
}

/**
 * A move's question, as git writes a rename (with the change of its content, if any); a file it
 * replaces comes first, as its removal.
 */
function moveDiff(moved: { from: string; bytes: Uint8Array | null }, to: string, replaced: Uint8Array | null, written: string | Uint8Array | null): string {
  const rename = writeDiff(to, moved.bytes, written, moved.from);
  return replaced === null ? rename : `${writeDiff(to, replaced, null)}\n${rename}`;
}

/** The text a question offers to edit (`content`): a string as given, text bytes decoded (without their BOM); none for binary or non-UTF-8 bytes. */
function proposedText(proposed: string | Uint8Array | null): string | undefined {
  if (proposed === null || typeof proposed === 'string') return proposed ?? undefined;
  return isBinary(proposed) || !isValidUtf8(proposed) ? undefined : decodeText(proposed);
}

/** Whether a file lies above `path` (nothing can be made there). */
async function fileAbove(backend: Backend, path: string): Promise<boolean> {
  for (const ancestor of ancestorsOf(path)) {
    const info = await statOrNull(backend, ancestor);
    if (info === null) return false;
    if (!info.isDir) return true;
  }
  return false;
}

/** Every directory under `dir` (not itself), depth first. */
async function directoriesUnder(backend: Backend, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await backend.ls(dir)) {
    if (!entry.isDir) continue;
    out.push(entry.path, ...(await directoriesUnder(backend, entry.path)));
  }
  return out;
}
