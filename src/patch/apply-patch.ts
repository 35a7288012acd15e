/**
 * Applies parsed hunks to a backend as one change. Every hunk is worked out first, in order,
 * against the files as the earlier hunks leave them (a file added and then updated in one patch
 * works, as in Codex); nothing is written until all of them apply, and then everything is
 * written at once with applyBatch, guarded by the versions that were read. Where Codex would
 * leave the files of earlier hunks written after a failure, this changes nothing.
 */
import type { Backend, BatchChange } from '../backend/types.ts';
import { closestLines } from '../edit/candidates.ts';
import { departureNote } from '../edit/apply-edit.ts';
import { isVfsError, VfsError } from '../errors.ts';
import { decodeForEdit, decodeText, encodeText, hasBom, isBinary } from '../text.ts';
import type { CallReads } from '../tools/read-versions.ts';
import type { FileChange } from '../tools/types.ts';
import { applyChunksToLines, ChunkNotFound, joinLines, type Lines, splitKeepingEols } from './apply-chunks.ts';
import { seekSequence } from './seek.ts';
import type { Hunk, UpdateChunk } from './parse.ts';
import { wellFormedText } from '../backend/refusals.ts';
import { checkNewPath } from '../tools/new-path.ts';
import { baseName } from '../paths.ts';

const UNCHANGED = 'No file was changed.';
const MAX_SHOWN_LINES = 20;

/**
 * A file's text as a patch builds it: kept as lines from one section to the next (a patch may
 * update one file in many sections), made a string once, when it is needed.
 */
