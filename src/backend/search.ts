/** glob and grep over the tree's files: pure reads of the files (grep builds filters of them, kept in Filters). */
import { compileGlob } from '../glob/glob.ts';
import { ByteNeedle, holdsAsciiFolds } from '../grep/byte-needle.ts';
import { compileLineMatcher, foldCase, type LineMatcher, type LiteralCut } from '../grep/matcher.ts';
import { baseName, relativeTo } from '../paths.ts';
import { countNewlines, decodeRange, decodeText, hasBom, isBinary } from '../text.ts';
import { type BlockLines, lineEnd, lineNumberAt, lineStart } from './block-lines.ts';
import { candidateRanges, type Filter, mayMatch, queryTrigrams, type Trigrams } from './content-filter.ts';
import type { Filters } from './filters.ts';
import type { FileList, Meta, Tree } from './tree.ts';
import type { GrepMatch, PrepareSearchResult } from './types.ts';

/** What search reads of the tree. */
export type SearchedFiles = Pick<Tree, 'fileListUnder' | 'view' | 'get'>;

/** Which files of a FileList ignore rules leave out (1), given the list and its base; null when none. */
export type IgnoredFlags = (list: FileList, base: string) => Uint8Array | null;

/**
 * Files under `base` matching `pattern` (relative to `base`, or absolute), newest first, ties by
 * path; `ignored`: how many more matched that ignore rules left out.
 */
export function globFiles(
  tree: SearchedFiles,
  pattern: string,
  base: string,
  ignoredFlags: IgnoredFlags | null,
  ignoreCase = false,
): { paths: string[]; ignored: number } {
  const absolute = pattern.startsWith('/');
  const matches = compileGlob(absolute ? pattern.slice(1) : pattern, { ignoreCase });
  const hits: Array<[string, number]> = [];
  const list = tree.fileListUnder(base);
  const { paths, metas } = list;
  const flags = ignoredFlags === null ? null : ignoredFlags(list, base);
  let ignored = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (!matches(absolute ? path.slice(1) : relativeTo(path, base))) continue;
    if (flags !== null && flags[i] === 1) ignored++;
    else hits.push([path, metas[i]!.mtimeMs]);
  }
  // fileListUnder() is in path order and sort() is stable, so ties keep path order without comparing paths.
  hits.sort((a, b) => b[1] - a[1]);
  return { paths: hits.map((hit) => hit[0]), ignored };
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
  /** Also return a `binary: true` entry for each binary file in scope (they are skipped all the same). */
  reportBinary: boolean;
  /** Leaves out the files these flag (null: none). */
  ignoredFlags: IgnoredFlags | null;
}

/**
 * Builds the search filters of files that lack a current one, in path order, stopping once
 * `maxBytes` of file bytes were indexed (at least one file); done when none is left. Searches
 * build what this has not, a part at a time (indexBudgetFor).
 */
export function prepareSearch(tree: SearchedFiles, filters: Filters, maxBytes: number): PrepareSearchResult {
  const list = tree.fileListUnder('/');
  const { paths, metas } = list;
  let bytes = 0;
  let indexedFiles = 0;
  for (let i = 0; i < paths.length; i++) {
    const meta = metas[i]!;
    if (filters.at(list, i)) continue;
    if (indexedFiles > 0 && bytes >= maxBytes) return { done: false, indexedFiles };
    filters.build(list, i, tree);
    bytes += meta.size;
    indexedFiles++;
  }
  return { done: true, indexedFiles };
}

/**
 * How many bytes of not-yet-indexed files one search indexes: an eighth of what it searches,
 * at least 4 MB. Indexing costs about 15 ns a byte here, searching a file without its index
 * 1-3, so a first search after a big load scans most files directly instead of stalling on
 * the whole index (1.3 s for 72 MB), and the index is complete after a few searches.
 * prepareSearch() (which a worker runs when idle) builds it all ahead of time.
 */
function indexBudgetFor(metas: readonly Meta[]): number {
  let bytes = 0;
  for (let i = 0; i < metas.length; i++) bytes += metas[i]!.size;
  return Math.max(MIN_INDEX_BYTES_PER_SEARCH, bytes / 8);
}

const MIN_INDEX_BYTES_PER_SEARCH = 4 * 1024 * 1024;

/** Matching lines in path order; binary files are skipped. `ignored`: files in scope that ignore rules left out. */
export function grepFiles(tree: SearchedFiles, filters: Filters, query: GrepQuery, buildIndex = true): { matches: GrepMatch[]; ignored: number } {
  const plan = planGrep(query);
  const found = new Found(plan.matcher, query);
  if (plan.anchor?.includes('\n') !== true) searchFiles(tree, filters, query, plan, found, buildIndex); // (matching is per line)
  return { matches: found.out, ignored: found.ignored };
}

