/**
 * The backend's one entry point to search: glob, grep, and building grep's index ahead of
 * time. It owns that index (Filters), which needs no invalidation (see filters.ts), and the
 * ignore rules' verdicts (GitIgnores, which check what they depend on at each search), so the
 * backend only hands it the current tree: after a restore or rollback, the new one.
 */
import { GitIgnores, type IgnoredTree } from '../ignore/git-ignores.ts';
import { Filters } from './filters.ts';
import { globFiles, grepFiles, prepareSearch, type GrepQuery, type IgnoredFlags, type SearchedFiles } from './search.ts';
import type { GrepMatch, PrepareSearchResult } from './types.ts';

export interface SearchIndex {
  /** The ignore rules' verdicts on `files`, for a search that respects them (null for one that does not). */
  ignoredFlags(files: SearchedFiles, respectGitIgnore: boolean): IgnoredFlags | null;
  /** Files under `base` matching `pattern` (relative to `base`, or absolute), newest first, ties by path; `ignored`: matches `ignoredFlags` left out. */
  glob(files: SearchedFiles, pattern: string, base: string, ignoredFlags: IgnoredFlags | null, ignoreCase?: boolean): { paths: string[]; ignored: number };
  /** Matching lines in path order; binary files are skipped (or reported, when asked); `ignored`: files in scope the query's ignoredFlags left out. */
  grep(files: SearchedFiles, query: GrepQuery): { matches: GrepMatch[]; ignored: number };
  /** Per entry of directory `dir`, whether ignore rules leave it out. */
  ignoredEntries(files: IgnoredTree, dir: string, entries: readonly { path: string; isDir: boolean }[]): boolean[];
  /** Builds the index of files lacking one, up to `maxBytes` of them (at least one file). */
  prepare(files: SearchedFiles, maxBytes: number): PrepareSearchResult;
}

export function createSearchIndex(): SearchIndex {
  const filters = new Filters();
  const ignores = new GitIgnores();
  // The trees searched before. The first search of a tree (after a load into a new backend, a
  // restore, an open) builds no filters: scanning a file costs 1-3 ns a byte, indexing it ~15, so
  // a one-off search after a wake-up (a Durable Object woken for one request) pays only the scan;
  // the index grows from the next search on. A WeakSet, not a WeakRef to the last tree: a WeakRef
  // keeps its target alive until the event loop next turns, so a run of restores and searches
  // awaiting nothing but promises held every replaced tree (5 of 62 MB each: 420 MB, not 146).
  const searched = new WeakSet<SearchedFiles>();
  const firstSearchOf = (files: SearchedFiles): boolean => {
    if (searched.has(files)) return false;
    searched.add(files);
    return true;
  };
  return {
    ignoredFlags: (files, respect) => (respect ? (list, base) => ignores.flagsFor(files, list, base) : null),
    glob: (files, pattern, base, flags, ignoreCase) => globFiles(files, pattern, base, flags, ignoreCase),
    grep: (files, query) => grepFiles(files, filters, query, !firstSearchOf(files)),
    ignoredEntries: (files, dir, entries) => ignores.entriesIgnored(files, dir, entries),
    prepare: (files, maxBytes) => {
      firstSearchOf(files); // indexing ahead is asked for: later searches build the rest
      return prepareSearch(files, filters, maxBytes);
    },
  };
}
