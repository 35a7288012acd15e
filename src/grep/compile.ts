/**
 * Compiles a parsed pattern to a Thompson NFA program, instruction for instruction the
 * shape re2js builds (same simplification of counted repetition, same split priorities),
 * so that the Pike VM's leftmost-first match is RE2's. Capture groups compile to nothing:
 * only the overall match is reported.
 */

import { BEGIN_LINE, BEGIN_TEXT, END_LINE, END_TEXT, type CharSet, type Node } from './parse.ts';

export const MATCH = 0;
/** Consume one code point in sets[arg], then go to out. */
export const CHAR = 1;
/** Try out, then arg (out has priority). */
export const SPLIT = 2;
/** Go to out. */
export const NOP = 3;
/** Go to out when the assertion bit in arg holds here. */
export const ASSERT = 4;

export interface Program {
  op: Uint8Array;
  out: Int32Array;
  arg: Int32Array;
  start: number;
  /** Distinct character sets, indexed by a CHAR's arg. */
  sets: CharSet[];
  /** Every match starts at offset 0 (a leading \A or ^). */
  anchored: boolean;
  /** Literal text every match starts with (case-sensitive), or ''. */
  prefix: string;
}

export class ProgramTooLarge extends Error {
  constructor(readonly size: number) {
    super(`program of ${size} instructions`);
  }
}

/** Compiles `root`; throws ProgramTooLarge (before building anything) when it would exceed `limit` instructions. */
export function compile(root: Node, limit: number): Program {
  const node = simplify(root);
  const size = sizeOf(node) + 1;
  if (size > limit) throw new ProgramTooLarge(size);
  return new Compiler(size, []).run(node);
}

/** The program for the reversed language of `root`, with the same set numbering as `forward` (so they can share an Alphabet). */
export function compileReversed(root: Node, forward: Program): Program {
  const node = reverse(simplify(root));
  return new Compiler(sizeOf(node) + 1, forward.sets).run(node);
}

/** The program for `part` (a piece of the pattern compile() was given), with forward's set numbering. */
export function compilePart(part: Node, forward: Program): Program {
  const node = simplify(part);
  return new Compiler(sizeOf(node) + 1, forward.sets).run(node);
}

/**
 * Splits the pattern around `literal` where every match holds it at one fixed place: a run
 * of literal characters in the top-level concatenation (groups count as nothing) that
 * contains it. Then a match is (before)(literal)(after), so a line matches when, at some
 * occurrence of the literal, `before` matches backwards from it and `after` forwards.
 * Null when no such place exists (the literal is in an alternation, a repetition, or
 * spans an assertion).
 */
export function splitAround(root: Node, literal: string): { before: Node; after: Node } | null {
  const items = topLevel(root);
  const want = [...literal].map((c) => c.codePointAt(0)!);
  if (want.length === 0) return null;
  for (let i = 0; i + want.length <= items.length; i++) {
    let k = 0;
    while (k < want.length && litOf(items[i + k]!) === want[k]) k++;
    if (k === want.length) {
      return { before: flatCat(items.slice(0, i)), after: flatCat(items.slice(i + want.length)) };
    }
  }
  return null;
}

function topLevel(n: Node): Node[] {
  if (n.op === 'cap') return topLevel(n.sub);
  if (n.op === 'cat') return n.subs.flatMap(topLevel);
  return [n];
}

function litOf(n: Node): number | undefined {
  return n.op === 'char' ? n.set.lit : undefined;
}

const MIRROR: Readonly<Record<number, number>> = { [BEGIN_TEXT]: END_TEXT, [END_TEXT]: BEGIN_TEXT, [BEGIN_LINE]: END_LINE, [END_LINE]: BEGIN_LINE };

/** Matches the reversed strings; ^ and $ trade places (\b and \B read the same both ways). */
function reverse(n: Node): Node {
  switch (n.op) {
    case 'assert':
      return { op: 'assert', kind: MIRROR[n.kind] ?? n.kind };
    case 'cat':
      return { op: 'cat', subs: n.subs.map(reverse).reverse() };
    case 'alt':
      return { op: 'alt', subs: n.subs.map(reverse) };
    case 'cap':
    case 'star':
    case 'plus':
    case 'quest':
    case 'repeat':
      return { ...n, sub: reverse(n.sub) };
    default:
      return n;
  }
}

