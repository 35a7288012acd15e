/** glob and grep over a Tree: pure reads, no mutation. */
import { compileGlob } from '../glob/glob.ts';
import { ByteNeedle } from '../grep/byte-needle.ts';
import { compileLineMatcher, foldCase } from '../grep/matcher.ts';
import { baseName, relativeTo } from '../paths.ts';
import { countNewlineBytes, countNewlines, decodeRange, decodeText, isBinary } from '../text.ts';
import { ContentFilters, mayMatch, queryTrigrams } from './content-filter.ts';
import type { Tree } from './tree.ts';
import type { GrepMatch } from './types.ts';

/** Files under `base` matching `pattern` (relative to `base`, or absolute), newest first, ties by path. */
export function globFiles(tree: Tree, pattern: string, base: string): string[] {
  const absolute = pattern.startsWith('/');
  const matches = compileGlob(absolute ? pattern.slice(1) : pattern);
  const hits: Array<[string, number]> = [];
  for (const path of tree.filesUnder(base)) {
    const subject = absolute ? path.slice(1) : relativeTo(path, base);
    if (matches(subject)) hits.push([path, tree.get(path)!.mtimeMs]);
  }
  // filesUnder() is in path order and sort() is stable, so ties keep path order without comparing paths.
  hits.sort((a, b) => b[1] - a[1]);
  return hits.map((hit) => hit[0]);
}

export interface GrepQuery {
  pattern: string;
  base: string;
  glob: string | undefined;
  ignoreCase: boolean;
  fixedStrings: boolean;
  maxMatches: number;
  /** Matching lines to report per file at most (1 is enough to list the files). */
  maxMatchesPerFile: number;
}

// One set of trigram filters per backend, keyed by its version counter: a rollback builds a
// new tree with the old versions, so the filters of every file it brings back still hold.
const filtersOf = new WeakMap<object, ContentFilters>();

/** Reports a line if it matches; true when this file needs no more lines (its cap, or the total cap, is reached). */
type Emit = (path: string, lineNo: number, line: string) => boolean;

/** Matching lines in path order; binary files are skipped. */
export function grepFiles(tree: Tree, query: GrepQuery): GrepMatch[] {
  const matcher = compileLineMatcher(query.pattern, { ignoreCase: query.ignoreCase, fixedStrings: query.fixedStrings });
  const include = query.glob === undefined ? null : compileGlob(query.glob, { basenameIfNoSlash: true });
  const required = matcher.requiredLiterals;
  // Lines are only looked at around occurrences of the longest required literal.
  const anchor = required.reduce<string | null>((best, l) => (best === null || l.length > best.length ? l : best), null);
  if (anchor !== null && anchor.includes('\n')) return []; // matching is per line
  const needles = required.map((literal) => ByteNeedle.for(literal, query.ignoreCase));
  const anchorNeedle = anchor === null ? null : needles[required.indexOf(anchor)]!;
  const anyMissesNonAscii = needles.some((n) => n?.missesNonAscii);
  const otherNeedles = needles.filter((n): n is ByteNeedle => n !== null && n !== anchorNeedle);
  const trigrams = queryTrigrams(required, query.ignoreCase);
  let filters = filtersOf.get(tree.versionSource);
  if (!filters) filtersOf.set(tree.versionSource, (filters = new ContentFilters()));
  filters.prune((p) => tree.get(p)?.kind === 'file', tree.fileCount);
  const out: GrepMatch[] = [];
  let inFile = 0;
  const emit: Emit = (path, lineNo, line) => {
    const hit = matcher.find(line);
    if (hit) {
      out.push({ path, line: lineNo, column: hit.index, length: hit.length, text: line });
      inFile++;
    }
    return out.length >= query.maxMatches || inFile >= query.maxMatchesPerFile;
  };
  for (const path of tree.filesUnder(query.base)) {
    if (include && !include(path === query.base ? baseName(path) : relativeTo(path, query.base))) continue;
    inFile = 0;
    const version = tree.get(path)!.version;
    const filter = trigrams.length > 0 || anyMissesNonAscii ? filters.of(path, version, tree) : null;
    if (trigrams.length > 0 && !mayMatch(filter!, trigrams)) continue;
    const bytes = tree.view(path);
    if (isBinary(bytes)) continue;
    if (anchorNeedle && !(anchorNeedle.missesNonAscii && filter!.nonAscii)) {
      // In a file with non-ASCII bytes, literals with a k or an s may match as K or ſ: not a reason to skip.
      const others = anyMissesNonAscii && filter!.nonAscii ? otherNeedles.filter((n) => !n.missesNonAscii) : otherNeedles;
      if (others.some((n) => n.indexIn(bytes) === -1)) continue;
      if (searchBytes(path, bytes, anchorNeedle, others, emit) && out.length >= query.maxMatches) return out;
      continue;
    }
    const text = decodeText(bytes);
    if (anchor !== null) {
      // foldCase keeps every offset, so positions in the folded text are positions in the text.
      const haystack = query.ignoreCase ? foldCase(text) : text;
      if (!required.every((literal) => haystack.includes(literal))) continue;
      if (searchText(path, text, haystack, anchor, emit) && out.length >= query.maxMatches) return out;
      continue;
    }
    let lineNo = 0;
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (emit(path, ++lineNo, lineOf(text, start, end))) break;
      start = end + 1;
    }
    if (out.length >= query.maxMatches) return out;
  }
  return out;
}

/** The line in text[start, end) without a CR ending. */
function lineOf(text: string, start: number, end: number): string {
  return end > start && text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
}

/** Emits the lines holding the anchor and the other literals, decoding only those; true when emit said stop. */
function searchBytes(path: string, bytes: Uint8Array, anchor: ByteNeedle, others: readonly ByteNeedle[], emit: Emit): boolean {
  let lineNo = 1;
  let counted = 0; // newlines before this offset are in lineNo
  let at = anchor.indexIn(bytes);
  while (at !== -1) {
    const start = at === 0 ? 0 : bytes.lastIndexOf(10, at - 1) + 1; // (a negative index counts from the end)
    let end = bytes.indexOf(10, at);
    if (end === -1) end = bytes.length;
    if (others.some((n) => n.indexIn(bytes, start, end) === -1)) {
      at = end < bytes.length ? anchor.indexIn(bytes, end + 1) : -1;
      continue;
    }
    lineNo += countNewlineBytes(bytes, counted, start);
    counted = start;
    if (emit(path, lineNo, decodeRange(bytes, start, end > start && bytes[end - 1] === 13 ? end - 1 : end))) return true;
    at = end < bytes.length ? anchor.indexIn(bytes, end + 1) : -1;
  }
  return false;
}

/** searchBytes on decoded text; `haystack` is the text, case-folded when the anchor is. */
function searchText(path: string, text: string, haystack: string, anchor: string, emit: Emit): boolean {
  let lineNo = 1;
  let counted = 0; // newlines before this offset are in lineNo
  let at = haystack.indexOf(anchor);
  while (at !== -1) {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    lineNo += countNewlines(text, counted, start);
    counted = start;
    if (emit(path, lineNo, lineOf(text, start, end))) return true;
    at = end < text.length ? haystack.indexOf(anchor, end + 1) : -1;
  }
  return false;
}
