/**
 * What the matcher needs to know about a parsed pattern: is it a plain literal, which
 * literals must every match contain, how wide can a match be, and how badly can a
 * backtracking engine blow up on it.
 */

import type { ReNode } from './syntax.ts';

/** The text the pattern matches when it is nothing but literal characters, else null. */
export function literalText(root: ReNode): string | null {
  const items = root.kind === 'concat' ? root.items : [root];
  if (items.length === 0 || !items.every((n) => n.kind === 'char')) return null;
  return items.map((n) => String.fromCodePoint(n.kind === 'char' ? n.cp : 0)).join('');
}

/** The characters every match starts with (after zero-width assertions), or ''. */
export function literalPrefix(root: ReNode): string {
  let prefix = '';
  for (const node of root.kind === 'concat' ? root.items : [root]) {
    if (node.kind === 'char') prefix += String.fromCodePoint(node.cp);
    else if (node.kind !== 'assert' || prefix !== '') break;
  }
  return prefix;
}

/**
 * Literal strings that every match contains, from the top-level concatenation only:
 * optional parts and alternations contribute nothing (`foo|bar` has none), so the list
 * is a necessary condition, never a complete one. Longest first, none inside another.
 */
export function requiredLiterals(root: ReNode): string[] {
  const found: string[] = [];
  let run = '';
  const flush = (): void => {
    if (run !== '') found.push(run);
    run = '';
  };
  for (const node of root.kind === 'concat' ? root.items : [root]) {
    if (node.kind === 'char') run += String.fromCodePoint(node.cp);
    else if (node.kind === 'assert')
      continue; // zero-width: the characters around it stay adjacent
    else if (node.kind === 'repeat' && node.body.kind === 'char' && node.min > 0) {
      // `ab+c` always contains "ab" and "bc": the run breaks, then restarts with the repeated char.
      // Long fixed counts are cut to 64 characters, which also breaks the run.
      const repeated = String.fromCodePoint(node.body.cp).repeat(Math.min(node.min, 64));
      run += repeated;
      if (node.max !== node.min || node.min > 64) {
        flush();
        run = repeated;
      }
    } else flush();
  }
  flush();
  const unique = [...new Set(found)].sort((a, b) => b.length - a.length);
  return unique.filter((lit, i) => !unique.slice(0, i).some((longer) => longer.includes(lit)));
}

/**
 * Worst-case work of a backtracking engine on a line of n characters is about
 * `paths * n ** degree` steps, or null when no polynomial bound is known (a quantified
 * group holding a quantifier or an alternation, like `(a+)+` or `(a|a)*`).
 * `degree` counts the start positions tried (unless anchored by `^`) and each unbounded
 * quantifier that can be backtracked into; `paths` multiplies the choices of bounded
 * quantifiers and alternations.
 */
export function backtrackCost(root: ReNode): { paths: number; degree: number } | null {
  const cost = nodeCost(root, true);
  if (cost === null) return null;
  const first = root.kind === 'concat' ? root.items[0] : root;
  const anchored = first?.kind === 'assert' && first.js === '^';
  return { paths: cost.paths, degree: cost.degree + (anchored ? 0 : 1) };
}

type Cost = { paths: number; degree: number } | null;

/** `tail`: nothing follows this node, so a greedy or lazy quantifier here never has to give characters back. */
function nodeCost(node: ReNode, tail: boolean): Cost {
  switch (node.kind) {
    case 'char':
    case 'set':
    case 'assert':
      return { paths: 1, degree: 0 };
    case 'concat': {
      let paths = 1;
      let degree = 0;
      for (let i = 0; i < node.items.length; i++) {
        const c = nodeCost(node.items[i]!, tail && i === node.items.length - 1);
        if (c === null) return null;
        paths *= c.paths;
        degree += c.degree;
      }
      return { paths, degree };
    }
    case 'alt': {
      let paths = 0;
      let degree = 0;
      for (const branch of node.branches) {
        const c = nodeCost(branch, tail);
        if (c === null) return null;
        paths += c.paths;
        degree = Math.max(degree, c.degree);
      }
      return { paths, degree };
    }
    case 'repeat':
      return repeatCost(node, tail);
  }
}

function repeatCost(node: Extract<ReNode, { kind: 'repeat' }>, tail: boolean): Cost {
  if (isSimpleBody(node.body)) {
    // Each iteration consumes a fixed number of characters, so the only choice is how many.
    if (tail) return { paths: 1, degree: 0 };
    return node.max === Infinity ? { paths: 1, degree: 1 } : { paths: node.max - node.min + 1, degree: 0 };
  }
  // Star height 2: only a bounded repeat of a body without unbounded quantifiers has a known bound.
  // A body that can match empty is left to the linear engine too: JS and RE2 treat empty iterations differently.
  if (node.max === Infinity || minWidth(node.body) === 0) return null;
  const body = nodeCost(node.body, false);
  if (body === null || body.degree > 0) return null;
  return { paths: body.paths ** node.max * (node.max - node.min + 1), degree: 0 };
}

/** A fixed-width body of at least one character, with no quantifier or alternation. */
function isSimpleBody(body: ReNode): boolean {
  if (body.kind === 'char' || body.kind === 'set') return true;
  if (body.kind !== 'concat') return false;
  return body.items.every((n) => n.kind === 'char' || n.kind === 'set' || n.kind === 'assert') && body.items.some((n) => n.kind !== 'assert');
}

/** Fewest characters a match can have. */
export function minWidth(node: ReNode): number {
  switch (node.kind) {
    case 'char':
    case 'set':
      return 1;
    case 'assert':
      return 0;
    case 'concat':
      return node.items.reduce((sum, n) => sum + minWidth(n), 0);
    case 'alt':
      return Math.min(...node.branches.map(minWidth));
    case 'repeat':
      return node.min * minWidth(node.body);
  }
}

/** Most UTF-16 units a match can span (Infinity when unbounded); a set may match a surrogate pair. */
export function maxWidth(node: ReNode): number {
  switch (node.kind) {
    case 'char':
      return node.cp > 0xffff ? 2 : 1;
    case 'set':
      return 2;
    case 'assert':
      return 0;
    case 'concat':
      return node.items.reduce((sum, n) => sum + maxWidth(n), 0);
    case 'alt':
      return Math.max(0, ...node.branches.map(maxWidth));
    case 'repeat': {
      const body = maxWidth(node.body);
      return node.max === 0 || body === 0 ? 0 : node.max * body;
    }
  }
}
