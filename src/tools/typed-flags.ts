/**
 * grep command-line flags a model typed before its pattern (`-n add`, `-rn add`, `-C 3 add`), as
 * it would write them for rg or grep, and the tool's arguments that say the same.
 */
import type { OutputMode } from './format-grep.ts';

/** What the flags before the pattern ask for, and the pattern after them. */
export interface TypedFlags {
  /** Each flag as typed, short ones that were written together taken apart (`-rn` is `-r -n`). */
  flags: string[];
  rest: string;
  ignoreCase: boolean;
  fixedStrings: boolean;
  /** The output mode the flags ask for (grep's precedence: -l over -c over -n or context), or none. */
  outputMode?: OutputMode;
  /** Lines of context asked for (-A, -B, -C: the largest). */
  context?: number;
}

type Effect = 'none' | 'ignoreCase' | 'fixedStrings' | OutputMode;

/** Flags grep needs no argument for (it searches recursively, its patterns are extended) and those an argument says. */
const FLAG_EFFECTS: Readonly<Record<string, Effect>> = {
  '-r': 'none',
  '-R': 'none',
  '--recursive': 'none',
  '-E': 'none',
  '--extended-regexp': 'none',
  '-H': 'none',
  '-i': 'ignoreCase',
  '--ignore-case': 'ignoreCase',
  '-F': 'fixedStrings',
  '--fixed-strings': 'fixedStrings',
  '-n': 'content',
  '--line-number': 'content',
  '-c': 'count',
  '--count': 'count',
  '-l': 'files_with_matches',
  '--files-with-matches': 'files_with_matches',
};

/** Flags that take a number of lines of context. */
const CONTEXT_FLAGS = new Set(['-A', '-B', '-C', '--after-context', '--before-context', '--context']);

const PRECEDENCE: readonly OutputMode[] = ['files_with_matches', 'count', 'content'];

/** More flags than a command line has is no slip to read (and a hint would repeat them all). */
const MAX_FLAGS = 12;

/**
 * The flags typed before `pattern`, or null when it starts with none, when one has no argument
 * that says it (`-v` inverts, `-w` matches words: the rest alone would find something else), or
 * when no pattern follows them.
 */
export function typedFlags(pattern: string): TypedFlags | null {
  const tokens = pattern.split(/(\s+)/);
  const flags: string[] = [];
  const modes = new Set<OutputMode>();
  const found: Omit<TypedFlags, 'flags' | 'rest'> = { ignoreCase: false, fixedStrings: false };
  let at = 0; // index in tokens of the next word (odd indices are the spaces between)
  const lines = (n: string | undefined): boolean => {
    if (n === undefined || !/^\d{1,4}$/.test(n)) return false;
    found.context = Math.max(found.context ?? 0, Number(n));
    modes.add('content');
    return true;
  };
  // A context flag's number: attached (-C2, --context=2), or the next word (-C 2).
  const number = (attached: string | undefined): boolean => {
    if (attached !== undefined) return lines(attached);
    if (!lines(tokens[at + 2])) return false;
    at += 2;
    return true;
  };
  while (at + 2 < tokens.length && /^-/.test(tokens[at]!)) {
    const word = tokens[at]!;
    const long = /^(--[a-z][\w-]*)(?:=(\S+))?$/.exec(word);
    const short = /^-([A-Za-z]+)(\d+)?$/.exec(word);
    if (long !== null) {
      const [, name, value] = long;
      if (CONTEXT_FLAGS.has(name!)) {
        if (!number(value)) return null;
      } else if (value !== undefined || !apply(FLAG_EFFECTS[name!], found, modes)) return null;
      flags.push(name!);
    } else if (short !== null) {
      const letters = [...short[1]!];
      for (const [i, letter] of letters.entries()) {
        const flag = `-${letter}`;
        flags.push(flag);
        if (CONTEXT_FLAGS.has(flag)) {
          // The number follows the letter (-C2) or the flag (-C 2); only the last letter takes one.
          if (i !== letters.length - 1) return null;
          if (!number(short[2])) return null;
        } else if (!apply(FLAG_EFFECTS[flag], found, modes)) return null;
      }
      if (short[2] !== undefined && !CONTEXT_FLAGS.has(`-${letters[letters.length - 1]}`)) return null;
    } else return null;
    at += 2;
  }
  if (flags.length === 0 || flags.length > MAX_FLAGS || at >= tokens.length || tokens[at] === '') return null;
  const outputMode = PRECEDENCE.find((mode) => modes.has(mode));
  // Context is shown in content mode only: under -l or -c it is no argument to pass.
  const { context, ...rest } = found;
  return {
    flags: [...new Set(flags)],
    rest: tokens.slice(at).join(''),
    ...rest,
    ...(outputMode === undefined ? {} : { outputMode }),
    ...(context !== undefined && outputMode === 'content' ? { context } : {}),
  };
}

function apply(effect: Effect | undefined, found: { ignoreCase: boolean; fixedStrings: boolean }, modes: Set<OutputMode>): boolean {
  if (effect === undefined) return false;
  if (effect === 'ignoreCase') found.ignoreCase = true;
  else if (effect === 'fixedStrings') found.fixedStrings = true;
  else if (effect !== 'none') modes.add(effect);
  return true;
}
