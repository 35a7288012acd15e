/** The ENOENT error: name the path, then suggest up to 3 existing paths with the same basename. */
import { isVfsError, VfsError } from '../errors.ts';
import { baseName, clipped, unicodeEscape } from '../paths.ts';

const MAX_SUGGESTIONS = 3;

/**
 * ENOENT for `path`, suggesting the paths of `existing` that may be meant: in its message, and as
 * data (`suggestions`: a guard keeps only those it may show, a dialect words them).
 */
export function notFoundError(path: string, existing: Iterable<string>): VfsError {
  return notFoundWith(path, suggestPaths(path, existing));
}

/** ENOENT for `path` with these suggestions. */
export function notFoundWith(path: string, suggestions: readonly string[]): VfsError {
  // (A path is checked for length only where it is written: one read may be any length.)
  const hint = suggestions.length > 0 ? didYouMean(path, suggestions) : ' Use ls or glob to see what exists.';
  return new VfsError('ENOENT', `No such file or directory: ${visible(clipped(path, MAX_SHOWN))}.${hint}`, { path, suggestions });
}

/** The paths a not-found error suggested (maybe none); undefined for any other error. */
export function suggestionsOf(error: unknown): readonly string[] | undefined {
  return isVfsError(error) && error.code === 'ENOENT' && Array.isArray(error.suggestions) ? error.suggestions : undefined;
}

/**
 * What a path at or under a file would be suggested if it were missing, computed when asked: a
 * guard answers such a path, under a file the session may not read, exactly as a missing one.
 */
const AS_MISSING = new WeakMap<object, () => readonly string[]>();

export function rememberAsMissing(error: VfsError, path: string, existing: () => Iterable<string>): VfsError {
  AS_MISSING.set(error, () => suggestPaths(path, existing()));
  return error;
}

/** The suggestions `error` (an ENOTDIR of this realm's backend) would have had for a missing path; undefined if unknown. */
export function asMissingSuggestions(error: unknown): readonly string[] | undefined {
  return typeof error === 'object' && error !== null ? AS_MISSING.get(error)?.() : undefined;
}

/** " Did you mean A, B?" and, for a suggestion that reads exactly as `path`, its code points; '' for none. */
export function didYouMean(path: string, suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : ` Did you mean ${suggestions.map(visible).join(', ')}?${lookAlike(path, suggestions)}`;
}

const MAX_SHOWN = 500;

/** A path as a message shows it: in quotes when a name has a space at either end, which would not show. */
export function visible(path: string): string {
  return /(^|\/)\s|\s($|\/)/u.test(path) ? JSON.stringify(path) : path;
}

/** A note for a suggestion that reads exactly like the path asked for (the same name in another Unicode form): its code points. */
function lookAlike(path: string, suggestions: readonly string[]): string {
  const same = suggestions.find((s) => s !== path && s.normalize('NFC') === path.normalize('NFC'));
  if (same === undefined) return '';
  // As JSON writes them, the form a tool call's arguments can send back.
  const spelled = same.replace(/[^\x20-\x7e]/g, unicodeEscape);
  return ` ${same} looks the same but is written with other Unicode code points (${spelled}); use the path as ls or glob give it.`;
}

/**
 * A name as the user may have meant it: without spaces or quotes around it (a model's path may
 * carry them), composed (NFC, so `e` + U+0301 is `é`) and lower case.
 */
function loose(name: string): string {
  const bare = name.replace(AROUND, '');
  // (ASCII needs no normalizing; most names are ASCII and a not-found scan sees every path)
  return (/^[\x00-\x7f]*$/.test(bare) ? bare : bare.normalize('NFC')).toLowerCase();
}

const AROUND = /^[\s"'`]+|[\s"'`]+$/gu;

/**
 * Paths with the same basename, or the same ignoring case and Unicode normalization: those that share the most leading
 * directories with `path` first (a case slip in the same folder beats a namesake elsewhere),
 * then the same spelling before another, then nearest in length, then by path.
 */
function suggestPaths(path: string, existing: Iterable<string>): string[] {
  const name = baseName(path);
  if (name === '') return [];
  const wanted = loose(name);
  const found: { path: string; shared: number; folded: boolean }[] = [];
  const dirs = path.split('/').slice(1, -1);
  for (const candidate of existing) {
    const candidateName = baseName(candidate);
    const folded = candidateName !== name;
    if (folded && loose(candidateName) !== wanted) continue;
    const theirs = candidate.split('/').slice(1, -1);
    let shared = 0;
    while (shared < dirs.length && shared < theirs.length && dirs[shared] === theirs[shared]) shared++;
    found.push({ path: candidate, shared, folded });
  }
  const distance = (p: string) => Math.abs(p.length - path.length);
  found.sort((a, b) => b.shared - a.shared || Number(a.folded) - Number(b.folded) || distance(a.path) - distance(b.path) || (a.path < b.path ? -1 : 1));
  return found.slice(0, MAX_SUGGESTIONS).map((f) => f.path);
}
