/**
 * AgentvfsBackend: a deepagents BackendProtocolV2 backend over an agentvfs backend, so
 * createDeepAgent({ backend: new AgentvfsBackend(b) }) keeps the agent's files in agentvfs: in
 * process, or in a worker through a RemoteBackend (only the async Backend methods are used).
 *
 * It follows deepagents' StateBackend (1.14): raw text from read, `{ error }` results and never a
 * throw, `filesUpdate: null` (the files are already stored), write overwrites without a prior read,
 * grep is literal with an optional match cap, ls of a missing directory is empty, delete is
 * recursive, a file whose extension is not text is read whole as bytes, and there is no execute.
 */
import type { Backend } from '../backend/types.ts';
import { isVfsError } from '../errors.ts';
import { parentOf } from '../paths.ts';
import { decodeRawText, decodeText, isBinary } from '../text.ts';
import type {
  DeepagentsFileInfo,
  DeepagentsDeleteResult,
  DeepagentsEditResult,
  DeepagentsFileDownloadResponse,
  DeepagentsFileOperationError,
  DeepagentsFileUploadResponse,
  DeepagentsGlobResult,
  DeepagentsGrepResult,
  DeepagentsLsResult,
  DeepagentsReadRawResult,
  DeepagentsReadResult,
  DeepagentsWriteResult,
} from './deepagents-protocol.ts';
import { isTextMimeType, mimeTypeOf } from './mime-types.ts';

// Web-standard in Node >= 20, browsers and workerd; the core's lib declares no DOM globals.
declare const atob: (data: string) => string;

/** deepagents' default page for read(). */
const DEFAULT_READ_LIMIT = 500;
/** Tries of one edit that keeps losing races with other writes (a model makes a few parallel calls, not dozens). */
const EDIT_ATTEMPTS = 8;
const BACKEND_METHODS_USED = ['ls', 'stat', 'read', 'writeFile', 'edit', 'remove', 'resolvePath', 'glob', 'grep', 'uploadFiles', 'downloadFiles'] as const;

export class AgentvfsBackend {
  readonly #backend: Backend;

  constructor(backend: Backend) {
    const missing = BACKEND_METHODS_USED.filter((m) => typeof (backend as unknown as Record<string, unknown> | null)?.[m] !== 'function');
    if (missing.length > 0) {
      throw new TypeError(
        `agentvfs/langchain: new AgentvfsBackend(backend) needs a backend (createStateBackend(), or connect(worker) from agentvfs/client); got ${backend === null || typeof backend !== 'object' ? String(backend) : `an object without ${missing.join(', ')}`}.`,
      );
    }
    this.#backend = backend;
  }

  /** The entries directly in `path`: directories as "path/" with is_dir; a missing directory or a file lists nothing. */
  async ls(path: string): Promise<DeepagentsLsResult> {
    try {
      const entries = await this.#backend.ls(path === '' ? '/' : path); // deepagents lists the root for
      const files = entries.map(
        (e): DeepagentsFileInfo =>
          e.isDir ? { path: `${e.path}/`, is_dir: true, size: 0, modified_at: '' } : { path: e.path, is_dir: false, size: e.size, modified_at: iso(e.mtimeMs) },
      );
      return { files: files.sort((a, b) => a.path.localeCompare(b.path)) };
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR')) return { files: [] };
      return { error: messageOf(error) };
    }
  }

  /**
   * Text: lines [offset, offset + limit) of the raw text (split on "\n", nothing added), with the
   * window's line numbers. A file whose extension is not text: all its bytes and its MIME type.
   */
  async read(filePath: string, offset = 0, limit = DEFAULT_READ_LIMIT): Promise<DeepagentsReadResult> {
    try {
      const mimeType = mimeTypeOf(filePath);
      const { content: bytes } = await this.#backend.read(filePath);
      if (!isTextMimeType(mimeType)) return { content: bytes, mimeType };
      if (isBinary(bytes)) return { error: `File '${filePath}' has binary content but text MIME type` };
      return { ...page(decodeRawText(bytes), offset, limit), mimeType };
    } catch (error) {
      return { error: hasCode(error, 'ENOENT') ? `File '${filePath}' not found` : messageOf(error) };
    }
  }

  /** The whole file as deepagents stores it: text as a string, any other type as bytes. */
  async readRaw(filePath: string): Promise<DeepagentsReadRawResult> {
    try {
      const mimeType = mimeTypeOf(filePath);
      const { content: bytes, mtimeMs } = await this.#backend.read(filePath);
      // Raw: a BOM stays (U+FEFF), so writing the text back gives the same bytes.
      const content = isTextMimeType(mimeType) ? decodeRawText(bytes) : bytes;
      // agentvfs keeps no creation time: both times are the last modification.
      return { data: { content, mimeType, created_at: iso(mtimeMs), modified_at: iso(mtimeMs) } };
    } catch (error) {
      return { error: hasCode(error, 'ENOENT') ? `File '${filePath}' not found` : messageOf(error) };
    }
  }