/** re2js's Simplify: counted repetition expanded, x** collapsed, empty parts dropped. */
function simplify(node: Node): Node {
  switch (node.op) {
    case 'cap':
      return { op: 'cap', sub: simplify(node.sub) };
    case 'cat':
    case 'alt': {
      const subs: Node[] = [];
      for (const s of node.subs.map(simplify)) {
        const last = subs[subs.length - 1];
        if (s.op === node.op) subs.push(...s.subs);
        else if (node.op === 'cat' && s.op === 'empty') continue;
        else if (node.op === 'alt' && last !== undefined && mergeable(last, s)) subs[subs.length - 1] = merge(last, s);
        else subs.push(s);
      }
      return subs.length === 0 ? { op: 'empty' } : subs.length === 1 ? subs[0]! : { op: node.op, subs };
    }
    case 'star':
    case 'plus':
    case 'quest':
      return simplify1(node.op, node.lazy, simplify(node.sub));
    case 'repeat':
      return node.min === 0 && node.max === 0 ? { op: 'empty' } : expand(simplify(node.sub), node.min, node.max, node.lazy);
    default:
      return node;
  }
}

// Like RE2, a|b|[cd] becomes one set [abcd]: one instruction instead of five, and the same
// matches (each branch takes one code point and goes on the same way).
function mergeable(a: Node, b: Node): boolean {
  return a.op === 'char' && b.op === 'char' && plain(a.set) && plain(b.set) && a.set.fold === b.set.fold;
}

function plain(set: CharSet): boolean {
  return !set.negated && set.negs.length === 0 && set.pos !== '';
}

function merge(a: Node, b: Node): Node {
  if (a.op !== 'char' || b.op !== 'char') return a;
  return { op: 'char', set: { pos: a.set.pos + b.set.pos, negs: [], negated: false, fold: a.set.fold } };
}

function simplify1(op: 'star' | 'plus' | 'quest', lazy: boolean, sub: Node): Node {
  if (sub.op === 'empty') return sub;
  if (sub.op === op && sub.lazy === lazy) return sub;
  return { op, sub, lazy };
}

/** x{n,m} as n copies of x then m-n nested optional copies: x{2,4} = xx(x(x)?)? (shared subtrees, no copying). */
function expand(sub: Node, min: number, max: number, lazy: boolean): Node {
  if (max === -1) {
    if (min === 0) return simplify1('star', lazy, sub);
    const plus = simplify1('plus', lazy, sub);
    return min === 1 ? plus : flatCat([...Array<Node>(min - 1).fill(sub), plus]);
  }
  if (min === 1 && max === 1) return sub;
  const prefix = Array<Node>(min).fill(sub);
  if (max > min) {
    let suffix = simplify1('quest', lazy, sub);
    for (let i = min + 1; i < max; i++) suffix = simplify1('quest', lazy, flatCat([sub, suffix]));
    prefix.push(suffix);
  }
  return flatCat(prefix);
}

function flatCat(items: Node[]): Node {
  const subs = items.flatMap((n) => (n.op === 'cat' ? n.subs : n.op === 'empty' ? [] : [n]));
  return subs.length === 0 ? { op: 'empty' } : subs.length === 1 ? subs[0]! : { op: 'cat', subs };
}

/** Instructions compile() will emit for a simplified node (star of a nullable body is (x+)?: one more). */
function sizeOf(n: Node): number {
  switch (n.op) {
    case 'empty':
    case 'char':
    case 'assert':
      return 1;
    case 'cap':
      return sizeOf(n.sub);
    case 'cat':
      return n.subs.reduce((sum, s) => sum + sizeOf(s), 0);
    case 'alt':
      return n.subs.reduce((sum, s) => sum + sizeOf(s), n.subs.length - 1);
    case 'star':
      return sizeOf(n.sub) + (nullable(n.sub) ? 2 : 1);
    default:
      return sizeOf(n.sub) + 1;
  }
}

/** Can match the empty string (as re2js's compiler tracks it). */
function nullable(n: Node): boolean {
  switch (n.op) {
    case 'char':
      return false;
    case 'cat':
      return n.subs.every(nullable);
    case 'alt':
      return n.subs.some(nullable);
    case 'cap':
    case 'plus':
      return nullable(n.sub);
    case 'repeat':
      return n.min === 0 || nullable(n.sub);
    default:
      return true;
  }
}

/** A compiled piece: its entry, and the dangling exits to patch (instruction * 2 + 1 for arg, * 2 for out). */
interface Frag {
  start: number;
  exits: number[];
  nullable: boolean;
}

class Compiler {
  private readonly op: Uint8Array;
  private readonly out: Int32Array;
  private readonly arg: Int32Array;
  private n = 0;
  private readonly sets: CharSet[] = [];
  private readonly setIds = new Map<string, number>();

