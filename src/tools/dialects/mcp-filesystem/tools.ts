/**
 * The reference MCP filesystem server's tools (modelcontextprotocol/servers src/filesystem) over a
 * Backend, with its result wording. edit_file applies every edit in memory and writes once, at the
 * version it read: all or nothing.
 */
import { refuseBlindOverwrite } from '../../read-refusal.ts';
import { anyDepthRetries } from '../../search-hints.ts';
import { unicodeFormHint } from '../../empty-search.ts';
import { isVfsError, VfsError } from '../../../errors.ts';
import { applyEdit } from '../../../edit/apply-edit.ts';
import { decodeForEdit, decodeText, hasBom, isBinary, splitLines } from '../../../text.ts';
import { type DialectCall, moveRecorded } from '../anthropic/context.ts';
import { inWordsOf, noteInWordsOf } from '../next-actions.ts';
import { closestLinesNote } from '../../../edit/apply-edit.ts';
import { unifiedDiff } from './unified-diff.ts';
import { MAX_MEDIA_BYTES } from '../../../limits.ts';
import { MAX_RESULT_CHARS } from '../../definitions.ts';
import { fittingRows, namesWithin, TRUNCATION_NOTE } from '../../limit-output.ts';
import { toBase64 } from '../../../media/base64.ts';
import { checkGlobList, compileGlob } from '../../../glob/glob.ts';
import { type TreeEntry, treeText } from './tree-output.ts';
import type { ToolPart } from '../../types.ts';
import { wellFormedText } from '../../../backend/refusals.ts';
import { statOrNull } from '../../../backend/stat-or-null.ts';
import { baseName, joinPath } from '../../../paths.ts';
import { checkNewPath } from '../../new-path.ts';

/** Reads a text file. The caller records the read (an edit only once it knows the file is not stale). */
async function readText(call: DialectCall, path: string, forEdit = false): Promise<{ text: string; version: number; bom: boolean }> {
  const read = await call.backend.read(path);
  if (isBinary(read.content))
    throw new VfsError(
      'EBINARY',
      `${path} is a binary file (${read.content.length} bytes), not text; it cannot be read as text. Use read_media_file to see an image or PDF, or get_file_info for its details.`,
      {
        path,
      },
    );
  return { text: forEdit ? decodeForEdit(read.content, path) : decodeText(read.content), version: read.version, bom: hasBom(read.content) };
}

export async function readTextFile(call: DialectCall, path: string, head?: number, tail?: number, room = MAX_RESULT_CHARS): Promise<string> {
  if (head !== undefined && tail !== undefined) throw new VfsError('EINVAL', 'Cannot specify both head and tail parameters simultaneously');
  const file = await call.backend.resolvePath(path);
  const { text, version } = await readText(call, file);
  call.reads.add(file, version);
  // The server tests `if (args.head)`: 0 reads the whole file, as no head at all.
  if (!head && !tail && text.length <= room) return text;
  const lines = splitLines(text);
  const first = head || !tail ? 1 : Math.max(1, lines.length - tail + 1);
  const picked = head ? lines.slice(0, head) : lines.slice(first - 1);
  const out = !head && !tail ? text : picked.join('\n');
  return out.length <= room ? out : cutAtCap(picked, first, lines.length, room, Boolean(head));
}

/**
 * Lines of a file (`picked`, from line `first`, of `total`) over the result cap: those that fit,
 * then where they stop and the `tail` that reads on from there (the server reads no range
 * otherwise); a line too long to show alone is shown in part.
 */
function cutAtCap(picked: readonly string[], first: number, total: number, room: number, headGiven: boolean): string {
  const cap = `the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters`;
  const { count, part } = fittingRows(picked, room - NOTE_ROOM);
  if (part === null) {
    const last = first + count - 1;
    const toEnd = headGiven ? ' to the end of the file' : '';
    return `${picked.slice(0, count).join('\n')}\n[lines ${first}-${last} of ${total} shown: ${cap}; tail: ${total - last} reads from line ${last + 1} on${toEnd}]`;
  }
  const after = first < total ? `; tail: ${total - first} reads the lines after it` : '';
  return `${part}\n[line ${first} is ${picked[0]!.length.toLocaleString('en-US')} characters long; only its first ${part.length.toLocaleString('en-US')} are shown, as ${cap}${after}]`;
}

const NOTE_ROOM = 250;

