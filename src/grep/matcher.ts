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
 * Why the split: a DFA is fast at yes/no, a backtracker at alternations of literals, and
 * native backtracks badly with two or more unbounded quantifiers even on short lines
 * (`.*a.*b`). NATIVE_STEP_BUDGET caps a native line at about 0.5-1 ms while the commonest
 * risky shape (one unbounded quantifier, `\w+Sync\(`) stays native on lines up to 512
 * characters (99.9% of code lines). The measurements behind both are in
 * docs/grep-engine.md ("Why three engines").
 */

import { backtrackCost, literalPrefix, literalText, maxWidth, minWidth, requiredLiterals } from './analyze.ts';
import { ProgramTooLarge } from './compile.ts';
import { emptyPatternError, lineBreakError, patternTooLargeError, regexSyntaxError } from './diagnose.ts';
import { toJsSource } from './emit.ts';
import { linearMatcher, literalMatcher, nativeMatcher } from './engines.ts';
import type { LineMatcher, LineMatcherOptions } from './line-matcher.ts';
import { compileLinear, type Linear } from './linear.ts';

export type { LiteralCut } from './linear.ts';
import { ParseError, parseWithFlags, type ParsedRe2 } from './parse.ts';
import { nativeView, type ReNode } from './syntax.ts';

export { foldCase } from './fold.ts';
export type { LineMatcher, LineMatcherOptions } from './line-matcher.ts';

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
  if (options.fixedStrings === true) {
    if (pattern.includes('\n')) throw lineBreakError(pattern);
    return literalMatcher(pattern, ignoreCase, true);
  }

  let full: ParsedRe2;
  try {
    full = parseWithFlags(pattern, ignoreCase);
  } catch (error) {
    if (error instanceof ParseError) throw regexSyntaxError(pattern, error);
    throw error;
  }
  const parsed = nativeView(full);
  // Lines are searched one at a time: a pattern every match of which holds a line break never matches (ripgrep refuses it too).
  if (parsed !== null && requiredLiterals(parsed.root).some((l) => l.includes('\n'))) throw lineBreakError(pattern);
  const folded = ignoreCase || parsed?.ignoreCase === true;
  // With only an inline (?i), callers would look the literals up case-sensitively: expose none.
  const expose = folded === ignoreCase;
  const literal = parsed === null ? null : literalText(parsed.root);
  if (literal !== null) return literalMatcher(literal, folded, expose);
  let linear: Linear;
  try {
    linear = compileLinear(full.root, PROGRAM_BUDGET);
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
