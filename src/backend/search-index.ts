/**
 * The backend's one entry point to search: glob, grep, and building grep's index ahead of
 * time. It owns that index (Filters), which needs no invalidation (see filters.ts), so the
 * backend only hands it the current tree: after a restore or rollback, the new one.
 */
import { Filters } from './filters.ts';
import { globFiles, grepFiles, prepareSearch, type GrepQuery, type SearchedFiles } from './search.ts';
import type { GrepMatch, PrepareSearchResult } from './types.ts';

export interface SearchIndex {
  /** Files under `base` matching `pattern` (relative to `base`, or absolute), newest first, ties by path. */
  glob(files: SearchedFiles, pattern: string, base: string): string[];
  /** Matching lines in path order; binary files are skipped (or reported, when asked). */
  grep(files: SearchedFiles, query: GrepQuery): GrepMatch[];
  /** Builds the index of files lacking one, up to `maxBytes` of them (at least one file). */
  prepare(files: SearchedFiles, maxBytes: number): PrepareSearchResult;
}

export function createSearchIndex(): SearchIndex {
  const filters = new Filters();
  return {
    glob: (files, pattern, base) => globFiles(files, pattern, base),
    grep: (files, query) => grepFiles(files, filters, query),
    prepare: (files, maxBytes) => prepareSearch(files, filters, maxBytes),
  };
}