export async function readMultipleFiles(call: DialectCall, paths: readonly string[]): Promise<string> {
  if (paths.length === 0) throw new VfsError('EINVAL', 'argument "paths" of read_multiple_files must hold at least one path, got [].');
  const SEPARATOR = '\n---\n';
  const results: string[] = [];
  let left = MAX_RESULT_CHARS - NOTE_ROOM - TRUNCATION_NOTE.length; // what the next file may use
  let notShown: string[] = [];
  // Each file is named by its absolute path (SPEC §2), or as given when it is no valid path.
  const named = (path: string) => call.backend.resolvePath(path).catch(() => path);
  for (const [i, given] of paths.entries()) {
    if (left < 2_000) {
      notShown = await Promise.all(paths.slice(i).map(named)); // too little room left to show any of them usefully
      break;
    }
    const path = await named(given);
    try {
      // A file that does not fit in what is left is cut there, and says how to read on.
      const text = await readTextFile(call, given, undefined, undefined, left - path.length - 2);
      results.push(`${path}:\n${text}\n`);
    } catch (error) {
      results.push(`${path}: Error - ${inWordsOf('mcp-filesystem', isVfsError(error) ? error.message : String(error))}`);
    }
    left -= results.at(-1)!.length + SEPARATOR.length;
  }
  if (notShown.length > 0)
    results.push(
      `[not read, as the result is capped at ${MAX_RESULT_CHARS.toLocaleString('en-US')} characters: ${namesWithin(notShown, Math.max(left, 0) + NOTE_ROOM - 100)}; read them in another call]`,
    );
  return results.join(SEPARATOR);
}

export async function writeFile(call: DialectCall, path: string, content: string): Promise<string> {
  const file = await call.backend.resolvePath(path);
  const exists = await call.backend.exists(file);
  // The vendor overwrites without a read; a change since this session saw the file is still refused.
  if (exists) {
    call.reads.refuseUnseen(file);
    await refuseBlindOverwrite(call.backend, file, 'write_file');
  } else await checkNewPath(call.backend, path, file, 'file');
  const expectedVersion = exists ? await call.reads.expected(call.backend, file) : -1;
  const result = await call.backend.writeFile(file, content, expectedVersion === undefined ? {} : { expectedVersion });
  call.reads.add(result.path, result.version);
  call.changed.push({ path: result.path, version: result.version });
  return `Successfully wrote to ${file}`;
}

export interface Edit {
  oldText: string;
  newText: string;
}

export async function editFile(call: DialectCall, path: string, edits: readonly Edit[], dryRun: boolean): Promise<string> {
  const file = await call.backend.resolvePath(path);
  const seen = await call.reads.expected(call.backend, file);
  const { text, version, bom } = await readText(call, file, true);
  call.reads.refuseUnseen(file);
  if (seen !== undefined && seen !== version) {
    throw new VfsError(
      'ESTALE',
      `${file} changed since this session last read or wrote it; the file is unchanged. Read it again with read_text_file, then retry.`,
      {
        path: file,
      },
    );
  }
  call.reads.add(file, version);
  let next = text;
  const notes: string[] = [];
  for (const [i, edit] of edits.entries()) {
    // As the server: an empty oldText matches at the start, and text replaced by itself is no change.
    if (edit.oldText === '') {
      next = (next.includes('\r\n') ? edit.newText.replace(/\r?\n/g, '\r\n') : edit.newText) + next; // in the file's line endings
      continue;
    }
    // The server's words, then what agentvfs adds: the closest lines, and how to copy oldText.
    const notFound = () =>
      new VfsError(
        'ENOMATCH',
        [
          `Could not find exact match for edit:\n${edit.oldText}\n(edit ${i + 1} of ${edits.length}; the file is unchanged)`,
          // From the file as it is (unchanged), with its own line numbers: not the earlier edits' text.
          ...(text === '' ? ['The file is empty.'] : closestLinesNote(text, edit.oldText, 'oldText')),
          'Read the file again with read_text_file and copy oldText exactly, including whitespace and indentation.',
        ].join('\n'),
        { path: file },
      );
    if (edit.oldText === edit.newText) {
      if (next.includes(edit.oldText)) continue;
      throw notFound();
    }
    try {
      // Several matches: the server replaces the first.
      const out = applyEdit(next, edit.oldText, edit.newText, { firstOfMany: true });
      next = out.text;
      if (out.correctionNote !== null) notes.push(`Edit ${i + 1}: ${noteInWordsOf('mcp-filesystem', out.correctionNote)}`);
    } catch (error) {
      if (isVfsError(error) && error.code === 'ENOMATCH') throw notFound();
      if (isVfsError(error)) throw new VfsError(error.code, `Edit ${i + 1} of ${edits.length}: ${error.message}`, { path: file });
      throw error;
    }
  }
  const diff = unifiedDiff(text, next, file);
  let ticks = 3;
  while (diff.includes('`'.repeat(ticks))) ticks++;
  const fence = '`'.repeat(ticks);
  if (!dryRun && next !== text) {
    const encoded = new TextEncoder().encode(wellFormedText(next, `Content for ${file}`, file));
    const result = await call.backend.writeFile(file, bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...encoded]) : encoded, { expectedVersion: version });
    call.reads.add(result.path, result.version);
    call.changed.push({ path: result.path, version: result.version });
  }
  // The server's text exactly (its blank line after the fence too), then what agentvfs corrected.
  return `${fence}diff\n${diff}${fence}\n\n${notes.join('\n')}`;
}