/** What a search needs to know about its pattern, worked out once per query. */
interface GrepPlan {
  matcher: LineMatcher;
  include: ((path: string) => boolean) | null;
  /** The glob starts with "/": it is matched against whole paths, as the glob tool does. */
  includeAbsolute: boolean;
  required: readonly string[];
  /** The longest required literal: lines are only looked at around its occurrences. */
  anchor: string | null;
  anchorNeedle: ByteNeedle | null;
  anyMissesNonAscii: boolean;
  /** Needles with their trigrams, and the other needles than the anchor's: [file without K or ſ, file with]. */
  usableIn: Searchable[][];
  othersIn: ByteNeedle[][];
  trigrams: Trigrams;
  /** Per needle, the byte tests of long lines around it (regexes only). */
  longLines: Map<ByteNeedle, LongLineTest> | null;
}

function planGrep(query: GrepQuery): GrepPlan {
  const matcher = compileLineMatcher(query.pattern, { ignoreCase: query.ignoreCase, fixedStrings: query.fixedStrings });
  const includeAbsolute = query.glob?.startsWith('/') === true;
  const include = query.glob === undefined ? null : includeAbsolute ? compileGlob(query.glob.slice(1)) : compileGlob(query.glob, { basenameIfNoSlash: true });
  const required = matcher.requiredLiterals;
  const anchor = required.reduce<string | null>((best, l) => (best === null || l.length > best.length ? l : best), null);
  const needles = required.map((literal) => ByteNeedle.for(literal, query.ignoreCase));
  const anchorNeedle = anchor === null ? null : needles[required.indexOf(anchor)]!;
  // Every needle with its own trigrams: in a large file, the one in the fewest blocks leads.
  // In a file holding K or ſ, literals with a k or an s may match there: not a reason to skip.
  const searchable = needles.flatMap((needle, i) => (needle ? [{ needle, trigrams: queryTrigrams([required[i]!], query.ignoreCase) }] : []));
  const usableIn = [searchable, searchable.filter((s) => !s.needle.missesNonAscii)];
  const testUtf8 = matcher.testUtf8;
  let longLines: Map<ByteNeedle, LongLineTest> | null = null;
  if (testUtf8 !== undefined) {
    // A cut needs the needle's occurrences to be exactly the literal's bytes: case-sensitive only.
    const cutAt = query.ignoreCase ? undefined : matcher.cutAt;
    longLines = new Map(searchable.map(({ needle }) => [needle, { test: testUtf8, cut: cutAt?.(required[needles.indexOf(needle)]!) ?? null }]));
  }
  return {
    matcher,
    include,
    includeAbsolute,
    required,
    anchor,
    anchorNeedle,
    anyMissesNonAscii: needles.some((n) => n?.missesNonAscii),
    usableIn,
    othersIn: usableIn.map((usable) => others(usable, anchorNeedle)),
    trigrams: queryTrigrams(required, query.ignoreCase),
    longLines,
  };
}

/**
 * The matches so far. A class, as is GrepPlan's fixed shape, so that the per-file loop below
 * sees the same object shapes and call targets on every search: closures and arrays made
 * per search kept V8 deoptimizing it for a search's first few runs.
 */
class Found {
  readonly out: GrepMatch[] = [];
  /** Matching lines in `out` (binary entries are not matches). */
  lines = 0;
  /** Matches in the current file. */
  inFile = 0;
  /** Files in scope that ignore rules left out. */
  ignored = 0;

  constructor(
    private readonly matcher: LineMatcher,
    private readonly limits: { maxMatches: number; maxMatchesPerFile: number },
  ) {}

  /** Reports a line if it matches; true when this file needs no more lines (its cap, or the total cap, is reached). */
  line(path: string, lineNo: number, text: string): boolean {
    const hit = this.matcher.find(text);
    if (hit) {
      this.out.push({ path, line: lineNo, column: hit.index, length: hit.length, text });
      this.lines++;
      this.inFile++;
    }
    return this.full() || this.inFile >= this.limits.maxMatchesPerFile;
  }

  /** A binary file the search skipped, when asked to report those. */
  binary(path: string): void {
    this.out.push({ path, line: 0, column: 0, length: 0, text: '', binary: true });
  }

  full(): boolean {
    return this.lines >= this.limits.maxMatches;
  }
}

