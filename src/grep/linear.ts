/** The linear-time engine: lazy DFAs say whether a line matches and where the match is. */

import { Alphabet } from './alphabet.ts';
import { compile, compilePart, compileReversed, splitAround, type Program } from './compile.ts';
import { codePointBefore } from './context.ts';
import { Dfa, Scratch, UNDECIDED } from './dfa.ts';
import type { Node } from './parse.ts';

export interface Linear {
  /** Instructions in the program. */
  readonly size: number;
  test(line: string): boolean;
  /** test() on the UTF-8 bytes b[start, end) of a line: 1 or 0, or INVALID (-1) when they are not well-formed UTF-8. */
  testUtf8(b: Uint8Array, start: number, end: number): number;
  /** Leftmost-first match at or after `from` (the text before it is context for ^ and \b). */
  find(line: string, from?: number): { index: number; length: number } | null;
  /**
   * find(), for a pattern whose every match starts with `prefix`: tries the prefix's
   * occurrences in order with an anchored forward scan, which on a long line with a rare
   * prefix reads little of it. Once those scans have read as much as the line holds, it
   * finishes with find(), so it never reads more than about three times the line.
   */
  findWithPrefix(line: string, from: number, prefix: string): { index: number; length: number } | null;
  /** A test around occurrences of `literal`, or null when the pattern does not hold it at one fixed place (see splitAround). */
  cutAt(literal: string): LiteralCut | null;
  /** Scans that gave up on a DFA's state cache and finished as an NFA simulation (for tests and measurements). */
  readonly nfaScans: number;
}

/**
 * RE2's reverse inner literal: on a long line, test only around the occurrences of a
 * literal every match holds, running the part of the pattern before it backwards and the
 * part after it forwards, so most of a long line whose rarer literal is not the pattern's
 * prefix is never read.
 */
export interface LiteralCut {
  /**
   * Does a match in the line b[start, end) hold the literal's occurrence at b[at]? 1, 0, or
   * INVALID when bytes around it are not well-formed UTF-8 (decode the line and use test()).
   */
  matchesAt(b: Uint8Array, start: number, end: number, at: number): number;
  /** Bytes the last matchesAt read: a caller bounds its work on a line with many occurrences. */
  readonly scanned: number;
}

/** Throws ProgramTooLarge past `limit` instructions. */
export function compileLinear(root: Node, limit: number): Linear {
  const prog = compile(root, limit);
  // Built on first use: a native matcher may never need them.
  let alpha: Alphabet | undefined;
  let dfa: Dfa | undefined;
  let back: Dfa | undefined;
  let ahead: Dfa | undefined;
  const parts: Dfa[] = [];
  // One expansion scratch for all of them (16 bytes an instruction), not one each.
  let scratch: Scratch | undefined;
  const make = (p: Program, mode?: 'anchored' | 'first'): Dfa =>
    new Dfa(p, (alpha ??= new Alphabet(prog.sets)), mode, (scratch ??= new Scratch(prog.op.length)));
  const cuts = new Map<string, LiteralCut | null>();
  const linear: Linear = {
    size: prog.op.length,
    get nfaScans() {
      return [dfa, back, ahead, ...parts].reduce((sum, d) => sum + (d?.nfaScans ?? 0), 0);
    },
    test: (line) => (dfa ??= make(prog)).test(line),
    testUtf8: (b, start, end) => (dfa ??= make(prog)).testUtf8(b, start, end),
    findWithPrefix(line, from, prefix) {
      ahead ??= make(prog, 'first');
      let budget = line.length;
      for (let at = line.indexOf(prefix, from); at !== -1; at = line.indexOf(prefix, at + 1)) {
        const end = ahead.matchEnd(line, at, at + budget);
        if (end === UNDECIDED) return linear.find(line, at); // no match starts before `at`
        if (end >= 0) return { index: at, length: end - at };
        budget -= ahead.stoppedAt - at;
      }
      return null;
    },
    find(line, from = 0) {
      // Where the leftmost match starts, from a backward DFA scan; then where the match
      // from there ends, with RE2's priorities, from a forward scan. (RE2 does it the other
      // way round; this order needs no leftmost-longest mode.)
      back ??= make(compileReversed(root, prog));
      const start = back.leftmostStart(line, from);
      if (start < 0) return null;
      ahead ??= make(prog, 'first');
      const end = ahead.matchEnd(line, start);
      if (end < 0) throw new Error(`unreachable: no match at ${start}`);
      return { index: start, length: end - start };
    },
    cutAt(literal) {
      let cut = cuts.get(literal);
      if (cut === undefined) {
        const split = splitAround(root, literal);
        if (split === null) cut = null;
        else {
          const before = make(compileReversed(split.before, prog), 'anchored');
          const after = make(compilePart(split.after, prog), 'anchored');
          parts.push(before, after);
          cut = literalCut(literal, before, after, alpha!);
        }
        cuts.set(literal, cut);
      }
      return cut;
    },
  };
  return linear;
}

/** `before` runs the reversed part before the literal, `after` the part after it; both anchored at the literal. */
function literalCut(literal: string, before: Dfa, after: Dfa, alpha: Alphabet): LiteralCut {
  const bytes = new TextEncoder().encode(literal).length;
  const propsOf = (cp: number): number => alpha.flags[alpha.classOf(cp)]!;
  const first = propsOf(literal.codePointAt(0)!);
  const last = propsOf(codePointBefore(literal, literal.length));
  const cut = {
    scanned: 0,
    matchesAt(b: Uint8Array, start: number, end: number, at: number): number {
      // The part after first: a literal is mostly followed by little (`Sync\b`).
      const ahead = after.matchesAfterUtf8(b, at + bytes, end, last);
      cut.scanned = after.scanned;
      if (ahead !== 1) return ahead;
      const back = before.matchesBeforeUtf8(b, at, start, first);
      cut.scanned += before.scanned;
      return back;
    },
  };
  return cut;
}