export async function createDirectory(call: DialectCall, path: string): Promise<string> {
  const dir = await call.backend.resolvePath(path);
  const existing = await call.backend.stat(dir).catch(() => null);
  if (existing?.isDir !== true) {
    if (existing === null) await checkNewPath(call.backend, path, dir, 'directory');
    const made = await call.backend.mkdir(dir);
    call.changed.push({ path: made.path, version: made.version });
  }
  return `Successfully created directory ${dir}`;
}

export async function listDirectory(call: DialectCall, path: string): Promise<string> {
  const entries = await call.backend.ls(await call.backend.resolvePath(path));
  return entries.map((e) => `${e.isDir ? '[DIR]' : '[FILE]'} ${e.name}`).join('\n');
}

// The server's table (src/filesystem/index.ts): these are images or audio; anything else is sent as a resource.
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

/**
 * The server's read_media_file: the file as a part, its MIME type from the extension (an image
 * as an image, audio and anything else as a file part, which MCP sends as a resource); one line
 * says what it is. Over agentvfs's limit for attachments (5 MiB) it is refused.
 */
export async function readMediaFile(call: DialectCall, path: string): Promise<{ text: string; parts: ToolPart[] }> {
  const file = await call.backend.resolvePath(path);
  const read = await call.backend.read(file);
  call.reads.add(file, read.version);
  const dot = file.lastIndexOf('.');
  const mediaType = MEDIA_TYPES[dot > file.lastIndexOf('/') ? file.slice(dot).toLowerCase() : ''] ?? 'application/octet-stream';
  if (read.content.length > MAX_MEDIA_BYTES) {
    throw new VfsError('ETOOBIG', `${file} is ${read.content.length} bytes, over the ${MAX_MEDIA_BYTES}-byte limit for a media file; nothing is attached.`, {
      path: file,
    });
  }
  const type = mediaType.startsWith('image/') ? 'image' : 'file';
  return { text: `${file}: ${mediaType}, ${read.content.length} bytes`, parts: [{ type, mediaType, data: toBase64(read.content) }] };
}

/** The server's list_directory_with_sizes: padded rows, then the totals (its formatSize units). */
export async function listDirectoryWithSizes(call: DialectCall, path: string, sortBy: 'name' | 'size'): Promise<string> {
  const entries = await call.backend.ls(await call.backend.resolvePath(path));
  const sizeOf = (e: { isDir: boolean; size: number }) => (e.isDir ? 0 : e.size);
  const sorted = [...entries].sort((a, b) => (sortBy === 'size' ? sizeOf(b) - sizeOf(a) : 0) || a.name.localeCompare(b.name));
  const rows = sorted.map((e) => `${e.isDir ? '[DIR]' : '[FILE]'} ${e.name.padEnd(30)} ${e.isDir ? '' : formatSize(e.size).padStart(10)}`);
  const files = entries.filter((e) => !e.isDir);
  const total = files.reduce((sum, e) => sum + e.size, 0);
  return [...rows, '', `Total: ${files.length} files, ${entries.length - files.length} directories`, `Combined size: ${formatSize(total)}`].join('\n');
}

export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  if (bytes === 0) return '0 B';
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  return i <= 0 ? `${bytes} B` : `${(bytes / 1024 ** i).toFixed(2)} ${units[i]}`;
}

export async function directoryTree(call: DialectCall, path: string, excludePatterns: readonly string[]): Promise<string> {
  checkGlobList(excludePatterns, 'excludePatterns');
  const root = await call.backend.resolvePath(path);
  // As the server: each entry's path relative to root, matched with dotfiles included; a pattern
  // with * as it is, one without also as `**/name` and `**/name/**`, so a name excludes an entry
  // (file or directory) at any depth. A trailing / is dropped: `node_modules/` names the directory.
  const excluded = matcherOf(excludePatterns.flatMap((p) => (p.includes('*') ? [p] : [p.replace(/\/$/, '')].flatMap((n) => [n, `**/${n}`, `**/${n}/**`]))));
  const build = async (dir: string): Promise<TreeEntry[]> => {
    const out: TreeEntry[] = [];
    for (const e of await call.backend.ls(dir)) {
      if (excluded(relativeTo(root, e.path))) continue;
      out.push(e.isDir ? { name: e.name, type: 'directory', children: await build(e.path) } : { name: e.name, type: 'file' });
    }
    return out;
  };
  return treeText(await build(root));
}