function searchFiles(tree: SearchedFiles, filters: Filters, query: GrepQuery, plan: GrepPlan, found: Found, buildIndex: boolean): void {
  const { include, includeAbsolute, required, anchor, anchorNeedle, anyMissesNonAscii, usableIn, othersIn, trigrams, longLines } = plan;
  const list = tree.fileListUnder(query.base);
  const { paths, metas } = list;
  const ignored = query.ignoredFlags === null ? null : query.ignoredFlags(list, query.base);
  const filtered = trigrams.length > 0 || anyMissesNonAscii;
  let indexBudget = filtered && buildIndex ? indexBudgetFor(metas) : 0;
  const known = filtered ? filters.positions(list) : null;
  const offset = list.offset;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (include && !include(includeAbsolute ? path.slice(1) : path === query.base ? baseName(path) : relativeTo(path, query.base))) continue;
    if (ignored !== null && ignored[i] === 1) {
      found.ignored++;
      continue;
    }
    found.inFile = 0;
    const meta = metas[i]!;
    let filter: Filter | null = null;
    if (known !== null) {
      const at = 2 * (offset + i);
      filter = ((known[at] === meta ? known[at + 1] : filters.at(list, i)) as Filter | undefined) ?? null;
    }
    if (filtered && filter === null && indexBudget > 0) {
      filter = filters.build(list, i, tree);
      indexBudget -= meta.size;
    }
    if (filter !== null && trigrams.length > 0 && !mayMatch(filter, trigrams)) {
      if (query.reportBinary && filter.binary) found.binary(path);
      continue;
    }
    const bytes = tree.view(path);
    if (filter ? filter.binary : isBinary(bytes)) {
      if (query.reportBinary) found.binary(path);
      continue;
    }
    // Only asked when a literal can match text that its bytes miss (ignore case, k or s).
    const foldsToAscii = anyMissesNonAscii && (filter === null ? holdsAsciiFolds(bytes) : filter.foldsToAscii);
    if (anchorNeedle && !(anchorNeedle.missesNonAscii && foldsToAscii)) {
      const kind = foldsToAscii ? 1 : 0;
      let lead = anchorNeedle;
      let ranges: number[] | null = null;
      let rest = othersIn[kind]!;
      if (filter !== null && filter.blocks > 1) {
        const best = leadNeedle(usableIn[kind]!, anchorNeedle, filter, bytes.length);
        ranges = best.ranges;
        if (best.needle !== lead) rest = others(usableIn[kind]!, (lead = best.needle));
      }
      const tests = longLines === null ? null : longLines.get(lead)!;
      if (searchBytes(path, bytes, lead, rest, ranges, filter === null ? null : filter.lines, tests, found) && found.full()) return;
      continue;
    }
    const text = decodeText(bytes);
    if (anchor !== null) {
      // foldCase keeps every offset, so positions in the folded text are positions in the text.
      const haystack = query.ignoreCase ? foldCase(text) : text;
      let holdsAll = true;
      for (let k = 0; k < required.length && holdsAll; k++) holdsAll = haystack.includes(required[k]!);
      if (!holdsAll) continue;
      if (searchText(path, text, haystack, anchor, found) && found.full()) return;
      continue;
    }
    let lineNo = 0;
    for (let start = 0; start < text.length; ) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (found.line(path, ++lineNo, lineOf(text, start, end))) break;
      start = end + 1;
    }
    if (found.full()) return;
  }
}

/**
 * From this many bytes on, a line that holds the literals is first tested on its bytes and
 * decoded only if it matches: minified files have lines of megabytes that hold both literals
 * of a regex and do not match (decoding them was a third of such a search).
 */
const LONG_LINE = 256;

/** The line in text[start, end) without a CR ending. */
function lineOf(text: string, start: number, end: number): string {
  return end > start && text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
}

interface Searchable {
  needle: ByteNeedle;
  trigrams: Trigrams;
}

// Plain loops here and below: these run per file, and array callbacks made per search
// kept V8 deoptimizing grep (new closures, arrays of other element kinds) for its first runs.
function others(usable: readonly Searchable[], lead: ByteNeedle | null): ByteNeedle[] {
  const out: ByteNeedle[] = [];
  for (let i = 0; i < usable.length; i++) if (usable[i]!.needle !== lead) out.push(usable[i]!.needle);
  return out;
}

