/**
 * A safe, fast line matcher for the grep tool: one compiled pattern, tested line by line.
 *
 * Engines, picked per pattern (and, for 'native', per line):
 * - 'literal': no regex metacharacters (or fixed_strings): `indexOf`.
 * - 'native': a JS RegExp, only when its worst-case backtracking is provably bounded
 *   (see analyze.ts): about `paths * n ** degree` steps for a line of n characters must
 *   stay under NATIVE_STEP_BUDGET; longer lines of that pattern go to re2js.
 * - 're2': re2js (RE2 in pure JS, linear time) for everything else.
 * Every engine first checks the pattern's required literals with `indexOf` (or a
 * quantifier-free `/…/iu` when ignoring case), which rejects most lines before any regex runs.
 *
 * Measured (Node 20, 2 cores) on 488k lines / 17 MB of JS and TS from node_modules
 * (p50 line 28 chars, p99 154, p99.9 334), re2js 2.10, whole corpus, ms:
 *
 *   pattern          native  re2js.test | both behind the literal pre-filter: native  re2js
 *   \w+Sync\(           385     67      |                                      39     32
 *   function\s+\w+       45     86      |                                      46     56
 *   foo|bar              46    382      |  (no required literal)               47    423
 *   TODO|FIXME           27    381      |                                      28    383
 *   \bconst\b            39     61      |                                      33     44
 *   [A-Z]\w*Error        91     53      |                                      30     36
 *   \w+x                328    107      |                                      75     89
 *   .*a.*b (cubic)     5684    154      |
 * Locating the match (find) on the lines that matched is 5-15x faster native than with
 * re2js's Matcher (e.g. \bconst\b: 4 ms vs 45 ms for 32k lines).
 * So: re2js's DFA is fast at saying yes/no, but slow on alternations of literals and at
 * locating matches; native is fast unless it backtracks, and with two or more unbounded
 * quantifiers it backtracks badly even on short lines (`.*a.*b`).
 *
 * The result, one run with another job busy on one core (so all ~2x slower), ms:
 *   pattern          native  re2js.test | this matcher: test  find  engine
 *   \w+Sync\(           848    119      |                89   120  native
 *   foo|bar             100   1084      |               142   302  native
 *   \bconst\b            77    291      |                72    64  native
 *   \w+x                469    140      |                81   118  native
 *   .*a.*b                -    175      |               236  2900  re2 (find: Matcher)
 *   readFileSync         52     59      |                50    54  literal
 *   ignoring case: \w+Sync\( 820 / 1060 native / re2js.test, this matcher 110 / 369.
 *
 * Worst case, native, per line (steps ~ n²/2 for one unbounded quantifier): `\w+x` on n
 * `a`s takes 21 µs at n=100, 0.5 ms at 512, 1.7-4 ms at 1000, 15 ms at 3000 (~2-4 ns per
 * step); `a*a*b` (cubic) 0.6 ms at 100 and 315 ms at 1000. re2js.test stays 1-30 µs.
 * A budget of 2^18 steps caps a native line at roughly 0.5-1 ms and lets the commonest
 * risky shape (one unbounded quantifier, e.g. `\w+Sync\(`) run natively on lines up to
 * 512 chars, which covers 99.9% of code lines; patterns needing more (degree >= 3, or
 * many alternatives under bounded repeats) always use re2js.
 */

import { backtrackCost, literalText, maxWidth, minWidth, requiredLiterals } from './analyze.ts';
import { ProgramTooLarge } from './compile.ts';
import { emptyPatternError, patternTooLargeError, regexSyntaxError } from './diagnose.ts';
import { toJsSource } from './emit.ts';
import { linearMatcher, literalMatcher, nativeMatcher } from './engines.ts';
import { compileLinear, type Linear } from './linear.ts';
import { parse, ParseError, type Node } from './parse.ts';
import { parseRe2, type ReNode } from './syntax.ts';

export { foldCase } from './fold.ts';

export interface LineMatcherOptions {
  ignoreCase?: boolean;
  fixedStrings?: boolean;
}

