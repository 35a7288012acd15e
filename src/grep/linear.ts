/** The linear-time engine: lazy DFAs say whether a line matches and where the match is. */

import { Alphabet } from './alphabet.ts';
import { compile, compileReversed } from './compile.ts';
import { Dfa } from './dfa.ts';
import type { Node } from './parse.ts';

export interface Linear {
  /** Instructions in the program. */
  readonly size: number;
  test(line: string): boolean;
  /** Leftmost-first match at or after `from` (the text before it is context for ^ and \b). */
  find(line: string, from?: number): { index: number; length: number } | null;
}

/** Throws ProgramTooLarge past `limit` instructions. */
export function compileLinear(root: Node, limit: number): Linear {
  const prog = compile(root, limit);
  // Built on first use: a native matcher may never need them.
  let alpha: Alphabet | undefined;
  let dfa: Dfa | undefined;
  let back: Dfa | undefined;
  let ahead: Dfa | undefined;
  return {
    size: prog.op.length,
    test: (line) => (dfa ??= new Dfa(prog, (alpha ??= new Alphabet(prog.sets)))).test(line),
    find(line, from = 0) {
      alpha ??= new Alphabet(prog.sets);
      // Where the leftmost match starts, from a backward DFA scan; then where the match
      // from there ends, with RE2's priorities, from a forward scan. (RE2 does it the other
      // way round; this order needs no leftmost-longest mode.)
      back ??= new Dfa(compileReversed(root, prog), alpha);
      const start = back.leftmostStart(line, from);
      if (start < 0) return null;
      ahead ??= new Dfa(prog, alpha, true);
      const end = ahead.matchEnd(line, start);
      if (end < 0) throw new Error(`unreachable: no match at ${start}`);
      return { index: start, length: end - start };
    },
  };
}
