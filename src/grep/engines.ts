/** The three LineMatcher implementations; matcher.ts decides which one a pattern gets. */

import { VfsError } from '../errors.ts';
import { escapeCodePoint } from './escape.ts';
import { foldCase } from './fold.ts';
import type { LineMatcher } from './line-matcher.ts';
import type { Linear } from './linear.ts';

type Found = { index: number; length: number } | null;

/** `expose`: report the required literals (false when the caller could not look them up correctly). */
export function literalMatcher(text: string, ignoreCase: boolean, expose: boolean): LineMatcher {
  const search = literalSearch(text, ignoreCase);
  return {
    engine: 'literal',
    requiredLiterals: expose ? [ignoreCase ? foldCase(text) : text] : [],
    test: search.test,
    find: search.first,
  };
}

interface LiteralSearch {
  test(line: string): boolean;
  first(line: string): Found;
}

/**
 * Case-sensitive: indexOf. Ignoring case: a quantifier-free `/…/iu`, which folds exactly
 * as RE2 does (simple case folding) and cannot backtrack; it measured 2-3x faster than
 * lowercasing every line for indexOf.
 */
function literalSearch(text: string, ignoreCase: boolean): LiteralSearch {
  if (!ignoreCase) {
    return {
      test: (line) => line.includes(text),
      first: (line) => {
        const index = line.indexOf(text);
        return index < 0 ? null : { index, length: text.length };
      },
    };
  }
  const re = new RegExp([...text].map((c) => escapeCodePoint(c.codePointAt(0)!)).join(''), 'iu');
  try {
    // Compiled on first use, for one-byte strings and again for two-byte ones: a literal of many
    // thousand characters overflows the compiler's stack in either.
    re.test('');
    re.test('\u0100');
  } catch {
    throw new VfsError(
      'EINVAL',
      `the pattern holds a literal of ${text.length.toLocaleString('en-US')} characters, too long to match ignoring case here: search for a shorter part of it, or match case.`,
    );
  }
  return {
    test: (line) => re.test(line),
    first: (line) => {
      const m = re.exec(line);
      return m === null ? null : { index: m.index, length: m[0].length };
    },
  };
}

export interface LinearParts {
  linear: Linear;
  /** Required literals (unfolded). */
  literals: readonly string[];
  ignoreCase: boolean;
  /** Report the literals in `requiredLiterals` (false when the caller would look them up wrongly). */
  expose: boolean;
  /** Most UTF-16 units a match can span, or Infinity. */
  maxWidth: number;
  /** Text every match starts with, matched case-sensitively ('' when none is known). */
  prefix: string;
}

export function linearMatcher(p: LinearParts): LineMatcher {
  const pass = prefilter(p.literals, p.ignoreCase);
  const locate = linearLocator(p, pass);
  return {
    engine: 'linear',
    requiredLiterals: p.expose ? pass.literals : [],
    test: (line) => pass(line) && p.linear.test(line),
    testUtf8: p.linear.testUtf8,
    cutAt: p.linear.cutAt,
    find: (line) => (pass(line) ? locate(line) : null),
  };
}

export interface NativeParts extends LinearParts {
  /** Same matches as `linear`, and safe to backtrack on lines up to `maxNativeLength`. */
  native: RegExp;
  maxNativeLength: number;
  /** The pattern has \b or \B. */
  wordBoundary: boolean;
}

export function nativeMatcher(p: NativeParts): LineMatcher {
  const { native, linear, maxNativeLength } = p;
  // Under the i flag, JS counts ſ (U+017F) and K (U+212A) as word characters for \b; RE2 does not.
  const foldRisk = p.ignoreCase && p.wordBoundary ? /[\u017f\u212a]/ : null;
  const viaLinear = (line: string): boolean => line.length > maxNativeLength || foldRisk?.test(line) === true;
  const pass = prefilter(p.literals, p.ignoreCase);
  const locate = linearLocator(p, pass);
  return {
    engine: 'native',
    requiredLiterals: p.expose ? pass.literals : [],
    test: (line) => pass(line) && (viaLinear(line) ? linear.test(line) : native.test(line)),
    testUtf8: linear.testUtf8, // the same matches as native's
    cutAt: linear.cutAt,
    find: (line) => {
      if (!pass(line)) return null;
      if (viaLinear(line)) return locate(line);
      const m = native.exec(line);
      return m === null ? null : { index: m.index, length: m[0].length };
    },
  };
}

/**
 * The DFA only says yes or no; locating a match takes the Pike VM, which costs about
 * (code points scanned) x (live threads). A match of at most maxWidth units holds every
 * required literal, so it cannot start before (first occurrence + length - maxWidth):
 * the Pike VM starts there (the text before it still counts for ^ and \b).
 */
function linearLocator(p: LinearParts, pass: Prefilter): (line: string) => Found {
  const bounded = p.maxWidth !== Infinity && pass.searches.length > 0;
  return (line) => {
    if (!p.linear.test(line)) return null; // the DFA is much cheaper than the Pike VM; most lines stop here
    let start = 0;
    if (bounded) {
      for (const search of pass.searches) {
        const at = search.first(line);
        if (at !== null) start = Math.max(start, at.index + at.length - p.maxWidth);
      }
      // Never start inside a surrogate pair.
      const c = line.charCodeAt(start);
      if (start > 0 && c >= 0xdc00 && c <= 0xdfff && line.charCodeAt(start - 1) >= 0xd800 && line.charCodeAt(start - 1) <= 0xdbff) start--;
    }
    return p.prefix === '' ? p.linear.find(line, start) : p.linear.findWithPrefix(line, start, p.prefix);
  };
}

type Prefilter = ((line: string) => boolean) & { literals: readonly string[]; searches: readonly LiteralSearch[] };

/** True when the line contains every required literal (ignoring case like the regex does). */
function prefilter(raw: readonly string[], ignoreCase: boolean): Prefilter {
  const searches = [...new Set(raw)].map((lit) => literalSearch(lit, ignoreCase));
  const check = (line: string): boolean => {
    for (const search of searches) if (!search.test(line)) return false;
    return true;
  };
  // Exposed for a content index, which folds file text with foldCase.
  const literals = ignoreCase ? [...new Set(raw.map(foldCase))] : [...new Set(raw)];
  return Object.assign(check, { literals, searches });
}