export interface LineMatcher {
  /** Which engine runs: 'literal' (indexOf), 'native' (JS RegExp, proven safe), 'linear' (our DFA / Pike VM, linear time). */
  readonly engine: 'literal' | 'native' | 'linear';
  /** Literal substrings that every matching line must contain (case-folded with `foldCase` when ignoreCase); may be empty. */
  readonly requiredLiterals: readonly string[];
  /** Index and length of the first match in `line` (a single line, no '\n'), or null. */
  find(line: string): { index: number; length: number } | null;
  /** True when the line matches (may be faster than find). */
  test(line: string): boolean;
}

export { REGEX_DIALECT_DESCRIPTION } from './dialect.ts';

/** Native worst case per line, in backtracking steps (~2-4 ns each): see the numbers above. */
const NATIVE_STEP_BUDGET = 2 ** 18;
/** Below this many characters per line, native would rarely run: use re2js throughout. */
const MIN_NATIVE_LINE = 128;
/**
 * re2js's Matcher locates a match in about (characters scanned) x (live threads) x 5-25 ns,
 * and live threads are bounded by the program size; big programs come from counted
 * repetitions. Measured on a 100 KB line with its only match at the end:
 * `[ab]{0,1000}[bc]` (2003 instructions) 10.5 s, `[ab]{0,100}[bc]` (203) 0.85 s,
 * `(.*a){20}` (102) 0.3 s; typical patterns are under 50. Capping at 1000 keeps the
 * worst case to a few seconds per 100 KB matched line (RE2 also caps counts at 1000).
 */
const MAX_PROGRAM_SIZE = 1000;

export function compileLineMatcher(pattern: string, options: LineMatcherOptions = {}): LineMatcher {
  if (pattern.length === 0) throw emptyPatternError();
  const ignoreCase = options.ignoreCase === true;
  if (options.fixedStrings === true) return literalMatcher(pattern, ignoreCase, true);

  let full: Node;
  try {
    full = parse(pattern, ignoreCase);
  } catch (error) {
    if (error instanceof ParseError) throw regexSyntaxError(pattern, error);
    throw error;
  }
  const parsed = parseRe2(pattern);
  const folded = ignoreCase || parsed?.ignoreCase === true;
  // With only an inline (?i), callers would look the literals up case-sensitively: expose none.
  const expose = folded === ignoreCase;
  const literal = parsed === null ? null : literalText(parsed.root);
  if (literal !== null) return literalMatcher(literal, folded, expose);
  let linear: Linear;
  try {
    linear = compileLinear(full, MAX_PROGRAM_SIZE);
  } catch (error) {
    if (error instanceof ProgramTooLarge) throw patternTooLargeError(pattern, error.size, MAX_PROGRAM_SIZE);
    throw error;
  }
  if (parsed === null) return linearMatcher({ linear, literals: [], ignoreCase, expose: true, maxWidth: Infinity });

  const root = parsed.root;
  const parts = { linear, literals: requiredLiterals(root), ignoreCase: folded, expose, maxWidth: maxWidth(root) };
  const maxNativeLength = nativeLineLimit(root);
  // V8 (u flag) can report an empty \B match between the two halves of a surrogate pair.
  const emptyNonBoundary = minWidth(root) === 0 && hasAssert(root, ['\\B']);
  if (maxNativeLength < MIN_NATIVE_LINE || emptyNonBoundary) return linearMatcher(parts);
  let native: RegExp;
  try {
    native = new RegExp(toJsSource(root), folded ? 'iu' : 'u');
  } catch {
    return linearMatcher(parts); // not expected: the emitter mirrors what it parsed
  }
  return nativeMatcher({ ...parts, native, maxNativeLength, wordBoundary: hasAssert(root, ['\\b', '\\B']) });
}

/** Longest line the native engine may run this pattern on (0: never). */
function nativeLineLimit(root: ReNode): number {
  const cost = backtrackCost(root);
  if (cost === null || cost.degree > 2) return 0;
  const perLine = NATIVE_STEP_BUDGET / cost.paths;
  return Math.floor(cost.degree === 2 ? Math.sqrt(perLine) : perLine);
}

function hasAssert(node: ReNode, js: readonly string[]): boolean {
  switch (node.kind) {
    case 'assert':
      return js.includes(node.js);
    case 'concat':
      return node.items.some((n) => hasAssert(n, js));
    case 'alt':
      return node.branches.some((n) => hasAssert(n, js));
    case 'repeat':
      return hasAssert(node.body, js);
    default:
      return false;
  }
}