  /** Creates or overwrites the file (no read needed, as in deepagents); a non-text file's content is base64. */
  async write(filePath: string, content: string): Promise<DeepagentsWriteResult> {
    try {
      if (typeof content !== 'string') return { error: `Error: the content for '${filePath}' must be a string, got ${typeof content}` };
      const data = isTextMimeType(mimeTypeOf(filePath)) ? content : fromBase64(content);
      if (data === null) return { error: `Error: '${filePath}' is not a text file, so its content must be base64; it is not. The file is unchanged.` };
      await this.#backend.writeFile(filePath, data);
      return { path: filePath, filesUpdate: null };
    } catch (error) {
      return { error: messageOf(error) };
    }
  }

  /**
   * Replaces `oldString` literally, as deepagents does: it must occur once unless `replaceAll`.
   * When it occurs nowhere, agentvfs's corrections (line endings, escaping, trailing whitespace,
   * indentation) may still find exactly one match; the file keeps its line endings and BOM.
   */
  async edit(filePath: string, oldString: string, newString: string, replaceAll = false): Promise<DeepagentsEditResult> {
    try {
      if (!isTextMimeType(mimeTypeOf(filePath))) return { error: `Error: '${filePath}' is not a text file and cannot be edited` };
      // deepagents edits whatever the file holds when the edit runs (its StateBackend applies a step's
      // edits one after another): an edit that lost a race with another write runs again on what won.
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.#editOnce(filePath, oldString, newString, replaceAll);
        } catch (error) {
          if (!hasCode(error, 'ESTALE') || attempt === EDIT_ATTEMPTS) throw error;
        }
      }
    } catch (error) {
      if (hasCode(error, 'ENOENT')) return { error: `Error: File '${filePath}' not found` };
      // deepagents' sentence first, then agentvfs's closest candidate lines.
      if (hasCode(error, 'ENOMATCH')) return { error: `Error: String not found in file: '${oldString}'\n${detailOf(error)}` };
      return { error: messageOf(error) };
    }
  }

  /** One edit against the file as read now, written only if it is still that version (else ESTALE). */
  async #editOnce(filePath: string, oldString: string, newString: string, replaceAll: boolean): Promise<DeepagentsEditResult> {
    const { content: bytes, version } = await this.#backend.read(filePath);
    if (isBinary(bytes)) return { error: `Error: File '${filePath}' has binary content and cannot be edited` };
    const text = decodeText(bytes);
    if (oldString === '') {
      // deepagents' rule: an empty old string only fills an empty file.
      if (text !== '') return { error: 'Error: oldString cannot be empty when file has content' };
      await this.#backend.writeFile(filePath, newString, { expectedVersion: version });
      return { path: filePath, filesUpdate: null, occurrences: 0 };
    }
    const occurrences = text.split(oldString).length - 1;
    if (occurrences > 1 && !replaceAll) {
      return {
        error: `Error: String '${oldString}' has multiple occurrences (appears ${occurrences} times) in file. Use replace_all=True to replace all instances, or provide a more specific string with surrounding context.`,
      };
    }
    if (occurrences > 0 && oldString === newString) return { path: filePath, filesUpdate: null, occurrences };
    const result = await this.#backend.edit(filePath, oldString, newString, { replaceAll, expectedVersion: version });
    return { path: filePath, filesUpdate: null, occurrences: result.count };
  }

  /** Literal search; files whose extension is not text are skipped; more than `maxCount` matches are cut and flagged `truncated`. */
  async grep(pattern: string, path: string | null = '/', glob: string | null = null, maxCount: number | null = null): Promise<DeepagentsGrepResult> {
    try {
      const search = (cap: number | undefined) =>
        this.#backend.grep(pattern === '' ? '^' : pattern, {
          path: path ?? '/',
          fixedStrings: pattern !== '', // deepagents: the empty string is in every line
          ...(glob ? { glob } : {}),
          ...(cap === undefined ? {} : { maxMatches: cap }),
        });
      const isText = (m: { path: string }) => isTextMimeType(mimeTypeOf(m.path));
      // One more than the cap tells whether it was reached. When the search stopped there but
      // files skipped for their type took some of those places, only a full search gives the
      // first `maxCount` text matches.
      const cap = maxCount == null ? undefined : maxCount + 1;
      const first = await search(cap);
      let found = first.filter(isText);
      if (cap !== undefined && first.length === cap && found.length < cap) found = (await search(undefined)).filter(isText);
      const matches = found.map((m) => ({ path: m.path, line: m.line, text: m.text }));
      if (maxCount == null || matches.length <= maxCount) return { matches };
      return { matches: matches.slice(0, maxCount), truncated: true };
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR')) return { matches: [] };
      return { error: messageOf(error) };
    }
  }

  /** Files matching `pattern` relative to `path`, newest first; a missing directory matches nothing. */
  async glob(pattern: string, path = '/'): Promise<DeepagentsGlobResult> {
    try {
      const paths = await this.#globPaths(pattern, path);
      const infos = await Promise.all(paths.map((p) => this.#backend.stat(p)));
      return { files: infos.map((i) => ({ path: i.path, is_dir: false, size: i.size, modified_at: iso(i.mtimeMs) })) };
    } catch (error) {
      if (hasCode(error, 'ENOENT', 'ENOTDIR')) return { files: [] };
      return { error: messageOf(error) };
    }
  }

  async #globPaths(pattern: string, path: string): Promise<string[]> {
    const info = await this.#backend.stat(path);
    if (info.isDir) return this.#backend.glob(pattern, { path: info.path });
    // deepagents: a path naming a file matches that file alone, by its name.
    const siblings = await this.#backend.glob(pattern, { path: parentOf(info.path) });
    return siblings.filter((p) => p === info.path);
  }

  /** Removes a file, or a directory with everything under it. */
  async delete(filePath: string): Promise<DeepagentsDeleteResult> {
    try {
      const target = await this.#backend.resolvePath(filePath);
      if (target === '/') {
        // The root itself stays; everything in it goes (what deleting "/" does in deepagents).
        const entries = await this.#backend.ls('/');
        if (entries.length === 0) return { error: `Error: File '${filePath}' not found` };
        for (const e of entries) await this.#backend.remove(e.path, { recursive: true });
      } else {
        await this.#backend.remove(target, { recursive: true });
      }
      return { path: filePath, filesUpdate: null };
    } catch (error) {
      return { error: hasCode(error, 'ENOENT') ? `Error: File '${filePath}' not found` : messageOf(error) };
    }
  }

  async uploadFiles(files: Array<[string, Uint8Array]>): Promise<DeepagentsFileUploadResponse[]> {
    const results = await this.#backend.uploadFiles(files);
    return results.map((r) => ({ path: r.path, error: r.error === undefined ? null : operationError(r.error) }));
  }

  async downloadFiles(paths: string[]): Promise<DeepagentsFileDownloadResponse[]> {
    const results = await this.#backend.downloadFiles(paths);
    return results.map((r) => ({ path: r.path, content: r.content, error: r.error === undefined ? null : operationError(r.error) }));
  }
}