/** Whether any of the glob patterns matches a relative path (an empty pattern matches nothing, as in minimatch). */
function matcherOf(patterns: readonly string[]): (relative: string) => boolean {
  const matchers = patterns.filter((p) => p !== '').map((p) => compileGlob(p));
  return (relative) => matchers.some((m) => m(relative));
}

const relativeTo = (root: string, path: string) => path.slice(root === '/' ? 1 : root.length + 1);

export async function moveFile(call: DialectCall, source: string, destination: string): Promise<string> {
  const from = await call.backend.resolvePath(source);
  const to = await call.backend.resolvePath(destination);
  const there = await statOrNull(call.backend, to);
  if (there !== null) {
    // A model that meant "into this directory" (as mv does) is told the path that says so.
    const into = there.isDir && from !== to ? ` To move it into that directory, use ${joinPath(to, baseName(from))}.` : '';
    throw new VfsError('EEXIST', `Destination already exists: ${to}; the move was not made. Choose another destination.${into}`, { path: to });
  }
  await checkNewPath(call.backend, destination, to, (await call.backend.stat(from)).isDir ? 'directory' : 'file', baseName(from));
  await moveRecorded(call, from, to);
  return `Successfully moved ${from} to ${to}`;
}

export async function searchFiles(call: DialectCall, path: string, pattern: string, excludePatterns: readonly string[]): Promise<string> {
  checkGlobList(excludePatterns, 'excludePatterns');
  const root = await call.backend.resolvePath(path);
  // The server walks the tree and skips an entry an exclude pattern matches, with all below it:
  // a file is left out when the pattern matches its relative path or a directory's on the way.
  const excluded = matcherOf(excludePatterns);
  const kept = (file: string) => {
    const relative = relativeTo(root, file);
    for (let end = relative.indexOf('/'); end !== -1; end = relative.indexOf('/', end + 1)) if (excluded(relative.slice(0, end))) return false;
    return !excluded(relative);
  };
  const hits = (await call.backend.glob(pattern, { path: root })).filter(kept);
  if (hits.length > 0) return hits.sort().join('\n');
  // A name typed in another Unicode form than the files' (NFC café for macOS's NFD).
  const form = await unicodeFormHint(pattern, async (p) => (await call.backend.glob(p, { path: root }).catch(() => [])).filter(kept), 'search_files');
  if (form !== '') return `No matches found\n${form}`;
  // A pattern that matches at one depth only (`*.ts`, where the server's description says `**/*.ts`
  // matches in every subdirectory): the one that finds files deeper.
  if (/[*?[{/]/.test(pattern)) {
    for (const { glob, why } of anyDepthRetries(pattern)) {
      const found = (await call.backend.glob(glob, { path: root }).catch(() => [])).filter(kept).sort();
      if (found.length === 0) continue;
      const reason = why === 'one depth' ? `matches at one depth below ${root} only` : `is matched relative to ${root}, so its directories must start there`;
      return `No matches found\n${JSON.stringify(pattern)} ${reason}; ${JSON.stringify(glob)} matches ${found.length === 1 ? '1 path' : `${found.length} paths`}, e.g. ${found[0]}.`;
    }
    return 'No matches found';
  }
  // Older releases of the server matched a plain word anywhere in a name, and models still send one.
  const anywhere = `**/*${pattern}*`;
  const near = (await call.backend.glob(anywhere, { path: root }).catch(() => [])).filter(kept).sort();
  if (near.length === 0) return 'No matches found';
  return `No matches found\nsearch_files matches a glob pattern against paths relative to ${root}, so ${JSON.stringify(pattern)} matches only ${joinPath(root, pattern)}; ${JSON.stringify(anywhere)} matches ${near.length === 1 ? '1 path' : `${near.length} paths`}, e.g. ${near[0]}.`;
}

export async function getFileInfo(call: DialectCall, path: string): Promise<string> {
  const info = await call.backend.stat(await call.backend.resolvePath(path));
  const time = new Date(info.mtimeMs).toString();
  return [
    `size: ${info.size}`,
    `created: ${time}`,
    `modified: ${time}`,
    `accessed: ${time}`,
    `isDirectory: ${info.isDir}`,
    `isFile: ${!info.isDir}`,
    `permissions: ${info.isDir ? '755' : '644'}`,
  ].join('\n');
}
