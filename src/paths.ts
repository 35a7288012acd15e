/**
 * The virtual path model: every path is POSIX, absolute and normalized once it
 * leaves this module. Pure string work, no host filesystem.
 */
import { VfsError } from './errors.ts';
import { isWellFormed } from './text.ts';

/** Longest path segment (a file or directory name), in UTF-8 bytes. */
export const MAX_SEGMENT_BYTES = 255;
const encoder = new TextEncoder();
/** Characters no name may hold. */
const FORBIDDEN = /[\0\n\r]/;
/** A drive letter before a separator, or alone: `C:\`, `d:/`, `C:`. */
const WINDOWS_DRIVE = /^([A-Za-z]):(?:[\\/]+|$)/;
/** Said by every invalid-path error: it is refused before anything is read or written. */
const UNCHANGED = 'No file was changed.';

/**
 * Resolves `input` against `cwd` (itself absolute and normalized) to an
 * absolute, normalized path. Backslashes count as separators. Throws EINVAL for
 * an empty path, a NUL byte, a line break, a lone surrogate, a Windows drive (`C:\`), `..` above the root or a segment over 255 bytes.
 */
export function normalizePath(input: unknown, cwd = '/'): string {
  if (typeof input !== 'string') {
    throw new VfsError('EINVAL', `Invalid path: expected a string, got ${input === null ? 'null' : typeof input}.`);
  }
  if (input.length === 0) throw new VfsError('EINVAL', 'Invalid path: the path is empty. Use "/" for the root.', { path: input });
  // One scan for the characters no name may hold (a line break: tool results list one path a line).
  const bad = FORBIDDEN.exec(input)?.[0];
  if (bad !== undefined) {
    const what = bad === '\0' ? 'a NUL byte' : 'a line break, which names may not';
    throw new VfsError('EINVAL', `Invalid path ${quoted(input)}: it contains ${what}. ${UNCHANGED} Remove it from the path.`, { path: input });
  }
  // Snapshots and stores keep names as UTF-8, which has no lone surrogate: it would come back as U+FFFD, another name.
  if (!isWellFormed(input)) {
    throw new VfsError(
      'EINVAL',
      `Invalid path ${quoted(input)}: it contains a lone UTF-16 surrogate, which is no character. ${UNCHANGED} Remove it from the path.`,
      { path: input },
    );
  }
  // `C:\repo\a.ts` would otherwise be the relative path `C:/repo/a.ts`: a file written under a made-up `/C:` directory.
  const drive = WINDOWS_DRIVE.exec(input);
  if (drive !== null) {
    let next = 'Use the path under "/" instead.';
    try {
      next = `Use ${JSON.stringify(clipped(normalizePath(`/${input.slice(drive[0].length)}`)))}.`;
    } catch {
      // (the rest is no valid path either: the general advice stands)
    }
    throw new VfsError(
      'EINVAL',
      `Invalid path ${quoted(input)}: it is a Windows path (drive ${drive[1]}:); paths here are POSIX paths under "/". ${UNCHANGED} ${next}`,
      {
        path: input,
      },
    );
  }
  const slashed = input.includes('\\') ? input.replaceAll('\\', '/') : input;
  // Fast path: already absolute and normal (the common case for paths we returned ourselves).
  if (isNormalAbsolute(slashed)) return slashed;
  const full = slashed.startsWith('/') ? slashed : `${cwd}/${slashed}`;
  const out: string[] = [];
  let aboveRoot = false;
  for (const segment of full.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) aboveRoot = true; // (the rest still read, to suggest the path without it)
      out.pop();
      continue;
    }
    checkSegment(segment, input);
    out.push(segment);
  }
  if (aboveRoot) {
    // The path without what went above the root, when it is short enough to be read whole.
    const meant = `/${out.join('/')}`;
    const next = meant.length <= 100 ? `Use ${JSON.stringify(meant)}.` : 'Remove the ".." that go above it.';
    throw new VfsError('EINVAL', `Invalid path ${quoted(input)}: ".." goes above the root "/". ${UNCHANGED} ${next}`, { path: input });
  }
  return `/${out.join('/')}`;
}

/** Input as a message quotes it (a path, a pattern), clipped: a message stays short whatever the input's length. */
export function quoted(input: string): string {
  // JSON leaves DEL, the C1 controls and the line separators as they are: escaped too, so what is quoted reads on one line.
  return JSON.stringify(clipped(input)).replace(/[\x7f-\x9f\u2028\u2029]/g, unicodeEscape);
}

/** One UTF-16 unit as a JSON escape (`\u00e9`). */
export function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `input` cut to its first `max` characters (never half a surrogate pair), with "…" when it was longer. */
export function clipped(input: string, max = 100): string {
  if (input.length <= max) return input;
  const code = input.charCodeAt(max - 1);
  return `${input.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

function checkSegment(segment: string, input: string): void {
  // UTF-8 is at most 3 bytes per UTF-16 unit, so only long segments need encoding.
  if (segment.length * 3 > MAX_SEGMENT_BYTES && encoder.encode(segment).length > MAX_SEGMENT_BYTES) {
    throw new VfsError(
      'EINVAL',
      `Invalid path ${quoted(input)}: the name "${clipped(segment, 40)}" is over ${MAX_SEGMENT_BYTES} bytes. ${UNCHANGED} Use a shorter name.`,
      { path: input },
    );
  }
}

function isNormalAbsolute(p: string): boolean {
  if (p === '/') return true;
  if (p[0] !== '/' || p.endsWith('/')) return false;
  let start = 1;
  while (start <= p.length) {
    let end = p.indexOf('/', start);
    if (end === -1) end = p.length;
    const len = end - start;
    if (len === 0) return false;
    if (p.charCodeAt(start) === 46 /* . */ && (len === 1 || (len === 2 && p.charCodeAt(start + 1) === 46))) return false;
    if (len * 3 > MAX_SEGMENT_BYTES) return false; // let the slow path measure it
    start = end + 1;
  }
  return true;
}

/** Parent of a normalized absolute path; the root is its own parent. */
export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** Last segment of a normalized absolute path ("" for the root). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** True when `path` is a direct child of `dir` (both normalized): no slicing, so no new string. */
export function isChildOf(path: string, dir: string): boolean {
  const slash = dir.length === 1 ? 0 : dir.length; // where the separator before the name is
  return path.length > slash + 1 && path.charCodeAt(slash) === 47 && (slash === 0 || path.startsWith(dir)) && path.indexOf('/', slash + 1) === -1;
}

/** Joins a normalized directory path and a child name. */
export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** True when `path` is `dir` itself or lies beneath it (both normalized). */
export function isWithin(path: string, dir: string): boolean {
  return dir === '/' || path === dir || path.startsWith(`${dir}/`);
}

/** `path` relative to the normalized directory `dir` (which must contain it). */
export function relativeTo(path: string, dir: string): string {
  if (path === dir) return '';
  return dir === '/' ? path.slice(1) : path.slice(dir.length + 1);
}

/** Ancestors of a normalized path, outermost first, excluding "/" and the path itself. */
export function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  let i = path.indexOf('/', 1);
  while (i !== -1) {
    out.push(path.slice(0, i));
    i = path.indexOf('/', i + 1);
  }
  return out;
}

/** Orders paths segment by segment so "/a/b" sorts before "/a-b" (as a tree walk would). */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca === 47) return -1;
    if (cb === 47) return 1;
    return ca - cb;
  }
  return a.length - b.length;
}
