/**
 * A safe, fast line matcher for the grep tool: one compiled pattern, tested line by line.
 *
 * Engines, picked per pattern (and, for 'native', per line):
 * - 'literal': no regex metacharacters (or fixed_strings): `indexOf`.
 * - 'native': a JS RegExp, only when its worst-case backtracking is provably bounded
 *   (see analyze.ts): about `paths * n ** degree` steps for a line of n characters must
 *   stay under NATIVE_STEP_BUDGET; longer lines of that pattern go to the linear engine.
 * - 'linear': our RE2 engine (parse.ts → compile.ts → dfa.ts): lazy DFAs, linear time,
 *   for everything else. It also validates every pattern (RE2 syntax) and sizes it.
 * Every engine first checks the pattern's required literals with `indexOf` (or a
 * quantifier-free `/…/iu` when ignoring case), which rejects most lines before any regex runs.
 *
 * Measured with re2js 2.10 as the linear engine (Node 20, 2 cores) on 488k lines / 17 MB
 * of JS and TS from node_modules (p50 line 28 chars, p99 154, p99.9 334), ms:
 *
 *   pattern          native  re2js.test | both behind the literal pre-filter: native  re2js
 *   \w+Sync\(           385     67      |                                      39     32
 *   foo|bar              46    382      |  (no required literal)               47    423
 *   \w+x                328    107      |                                      75     89
 *   .*a.*b (cubic)     5684    154      |
 * So a DFA is fast at saying yes/no but a backtracker wins on alternations of literals;
 * native is fast unless it backtracks, and with two or more unbounded quantifiers it
 * backtracks badly even on short lines (`.*a.*b`). That split still holds.
 *
 * Our linear engine against re2js, through this matcher (pre-filter included), on 1.1M
 * lines / 47 MB of *.js / *.ts under node_modules, best of 3, ms (test / find, every line;
 * the other job on the machine makes runs vary by ~30%):
 *
 *   pattern                        ours test  find | re2js test  find
 *   function\s+\w+Sync\b                86    76  |       127   121
 *   .*a.*b                            146   710  |       252  2799
 *   (\w+)\s*=\s*require               154   161  |       180   206
 *   [A-Za-z_]+Error\b.*throw          120   199  |       163   768
 *   (a|b)*c{2}                         94   184  |       135   539
 *   todo.*\w+\(  (ignoreCase)         123   145  |       137   350
 *   (?:error|warn)\w*\(.*\) (i)       533   641  |       652  1539
 * Without the pre-filter re2js's test() is 2-4x faster than ours on patterns with a
 * literal it can skip to with indexOf (it checks more literals); the pre-filter does that
 * here. find() is a backward DFA scan for the leftmost start plus a forward leftmost-first
 * DFA from there, instead of an NFA simulation: 1.3-4x faster than re2js's Matcher.
 * The whole matcher bundles to 11.5 kB minified+gzipped (51 kB with re2js).
 *
 * Worst case, native, per line (steps ~ n²/2 for one unbounded quantifier): `\w+x` on n
 * `a`s takes 21 µs at n=100, 0.5 ms at 512, 1.7-4 ms at 1000, 15 ms at 3000 (~2-4 ns per
 * step); `a*a*b` (cubic) 0.6 ms at 100 and 315 ms at 1000. The DFA stays 1-30 µs.
 * A budget of 2^18 steps caps a native line at roughly 0.5-1 ms and lets the commonest
 * risky shape (one unbounded quantifier, e.g. `\w+Sync\(`) run natively on lines up to
 * 512 chars, which covers 99.9% of code lines; patterns needing more (degree >= 3, or
 * many alternatives under bounded repeats) always use the linear engine.
 */

import { backtrackCost, literalPrefix, literalText, maxWidth, minWidth, requiredLiterals } from './analyze.ts';
import { ProgramTooLarge } from './compile.ts';
import { emptyPatternError, patternTooLargeError, regexSyntaxError } from './diagnose.ts';
import { toJsSource } from './emit.ts';
import { linearMatcher, literalMatcher, nativeMatcher } from './engines.ts';
import { compileLinear, type Linear, type LiteralCut } from './linear.ts';

export type { LiteralCut } from './linear.ts';
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
  /**
   * Regex engines only: test() on a line's UTF-8 bytes b[start, end) without decoding them,
   * 1 or 0; -1 when they are not well-formed UTF-8 (decode the line and use test()).
   */
  testUtf8?(b: Uint8Array, start: number, end: number): number;
  /** Regex engines only: a test of a line around the occurrences of one of its literals (see LiteralCut), or null. */
  cutAt?(literal: string): LiteralCut | null;
}

export { REGEX_DIALECT_DESCRIPTION } from './dialect.ts';

/** Native worst case per line, in backtracking steps (~2-4 ns each): see the numbers above. */
const NATIVE_STEP_BUDGET = 2 ** 18;
/** Below this many characters per line, native would rarely run: use the linear engine throughout. */
const MIN_NATIVE_LINE = 128;
/**
 * RE2's budget for a program: its default max_mem is 8 MiB, of which it gives 2/3 to the
 * compiled program (Compiler::Setup divides that by the size of an instruction). Ours cost
 * 51 bytes each: 9 in the program, 9 in its reversed copy (for locating matches), up to 9 in
 * the pieces around a literal (for long lines), 16 of expansion scratch and 8 of NFA
 * simulation lists (both shared by a pattern's DFAs). So 109,655 instructions: an
 * alternation of thousands of names, or a{1000} (the largest count RE2 allows) a hundred
 * times over. The DFAs' caches are bounded apart from this (dfa.ts), and past that a scan
 * runs as an NFA simulation, whose cost per character is the number of live threads: large
 * programs stay linear in the input, at a cost that grows with the program.
 */
const RE2_MAX_MEM = 8 << 20;
const BYTES_PER_INSTRUCTION = 9 + 9 + 9 + 16 + 8;
export const PROGRAM_BUDGET = Math.floor((RE2_MAX_MEM * 2) / 3 / BYTES_PER_INSTRUCTION);

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
    linear = compileLinear(full, PROGRAM_BUDGET);
  } catch (error) {
    if (error instanceof ProgramTooLarge) throw patternTooLargeError(pattern, error.size, PROGRAM_BUDGET);
    throw error;
  }
  if (parsed === null) return linearMatcher({ linear, literals: [], ignoreCase, expose: true, maxWidth: Infinity, prefix: '' });

  const root = parsed.root;
  const prefix = folded ? '' : literalPrefix(root);
  const parts = { linear, literals: requiredLiterals(root), ignoreCase: folded, expose, maxWidth: maxWidth(root), prefix };
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