/** The lines [offset, offset + limit) of `text`, and where they sit, as deepagents' StateBackend pages. */
function page(text: string, offset: number, limit: number): DeepagentsReadResult {
  const start = Number.isFinite(offset) ? Math.max(0, Math.floor(offset)) : 0;
  const count = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : 0;
  const lines = text.split('\n');
  // "a\nb\n" is two lines: the empty string after the last newline is not one.
  const totalLines = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const selected = lines.slice(start, start + count);
  const content = selected.join('\n');
  if (selected.length === 0 || start >= totalLines || count === 0) return { content };
  const endLine = Math.min(start + selected.length, totalLines);
  return { content, totalLines, startLine: start + 1, endLine, ...(endLine < totalLines ? { nextOffset: endLine } : {}) };
}

/** A time as ISO 8601; '' for one no Date can hold (a snapshot may carry any finite time), not a throw that hides the listing. */
function iso(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** Bytes from base64 (a data: URL's payload too; whitespace ignored), or null when it is not base64. */
function fromBase64(text: string): Uint8Array | null {
  const trimmed = text.trim();
  const payload = (trimmed.startsWith('data:') ? trimmed.slice(trimmed.indexOf(',') + 1) : trimmed).replace(/\s/g, '');
  let binary: string;
  try {
    binary = atob(payload);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function hasCode(error: unknown, ...codes: string[]): boolean {
  return isVfsError(error) && codes.includes(error.code);
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.startsWith('Error') ? message : `Error: ${message}`;
}

/** The lines of a VfsError message after its first (the candidates agentvfs found). */
function detailOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  return message.slice(message.indexOf('\n') + 1);
}

/** uploadFiles / downloadFiles report "CODE: message"; deepagents has four codes. */
function operationError(error: string): DeepagentsFileOperationError {
  const code = error.slice(0, error.indexOf(':'));
  if (code === 'ENOENT') return 'file_not_found';
  if (code === 'EISDIR') return 'is_directory';
  if (code === 'EACCES') return 'permission_denied';
  return 'invalid_path';
}
