/** What a compiled grep pattern offers (matcher.ts compiles one; engines.ts implements it). Types only. */
import type { LiteralCut } from './linear.ts';

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
