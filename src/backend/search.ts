/** glob and grep over a Tree: pure reads, no mutation. */
import { compileGlob } from '../glob/glob.ts';
import { compileLineMatcher, foldCase } from '../grep/matcher.ts';
import { baseName, relativeTo } from '../paths.ts';
import { decodeText, isBinary } from '../text.ts';
import { comparePaths, type Tree } from './tree.ts';
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
  hits.sort((a, b) => b[1] - a[1] || comparePaths(a[0], b[0]));
  return hits.map((hit) => hit[0]);
}

export interface GrepQuery {
  pattern: string;
  base: string;
  glob: string | undefined;
  ignoreCase: boolean;
  fixedStrings: boolean;
  maxMatches: number;
}

/** Matching lines in path order; binary files are skipped. */
export function grepFiles(tree: Tree, query: GrepQuery): GrepMatch[] {
  const matcher = compileLineMatcher(query.pattern, { ignoreCase: query.ignoreCase, fixedStrings: query.fixedStrings });
  const include = query.glob === undefined ? null : compileGlob(query.glob, { basenameIfNoSlash: true });
  const required = matcher.requiredLiterals;
  const out: GrepMatch[] = [];
  for (const path of tree.filesUnder(query.base)) {
    if (include && !include(path === query.base ? baseName(path) : relativeTo(path, query.base))) continue;
    const bytes = tree.view(path);
    if (isBinary(bytes)) continue;
    const text = decodeText(bytes);
    // Whole-file pre-check: most files lack a required literal and are skipped without splitting lines.
    if (required.length > 0) {
      const haystack = query.ignoreCase ? foldCase(text) : text; // folded exactly as the literals were
      if (!required.every((literal) => haystack.includes(literal))) continue;
    }
    let lineNo = 0;
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      lineNo++;
      const line = text.charCodeAt(end - 1) === 13 && end > start ? text.slice(start, end - 1) : text.slice(start, end);
      const hit = matcher.find(line);
      if (hit) {
        out.push({ path, line: lineNo, column: hit.index, length: hit.length, text: line });
        if (out.length >= query.maxMatches) return out;
      }
      start = end + 1;
    }
  }
  return out;
}