class FileText {
  #text: string | null;
  #lines: Lines | null;
  private constructor(text: string | null, lines: Lines | null) {
    this.#text = text;
    this.#lines = lines;
  }
  static of(text: string): FileText {
    return new FileText(text, null);
  }
  static ofLines(lines: Lines): FileText {
    return new FileText(null, lines);
  }
  get text(): string {
    return (this.#text ??= joinLines(this.#lines!));
  }
  get lines(): Lines {
    return (this.#lines ??= splitKeepingEols(this.#text!));
  }
  /** Its lines were changed in place and now belong to another FileText. */
  usedUp(): void {
    this.#text = null;
    this.#lines = null;
  }
}

/** A file as the patch has left it so far: its text (null: removed) and what it was before the patch. */
interface FileState {
  text: FileText | null;
  bom: boolean;
  /** The version the file had when the patch read it (-1: it did not exist). */
  baseVersion: number;
  isDir: boolean;
  /** A binary file: it may be replaced or deleted, not updated (its text is not kept). */
  binary: boolean;
  touched: boolean;
}

export interface PatchOutcome {
  /** Codex's summary: `Success. Updated the following files:` then A, M and D lines. */
  summary: string;
}

export interface PatchSource {
  /** What chunk line numbers count in: 'patch' (the input form) or 'diff' (an operation's diff). */
  unit: 'patch' | 'diff';
  /** The line ending for lines added to a file that has none yet. */
  eol: '\n' | '\r\n';
}

export async function applyHunks(
  backend: Backend,
  reads: CallReads,
  hunks: readonly Hunk[],
  source: PatchSource,
  changed: FileChange[],
): Promise<PatchOutcome> {
  if (hunks.length === 0) {
    throw new VfsError('EINVAL', `No files were modified: the patch has no '*** Add File:', '*** Update File:' or '*** Delete File:' section. ${UNCHANGED}`);
  }
  const files = new Map<string, FileState>();
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  // Where each moved file came from (an approval step asks about the move once).
  const movedFrom = new Map<string, string>();

  /** `chunks`: what the patch's section looks for in the file (a refusal shows the file there). */
  async function load(path: string, chunks: readonly UpdateChunk[] = []): Promise<FileState> {
    let state = files.get(path);
    if (state) return state;
    state = await readState(backend, reads, path, chunks);
    files.set(path, state);
    return state;
  }

  for (const hunk of hunks) {
    const path = await resolve(backend, hunk.path, hunk);
    if (hunk.type === 'add') {
      const state = await load(path);
      if (state.isDir)
        throw new VfsError('EISDIR', `Failed to write file ${path}: it is a directory. ${UNCHANGED} Add the file at a path inside it.`, { path });
      if (state.baseVersion === -1) await inSection(hunk, hunk.path, () => checkNewPath(backend, hunk.path, path, 'file'));
      Object.assign(state, { text: FileText.of(hunk.contents), bom: false, binary: false, touched: true });
      added.push(path);
    } else if (hunk.type === 'delete') {
      const state = await load(path);
      if (state.isDir) throw new VfsError('EISDIR', `Failed to delete file ${path}: it is a directory; apply_patch deletes files only. ${UNCHANGED}`, { path });
      if (state.text === null) throw await missing(backend, path, 'Failed to delete file', state);
      Object.assign(state, { text: null, touched: true });
      deleted.push(path);
    } else {
      const state = await load(path, hunk.chunks);
      if (state.isDir) throw new VfsError('EISDIR', `Failed to read file to update ${path}: it is a directory. ${UNCHANGED}`, { path });
      if (state.text === null) throw await missing(backend, path, 'Failed to read file to update', state);
      if (state.binary) {
        throw new VfsError('EBINARY', `${path} is a binary file; apply_patch updates text files only (it may replace or delete it). ${UNCHANGED}`, { path });
      }
      const text = updatedText(path, state.text, hunk.chunks, source);
      const dest = hunk.movePath === null ? path : await resolve(backend, hunk.movePath, hunk);
      if (dest !== path) {
        const target = await load(dest);
        if (target.isDir) throw new VfsError('EISDIR', `Failed to move ${path} to ${dest}: it is a directory. ${UNCHANGED}`, { path: dest });
        if (target.baseVersion === -1) await inSection(hunk, hunk.movePath!, () => checkNewPath(backend, hunk.movePath!, dest, 'file', baseName(path)));
        Object.assign(target, { text, bom: state.bom, binary: false, touched: true });
        Object.assign(state, { text: null, touched: true });
        movedFrom.set(dest, movedFrom.get(path) ?? path);
      } else {
        Object.assign(state, { text, touched: true });
      }
      modified.push(dest);
    }
  }

  const changes: BatchChange[] = [];
  for (const [path, state] of files) {
    if (!state.touched || (state.text === null && state.baseVersion === -1)) continue; // e.g. added, then deleted
    const content = state.text === null ? null : withBom(encodeText(wellFormedText(state.text.text, `Content for ${path}`, path)), state.bom);
    const from = movedFrom.get(path);
    changes.push({ path, content, expectedVersion: state.baseVersion, ...(from !== undefined && content !== null ? { from } : {}) });
  }
  const results = await backend.applyBatch(changes);
  for (const result of results) {
    if (result.version !== null) reads.add(result.path, result.version);
    // A removed file is listed with version -1, so that anything saving after writes sees it.
    changed.push({ path: result.path, version: result.version ?? -1 });
  }
  const rows = [...added.map((p) => `A ${p}`), ...modified.map((p) => `M ${p}`), ...deleted.map((p) => `D ${p}`)];
  return { summary: ['Success. Updated the following files:', ...rows].join('\n') };
}

function resolve(backend: Backend, raw: string, hunk: Hunk): Promise<string> {
  return inSection(hunk, raw, () => backend.resolvePath(raw));
}

/** `step` of the section `hunk` (about its path `raw`), a refusal of it naming the section's header. */
async function inSection<T>(hunk: Hunk, raw: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isVfsError(error)) throw error;
    const header =
      raw !== hunk.path ? `Move to: ${raw}` : hunk.type === 'add' ? `Add File: ${raw}` : hunk.type === 'delete' ? `Delete File: ${raw}` : `Update File: ${raw}`;
    // (A path's own message may already say that nothing changed.)
    const unchanged = error.message.includes(UNCHANGED) ? '' : ` ${UNCHANGED}`;
    throw new VfsError(error.code, `In the patch's '*** ${header}' section: ${error.message}${unchanged}`, { path: raw });
  }
}

/** The file as it is now; refused with ESTALE when this session has seen another version of it. */
async function readState(backend: Backend, reads: CallReads, path: string, chunks: readonly UpdateChunk[]): Promise<FileState> {
  let result: Awaited<ReturnType<Backend['read']>>;
  try {
    result = await backend.read(path);
  } catch (error) {
    if (!isVfsError(error)) throw error;
    if (error.code === 'EISDIR') return { text: null, bom: false, baseVersion: -1, isDir: true, binary: false, touched: false };
    if (error.code === 'ENOENT' || (error.code === 'EACCES' && (await absent(backend, path)))) {
      // (A path the session may write but not read can still be added: nothing is there to read.)
      return { text: null, bom: false, baseVersion: -1, isDir: false, binary: false, touched: false };
    }
    throw error;
  }
  // Needs no prior read; but a session that read or wrote this file must have seen this version.
  const seen = await reads.expected(backend, path);
  if (reads.unseen(path) || (seen !== undefined && seen !== result.version)) {
    // A model with apply_patch alone has no tool to read the file again: the refusal shows it the
    // file as it is now, and counts as that read, so the next patch (whose context lines are
    // checked against this text) can apply.
    reads.add(path, result.version);
    throw new VfsError('ESTALE', `${path} changed since this session last read or wrote it. ${UNCHANGED} ${nowReads(path, result.content, chunks)}`, { path });
  }
  if (isBinary(result.content)) return { text: FileText.of(''), bom: false, baseVersion: result.version, isDir: false, binary: true, touched: false };
  return {
    text: FileText.of(decodeForEdit(result.content, path)),
    bom: hasBom(result.content),
    baseVersion: result.version,
    isDir: false,
    binary: false,
    touched: false,
  };
}