/** The needle to search a file of several blocks for: the one whose trigrams fit the fewest bytes of it, with those byte ranges. */
function leadNeedle(usable: readonly Searchable[], longest: ByteNeedle, filter: Filter, size: number): { needle: ByteNeedle; ranges: number[] | null } {
  let bestNeedle = longest;
  let bestRanges: number[] | null = null;
  let bestBytes = Infinity;
  for (let k = 0; k < usable.length; k++) {
    const { needle, trigrams } = usable[k]!;
    const ranges = candidateRanges(filter, trigrams, needle.length, size);
    let covered = ranges === null ? size : 0;
    for (let i = 0; ranges !== null && i < ranges.length; i += 2) covered += ranges[i + 1]! - ranges[i]!;
    // The longest wins ties.
    if (covered < bestBytes || (covered === bestBytes && needle === longest)) {
      bestBytes = covered;
      bestNeedle = needle;
      bestRanges = ranges;
    }
  }
  return { needle: bestNeedle, ranges: bestRanges };
}

/**
 * Emits the lines holding the anchor (searched only in `ranges` when given) and the other
 * literals, decoding only those; true when `found` said stop. `lines` (from the filter) saves
 * reading the bytes between a hit and its line's ends, and counting the lines of skipped blocks.
 * `longLines` (a regex's byte tests) keeps long lines that do not match from being decoded.
 */
function searchBytes(
  path: string,
  bytes: Uint8Array,
  anchor: ByteNeedle,
  others: readonly ByteNeedle[],
  ranges: readonly number[] | null,
  lines: BlockLines | null,
  longLines: LongLineTest | null,
  found: Found,
): boolean {
  let lineNo = 1;
  let counted = 0; // newlines before this offset are in lineNo
  let r = 0;
  const next = (from: number): number => {
    if (ranges === null) return anchor.indexIn(bytes, from);
    for (; r < ranges.length; r += 2) {
      if (from >= ranges[r + 1]!) continue;
      const at = anchor.indexIn(bytes, Math.max(from, ranges[r]!), ranges[r + 1]!);
      if (at !== -1) return at;
    }
    return -1;
  };
  let at = next(0);
  while (at !== -1) {
    const start = lineStart(bytes, at, lines);
    const end = lineEnd(bytes, at, lines);
    let holdsOthers = true;
    for (let k = 0; k < others.length && holdsOthers; k++) holdsOthers = others[k]!.indexIn(bytes, start, end) !== -1;
    if (!holdsOthers) {
      at = next(end + 1);
      continue;
    }
    const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
    if (longLines !== null && stop - start >= LONG_LINE) {
      const from = start === 0 && hasBom(bytes) ? 3 : start;
      let answer: number;
      if (longLines.cut === null) answer = longLines.test(bytes, from, stop);
      else {
        // Around each occurrence of the anchor in the line; past twice the line's bytes
        // (a pattern like `a.*Sync.*b` rereads the line per occurrence), the whole-line test.
        let budget = 2 * (stop - from) + LONG_LINE;
        answer = 0;
        let p = at;
        for (; p !== -1 && p + anchor.length <= stop; p = next(p + 1)) {
          if (p < from) continue; // inside a BOM, which the line's text does not hold
          answer = longLines.cut.matchesAt(bytes, from, stop, p);
          if (answer !== 0) break;
          budget -= longLines.cut.scanned;
          if (budget < 0) {
            answer = longLines.test(bytes, from, stop);
            break;
          }
        }
        if (answer === 0 && (p === -1 || p > end)) {
          at = p; // the next occurrence, already found
          continue;
        }
      }
      if (answer === 0) {
        at = next(end + 1);
        continue;
      }
    }
    lineNo = lineNumberAt(bytes, start, counted, lineNo, lines);
    counted = start;
    if (found.line(path, lineNo, decodeRange(bytes, start, stop))) return true;
    at = next(end + 1);
  }
  return false;
}

interface LongLineTest {
  /** The whole line's test on its bytes: 1, 0, or -1 (decode it). */
  test(b: Uint8Array, start: number, end: number): number;
  /** The test around the anchor's occurrences, when the pattern has one for it. */
  cut: LiteralCut | null;
}

/** searchBytes on decoded text; `haystack` is the text, case-folded when the anchor is. */
function searchText(path: string, text: string, haystack: string, anchor: string, found: Found): boolean {
  let lineNo = 1;
  let counted = 0; // newlines before this offset are in lineNo
  let at = haystack.indexOf(anchor);
  while (at !== -1) {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    lineNo += countNewlines(text, counted, start);
    counted = start;
    if (found.line(path, lineNo, lineOf(text, start, end))) return true;
    at = end < text.length ? haystack.indexOf(anchor, end + 1) : -1;
  }
  return false;
}
