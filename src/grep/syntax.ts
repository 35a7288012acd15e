/**
 * The native view of a parsed pattern: the part of RE2 syntax whose meaning on a line a
 * JavaScript `u`-flag RegExp reproduces exactly, derived from parse.ts's tree (the one the
 * linear engine compiles). Anything it does not model (flag groups other than a leading
 * `(?i)`, `(?m)`, `(?s)`; `\p{…}`; POSIX classes; `\S` in brackets; a quantified
 * assertion) gives null and the pattern is left to the linear engine. Groups become plain
 * groups: nothing reads captures.
 */

import { BEGIN_LINE, BEGIN_TEXT, END_LINE, END_TEXT, NO_WORD_BOUNDARY, parseWithFlags, ParseError, type Node, type ParsedRe2, WORD_BOUNDARY } from './parse.ts';

export type ReNode =
  | { kind: 'char'; cp: number }
  /** One character from a set; `js` is its exact JS (u-flag) source. */
  | { kind: 'set'; js: string }
  /** Zero-width: `^`, `$`, `\b`, `\B`. */
  | { kind: 'assert'; js: string }
  | { kind: 'concat'; items: ReNode[] }
  | { kind: 'alt'; branches: ReNode[] }
  | { kind: 'repeat'; body: ReNode; min: number; max: number; lazy: boolean };

export interface ParsedPattern {
  root: ReNode;
  /** A leading `(?i)` (alone or with the no-op-per-line flags `m`, `s`) was present. */
  ignoreCase: boolean;
}

// On one line, begin/end of text and of line are the same place.
const ASSERT_JS: Readonly<Record<number, string>> = {
  [BEGIN_LINE]: '^',
  [BEGIN_TEXT]: '^',
  [END_LINE]: '$',
  [END_TEXT]: '$',
  [WORD_BOUNDARY]: '\\b',
  [NO_WORD_BOUNDARY]: '\\B',
};

const COUNTS = { star: [0, Infinity], plus: [1, Infinity], quest: [0, 1] } as const;

/** The native view of `pattern` as written (no ignoreCase option), or null when it has none or is invalid. */
export function parseRe2(pattern: string): ParsedPattern | null {
  try {
    return nativeView(parseWithFlags(pattern));
  } catch (e) {
    if (e instanceof ParseError) return null;
    throw e;
  }
}

/** The native view of a parsed pattern, or null when a JS RegExp cannot be trusted to mean the same. */
export function nativeView(parsed: ParsedRe2): ParsedPattern | null {
  if (parsed.otherFlags) return null;
  const root = view(parsed.root);
  return root === null ? null : { root, ignoreCase: parsed.leadingFold };
}

function view(node: Node): ReNode | null {
  switch (node.op) {
    case 'empty':
      return { kind: 'concat', items: [] };
    case 'char':
      if (node.cp !== undefined) return { kind: 'char', cp: node.cp };
      return node.js === undefined ? null : { kind: 'set', js: node.js };
    case 'assert': {
      const js = ASSERT_JS[node.kind];
      return js === undefined ? null : { kind: 'assert', js };
    }
    case 'cap':
      return view(node.sub);
    case 'cat': {
      // Groups are spliced so literal runs across them stay visible: `foo(bar)` = foobar.
      const items: ReNode[] = [];
      for (const sub of node.subs) {
        const item = view(sub);
        if (item === null) return null;
        if (item.kind === 'concat') items.push(...item.items);
        else items.push(item);
      }
      return items.length === 1 ? items[0]! : { kind: 'concat', items };
    }
    case 'alt': {
      const branches: ReNode[] = [];
      for (const sub of node.subs) {
        const branch = view(sub);
        if (branch === null) return null;
        branches.push(branch);
      }
      return { kind: 'alt', branches };
    }
    default: {
      const body = view(node.sub);
      // JS refuses a quantified assertion under the u flag.
      if (body === null || body.kind === 'assert') return null;
      const [min, max] = node.op === 'repeat' ? [node.min, node.max < 0 ? Infinity : node.max] : COUNTS[node.op];
      return { kind: 'repeat', body, min, max, lazy: node.lazy };
    }
  }
}