/** Characters of a changed file an ESTALE refusal shows (about a fifth of the result cap). */
const MAX_STALE_SHOWN_CHARS = 16_000;

/**
 * The file as it is now, for a refusal: whole; over MAX_STALE_SHOWN_CHARS, the places the section's
 * `chunks` are about (where their lines are now, or the closest lines), else its first lines.
 */
function nowReads(path: string, content: Uint8Array, chunks: readonly UpdateChunk[]): string {
  const retry = 'Write the patch against it and send it again.';
  if (isBinary(content)) return `It is now a binary file of ${content.length} bytes (it may be replaced or deleted, not updated). ${retry}`;
  const text = decodeText(content);
  if (text.length <= MAX_STALE_SHOWN_CHARS) return `It now reads:\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}(end of ${path}) ${retry}`;
  const places = placesNow(text, chunks);
  if (places !== null) return `${places}\n(the rest of ${path} is not shown; the patch's context lines are checked against the whole file) ${retry}`;
  const lines = text.split('\n');
  let shown = 0;
  let chars = 0;
  while (shown < lines.length && chars + lines[shown]!.length + 1 <= MAX_STALE_SHOWN_CHARS) chars += lines[shown++]!.length + 1;
  if (shown === 0) return `It now holds ${text.length} characters whose first line alone is over ${MAX_STALE_SHOWN_CHARS}, too long to show. ${retry}`;
  const total = text.endsWith('\n') ? lines.length - 1 : lines.length;
  return `Its first ${shown} of ${total} lines now read:\n${lines.slice(0, shown).join('\n')}\n(the patch's context lines are checked against the whole file) ${retry}`;
}

/** Lines shown around each place a refusal shows. */
const PLACE_CONTEXT = 3;

/**
 * Where each of `chunks` is in `text` now (its lines, or else the closest ones), with a few lines
 * around, as many places as fit in MAX_STALE_SHOWN_CHARS; null when none is found.
 */
function placesNow(text: string, chunks: readonly UpdateChunk[]): string | null {
  const { texts } = splitKeepingEols(text);
  const ranges: [number, number][] = [];
  for (const chunk of chunks) {
    const sought = chunk.oldLines.length > 0 ? chunk.oldLines : chunk.anchors;
    if (sought.length === 0) continue;
    let at = seekSequence(texts, sought, 0, chunk.isEndOfFile);
    if (at === -1) at = (closestLines(text, sought.join('\n'), 1)[0]?.line ?? 0) - 1;
    if (at >= 0) ranges.push([Math.max(0, at - PLACE_CONTEXT), Math.min(texts.length, at + sought.length + PLACE_CONTEXT)]);
  }
  if (ranges.length === 0) return null;
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  const blocks: string[] = [];
  let chars = 0;
  for (const [from, to] of merged) {
    // (Without numbers on each line: these are lines to copy into the patch as they are.)
    const block = `Lines ${from + 1}-${to} of ${texts.length} now read:\n${texts.slice(from, to).join('\n')}`;
    if (chars + block.length > MAX_STALE_SHOWN_CHARS) continue; // (a later place may fit)
    blocks.push(block);
    chars += block.length + 1;
  }
  return blocks.length === 0 ? null : blocks.join('\n');
}

/** Whether nothing is at `path` (stat is allowed where the session may write); false when that cannot be told. */
async function absent(backend: Backend, path: string): Promise<boolean> {
  try {
    await backend.stat(path);
    return false;
  } catch (error) {
    return isVfsError(error) && error.code === 'ENOENT';
  }
}

async function missing(backend: Backend, path: string, what: string, state: FileState): Promise<VfsError> {
  if (state.touched) return new VfsError('ENOENT', `${what} ${path}: an earlier section of this patch deleted or moved it. ${UNCHANGED}`, { path });
  try {
    await backend.stat(path);
  } catch (error) {
    if (isVfsError(error)) return new VfsError(error.code, `${what} ${path}: ${error.message} ${UNCHANGED}`, { path });
  }
  return new VfsError('ENOENT', `${what} ${path}: it does not exist. ${UNCHANGED}`, { path });
}