  constructor(size: number, sets: readonly CharSet[]) {
    this.op = new Uint8Array(size);
    this.out = new Int32Array(size);
    this.arg = new Int32Array(size);
    for (const set of sets) this.setId(set);
  }

  run(root: Node): Program {
    const f = this.frag(root);
    const match = this.inst(MATCH, 0);
    this.patch(f.exits, match);
    return { op: this.op, out: this.out, arg: this.arg, start: f.start, sets: this.sets, anchored: startsWithBeginText(root), prefix: literalPrefix(root) };
  }

  private inst(op: number, arg: number): number {
    this.op[this.n] = op;
    this.arg[this.n] = arg;
    return this.n++;
  }

  private patch(exits: number[], to: number): void {
    for (const e of exits) (e & 1 ? this.arg : this.out)[e >> 1] = to;
  }

  private frag(n: Node): Frag {
    switch (n.op) {
      case 'empty': {
        const i = this.inst(NOP, 0);
        return { start: i, exits: [i * 2], nullable: true };
      }
      case 'char': {
        const i = this.inst(CHAR, this.setId(n.set));
        return { start: i, exits: [i * 2], nullable: false };
      }
      case 'assert': {
        const i = this.inst(ASSERT, n.kind);
        return { start: i, exits: [i * 2], nullable: true };
      }
      case 'cap':
        return this.frag(n.sub);
      case 'cat': {
        let f = this.frag(n.subs[0]!);
        for (const s of n.subs.slice(1)) {
          const g = this.frag(s);
          this.patch(f.exits, g.start);
          f = { start: f.start, exits: g.exits, nullable: f.nullable && g.nullable };
        }
        return f;
      }
      case 'alt': {
        let f = this.frag(n.subs[0]!);
        const exits = [...f.exits]; // appended in place: an alternation of thousands of names stays linear
        for (const s of n.subs.slice(1)) {
          const g = this.frag(s);
          const i = this.inst(SPLIT, g.start);
          this.out[i] = f.start;
          for (const e of g.exits) exits.push(e);
          f = { start: i, exits, nullable: f.nullable || g.nullable };
        }
        return f;
      }
      case 'star': {
        const body = this.frag(n.sub);
        // A loop around a body that can match empty would give RE2 the wrong priorities: (x+)?.
        return body.nullable ? this.quest(this.plus(body, n.lazy), n.lazy) : this.loop(body, n.lazy);
      }
      case 'plus':
        return this.plus(this.frag(n.sub), n.lazy);
      case 'quest':
        return this.quest(this.frag(n.sub), n.lazy);
      case 'repeat':
        throw new Error('unreachable: repeat is expanded by simplify');
    }
  }

  private split(to: number, lazy: boolean): { i: number; exit: number } {
    const i = this.inst(SPLIT, 0);
    if (lazy) this.arg[i] = to;
    else this.out[i] = to;
    return { i, exit: lazy ? i * 2 : i * 2 + 1 };
  }

  private loop(body: Frag, lazy: boolean): Frag {
    const s = this.split(body.start, lazy);
    this.patch(body.exits, s.i);
    return { start: s.i, exits: [s.exit], nullable: true };
  }

  private plus(body: Frag, lazy: boolean): Frag {
    return { start: body.start, exits: this.loop(body, lazy).exits, nullable: body.nullable };
  }

  private quest(body: Frag, lazy: boolean): Frag {
    const s = this.split(body.start, lazy);
    return { start: s.i, exits: [s.exit, ...body.exits], nullable: true };
  }

  private setId(set: CharSet): number {
    const key = `${set.fold ? 'i' : ''}${set.negated ? '^' : ''}[${set.pos}]${set.negs.join('][')}`;
    let id = this.setIds.get(key);
    if (id === undefined) {
      id = this.sets.length;
      this.sets.push(set);
      this.setIds.set(key, id);
    }
    return id;
  }
}

function literalPrefix(n: Node): string {
  while (n.op === 'cap') n = n.sub;
  if (n.op === 'char') return n.set.lit === undefined ? '' : String.fromCodePoint(n.set.lit);
  if (n.op !== 'cat') return '';
  let prefix = '';
  for (const item of n.subs) {
    const p = literalPrefix(item);
    prefix += p;
    if (p === '' || item.op !== 'char') break; // a group's prefix ends the run
  }
  return prefix;
}

function startsWithBeginText(n: Node): boolean {
  while (n.op === 'cap' || n.op === 'cat') n = n.op === 'cap' ? n.sub : n.subs[0]!;
  return n.op === 'assert' && n.kind === BEGIN_TEXT;
}