/** The file's text after `chunks`; `text` is used up (its lines change in place), unless a chunk is not found. */
function updatedText(path: string, text: FileText, chunks: readonly UpdateChunk[], source: PatchSource): FileText {
  const lines = text.lines;
  try {
    applyChunksToLines(lines, chunks, source.eol);
  } catch (error) {
    if (error instanceof ChunkNotFound) throw notFound(path, text.text, chunks.length, error, source.unit);
    throw error;
  }
  text.usedUp();
  return FileText.ofLines(lines);
}

/** Which chunk of which file, what was not found, the closest lines there are, and what to do. */
function notFound(path: string, text: string, total: number, failure: ChunkNotFound, unit: PatchSource['unit']): VfsError {
  const { chunk, index, anchor } = failure;
  const which = `chunk ${index + 1} of ${total}, at line ${chunk.line} of the ${unit}`;
  const after = failure.from > 0 ? ` after line ${failure.from}` : '';
  let head: string;
  let sought: string;
  if (anchor !== null) {
    head = `Failed to find context '${anchor}' in ${path}${after} (${which}).`;
    sought = anchor;
  } else {
    const shown = chunk.oldLines.slice(0, MAX_SHOWN_LINES).join('\n');
    const more = chunk.oldLines.length > MAX_SHOWN_LINES ? `\n... (${chunk.oldLines.length - MAX_SHOWN_LINES} more lines)` : '';
    head = `Failed to find expected lines in ${path}${after} (${which}):\n${shown}${more}`;
    sought = chunk.oldLines.join('\n');
  }
  const candidates = closestLines(text, sought);
  const departed = anchor === null ? (earlier(text, chunk, failure.from) ?? departureNote(text, sought, candidates, 'the chunk')) : null;
  const closest =
    candidates.length > 0
      ? `Closest lines in ${path}:\n${candidates.map((c) => `${String(c.line).padStart(6)}\t${c.text}`).join('\n')}${departed === null ? '' : `\n${departed}`}`
      : `Nothing similar in ${path}.`;
  const fix =
    anchor === null
      ? `${signedContext(chunk, text)}Make the chunk's context (' ') and removed ('-') lines match the file exactly, then send the whole patch again.`
      : /^-\d+(,\d+)? \+\d+(,\d+)? @@/.test(anchor)
        ? `'@@ ${anchor}' is a unified-diff header: here an @@ line names a line of the file (e.g. a class or function line), or is a bare @@. Send the whole patch again.`
        : 'Copy the @@ line from the file (e.g. the class or function line), or use a bare @@, then send the whole patch again.';
  return new VfsError('ENOMATCH', `${head}\n${closest}\n${UNCHANGED} ${fix}`, { path });
}

/**
 * For a chunk whose lines are all in the file, but above `from` (where the chunk before it ended):
 * that they are, and that chunks go in the order of the file. Null otherwise.
 */
function earlier(text: string, chunk: UpdateChunk, from: number): string | null {
  if (from === 0 || chunk.oldLines.length === 0) return null;
  const at = seekSequence(splitKeepingEols(text).texts, chunk.oldLines, 0, false);
  if (at === -1 || at >= from) return null;
  return `The chunk's lines are lines ${at + 1}-${at + chunk.oldLines.length}, above line ${from + 1} where its search began (after the chunk before it): a section's chunks go in the order of their lines in the file.`;
}

/**
 * A note for context lines that hold a '-' or '+' the file's line lacks (` -  x();` for `-  x();`):
 * the leading space made a removal or an addition a context line. Empty when there is none.
 */
function signedContext(chunk: UpdateChunk, text: string): string {
  const fileLines = new Set(text.split(/\r?\n/));
  const context = new Set(chunk.keeps);
  const signed = chunk.oldLines.find((line, i) => context.has(i) && /^[-+]/.test(line) && !fileLines.has(line) && fileLines.has(line.slice(1)));
  if (signed === undefined) return '';
  return `The line ' ${signed}' begins with a space, which makes it a context line that the file must hold as it is; a line to remove starts with '-', a line to add with '+', in the first column. `;
}

function withBom(bytes: Uint8Array, bom: boolean): Uint8Array {
  if (!bom) return bytes;
  const out = new Uint8Array(bytes.length + 3);
  out.set([0xef, 0xbb, 0xbf]);
  out.set(bytes, 3);
  return out;
}
