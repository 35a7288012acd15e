/**
 * A lazily built DFA that answers "does the line match?" with one table lookup per code
 * point once warm. A state is the set of NFA instructions waiting to be followed (not yet
 * expanded) plus the properties of the previous code point; the expansion happens on the
 * next transition, when the next code point is known, which is what \b, ^ and $ need.
 * Transitions are computed on first use and cached in a table bounded to about 4 MB;
 * when full it is cleared and refilled, so the worst case is the Pike VM's cost per
 * code point (still linear), never unbounded memory.
 */

import type { Alphabet } from './alphabet.ts';
import { ByteNeedle } from './byte-needle.ts';
import { ASSERT, CHAR, MATCH, NOP, SPLIT, type Program } from './compile.ts';
import { codePointBefore, contextOf, EDGE } from './context.ts';
import { INVALID, utf8At, utf8Before } from './utf8.ts';

/**
 * Table entries: -1 not computed yet, else (next state << 1) | (1 when a match ends just
 * before the code point). State 0 is dead: no match can follow.
 */
const DEAD = 0;
const EMPTY = new Int32Array(0);
const TABLE_ENTRIES = 1 << 20;

/** matchEnd's answer when it was told to stop before it knew. */
export const UNDECIDED = -2;

export class Dfa {
  private stride = 0;
  private maxStates = 0;
  private table = new Int32Array(0);
  /** Per state: the waiting instructions and the previous code point's props. */
  private pcs: Int32Array[] = [];
  private props: number[] = [];
  /** Per state: does a match end here at the end of the text? 0 unknown, 1 no, 2 yes. */
  private atEnd = new Int8Array(0);
  private ids = new Map<string, number>();
  private start = 0;
  // Scratch for expanding a state.
  private readonly seen: Uint32Array;
  private readonly stack: Int32Array;
  private readonly list: Int32Array;
  private mark = 0;

  /** Follow matches from one start instead of searching (`first` or `anchored`). */
  private readonly anchoredScan: boolean;
  /** Leftmost-first priorities (mode `first`). */
  private readonly first: boolean;

  /**
   * Modes: `search` finds a match anywhere. `anchored` only follows matches that start
   * where the scan starts. `first` is anchored with RE2's leftmost-first priorities: a
   * state is an ordered list, and reaching a match drops every lower-priority thread (as
   * the Pike VM does), so the last match seen before the state dies is the leftmost-first
   * match's end.
   */
  constructor(
    private readonly prog: Program,
    private readonly alpha: Alphabet,
    mode: 'search' | 'anchored' | 'first' = 'search',
  ) {
    this.anchoredScan = mode !== 'search';
    this.first = mode === 'first';
    const n = prog.op.length;
    this.seen = new Uint32Array(n);
    this.stack = new Int32Array(2 * n + 2); // the waiting instructions, then one per split
    this.list = new Int32Array(n);
    this.reset();
  }

  test(line: string): boolean {
    const len = line.length;
    const ascii = this.alpha.ascii;
    // Locals, reloaded only after step() (which may grow or reset the table): V8 keeps them in registers.
    let table = this.table;
    let stride = this.stride;
    let s = this.start;
    const prefix = this.anchoredScan ? '' : this.prog.prefix;
    for (let i = 0; i < len; ) {
      if (prefix !== '' && this.pcs[s]!.length === 0) {
        // No thread alive: the next match can only start at the next occurrence of the prefix.
        const j = line.indexOf(prefix, i);
        if (j < 0) return false;
        if (j > i) {
          s = this.startAfter(this.alpha.flags[this.alpha.classOf(codePointBefore(line, j))]!);
          i = j;
          table = this.table;
          stride = this.stride;
        }
      }
      let cls = line.charCodeAt(i);
      if (cls < 128) {
        cls = ascii[cls]!;
        i++;
      } else {
        const cp = line.codePointAt(i)!;
        cls = this.alpha.classOf(cp);
        i += cp > 0xffff ? 2 : 1;
      }
      let t = cls < stride ? table[s * stride + cls]! : -1;
      if (t < 0) {
        t = this.step(s, cls);
        table = this.table;
        stride = this.stride;
      }
      if ((t & 1) === 1) return true;
      s = t >> 1;
      if (s === DEAD) return false;
    }
    return this.matchesAtEnd(s);
  }

  /**
   * test() on the UTF-8 bytes b[start, end) of a line, without decoding them (a long line
   * that holds the required literals but does not match costs no decoding): 1 when it
   * matches, 0 when not, INVALID when it had to read bytes that are not well-formed UTF-8
   * (decode them and call test()). The same loop as test(), over code points read from bytes.
   */
  testUtf8(b: Uint8Array, start: number, end: number): number {
    const ascii = this.alpha.ascii;
    let table = this.table;
    let stride = this.stride;
    let s = this.start;
    const prefix = this.anchoredScan ? null : (this.prefixBytes ??= ByteNeedle.for(this.prog.prefix, false));
    for (let i = start; i < end; ) {
      if (prefix !== null && this.pcs[s]!.length === 0) {
        const j = prefix.indexIn(b, i, end);
        if (j < 0) return 0;
        if (j > i) {
          const before = utf8Before(b, start, j);
          if (before === INVALID) return INVALID;
          s = this.startAfter(this.alpha.flags[this.alpha.classOf(before)]!);
          i = j;
          table = this.table;
          stride = this.stride;
        }
      }
      let cls = b[i]!;
      if (cls < 128) {
        cls = ascii[cls]!;
        i++;
      } else {
        const read = utf8At(b, i, end);
        if (read === INVALID) return INVALID;
        cls = this.alpha.classOf(read >> 3);
        i += read & 7;
      }
      let t = cls < stride ? table[s * stride + cls]! : -1;
      if (t < 0) {
        t = this.step(s, cls);
        table = this.table;
        stride = this.stride;
      }
      if ((t & 1) === 1) return 1;
      s = t >> 1;
      if (s === DEAD) return 0;
    }
    return this.matchesAtEnd(s) ? 1 : 0;
  }

  /** prog.prefix as bytes, for testUtf8 (null: no prefix, or one bytes cannot stand for). */
  private prefixBytes: ByteNeedle | null | undefined;

  /**
   * For the reversed program: scans `line` backwards from its end down to `from` and
   * returns the smallest offset where the reversed pattern matches, which is where the
   * leftmost match of the forward pattern starts; -1 when none starts at or after `from`.
   */
  leftmostStart(line: string, from: number): number {
    let s = this.start;
    let best = -1;
    for (let i = line.length; i > from; ) {
      let cp = line.charCodeAt(i - 1);
      if (cp >= 0xdc00 && cp <= 0xdfff) cp = codePointBefore(line, i);
      const cls = this.alpha.classOf(cp);
      let t = cls < this.stride ? this.table[s * this.stride + cls]! : -1;
      if (t < 0) t = this.step(s, cls);
      if ((t & 1) === 1) best = i;
      s = t >> 1;
      if (s === DEAD) return best;
      i -= cp > 0xffff ? 2 : 1;
    }
    if (from === 0) return this.matchesAtEnd(s) ? 0 : best;
    const cls = this.alpha.classOf(codePointBefore(line, from));
    return (this.expand(s, contextOf(this.props[s]!, this.alpha.flags[cls]!)) & 1) === 1 ? from : best;
  }

  /** Where the last matchEnd stopped reading. */
  stoppedAt = 0;

  /**
   * For a `first` DFA: where the leftmost-first match starting at `start` ends, or -1 if
   * none starts there; UNDECIDED when it would have to read past `stop` to know.
   */
  matchEnd(line: string, start: number, stop = line.length): number {
    const len = line.length;
    const before = start === 0 ? EDGE : this.alpha.flags[this.alpha.classOf(codePointBefore(line, start))]!;
    let s = this.startAfter(before);
    let end = -1;
    for (let i = start; i < len; ) {
      const cp = line.codePointAt(i)!;
      const cls = cp < 128 ? this.alpha.ascii[cp]! : this.alpha.classOf(cp);
      let t = cls < this.stride ? this.table[s * this.stride + cls]! : -1;
      if (t < 0) t = this.step(s, cls);
      if ((t & 1) === 1) end = i;
      s = t >> 1;
      if (s === DEAD) {
        this.stoppedAt = i;
        return end;
      }
      i += cp > 0xffff ? 2 : 1;
      if (i >= stop && i < len) {
        this.stoppedAt = i;
        return UNDECIDED;
      }
    }
    this.stoppedAt = len;
    return this.matchesAtEnd(s) ? len : end;
  }

  /**
   * The state a scan starts in after a code point with these props: no thread alive for a
   * search (where test() restarts at each prefix occurrence), the program's start for an
   * anchored scan. Cached per props: a long minified line has thousands of such restarts.
   */
  private startAfter(props: number): number {
    let s = this.starts[props];
    if (s === undefined) this.starts[props] = s = this.internOrReset(this.anchoredScan ? Int32Array.of(this.prog.start) : EMPTY, props);
    return s;
  }

  /** startAfter()'s states by props; emptied with the state cache. */
  private starts: number[] = [];

  /** Bytes the last matchesAfterUtf8 or matchesBeforeUtf8 read. */
  scanned = 0;

  /**
   * For an anchored DFA: does a match start at b[from] and end by `end` (the line's end)?
   * `before`: the props of the code point before `from`. 1, 0, or INVALID when it had to
   * read bytes that are not well-formed UTF-8.
   */
  matchesAfterUtf8(b: Uint8Array, from: number, end: number, before: number): number {
    const ascii = this.alpha.ascii;
    let s = this.startAfter(before);
    for (let i = from; i < end; ) {
      let cls = b[i]!;
      let len = 1;
      if (cls < 128) cls = ascii[cls]!;
      else {
        const read = utf8At(b, i, end);
        if (read === INVALID) return this.stop(i - from, INVALID);
        cls = this.alpha.classOf(read >> 3);
        len = read & 7;
      }
      let t = cls < this.stride ? this.table[s * this.stride + cls]! : -1;
      if (t < 0) t = this.step(s, cls);
      if ((t & 1) === 1) return this.stop(i - from, 1);
      i += len;
      s = t >> 1;
      if (s === DEAD) return this.stop(i - from, 0);
    }
    return this.stop(end - from, this.matchesAtEnd(s) ? 1 : 0);
  }

  /**
   * For an anchored DFA of a reversed program: does a match of it start at b[from] reading
   * backwards, and end by `start` (the line's start)? `after`: the props of the code point
   * at `from`. 1, 0 or INVALID, as matchesAfterUtf8.
   */
  matchesBeforeUtf8(b: Uint8Array, from: number, start: number, after: number): number {
    const ascii = this.alpha.ascii;
    let s = this.startAfter(after);
    for (let i = from; i > start; ) {
      let cls = b[i - 1]!;
      if (cls < 128) {
        cls = ascii[cls]!;
        i--;
      } else {
        const cp = utf8Before(b, start, i);
        if (cp === INVALID) return this.stop(from - i, INVALID);
        cls = this.alpha.classOf(cp);
        i -= cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      }
      let t = cls < this.stride ? this.table[s * this.stride + cls]! : -1;
      if (t < 0) t = this.step(s, cls);
      if ((t & 1) === 1) return this.stop(from - i, 1);
      s = t >> 1;
      if (s === DEAD) return this.stop(from - i, 0);
    }
    return this.stop(from - start, this.matchesAtEnd(s) ? 1 : 0);
  }

  private stop(scanned: number, answer: number): number {
    this.scanned = scanned;
    return answer;
  }

  private reset(): void {
    this.starts = [];
    this.stride = 1 << Math.ceil(Math.log2(Math.max(16, this.alpha.count)));
    this.maxStates = Math.max(16, Math.floor(TABLE_ENTRIES / this.stride));
    this.table = new Int32Array(this.stride * 16);
    this.atEnd = new Int8Array(16);
    this.table.fill(-1);
    this.pcs = [new Int32Array(0)]; // the dead state, never expanded
    this.props = [0];
    this.ids.clear();
    this.start = this.intern(new Int32Array(0), EDGE);
  }

  /** Room for `states` states (the table starts small: most patterns need a few dozen). */
  private grow(states: number): void {
    const table = new Int32Array(this.stride * states);
    const atEnd = new Int8Array(states);
    table.set(this.table);
    table.fill(-1, this.table.length);
    atEnd.set(this.atEnd);
    this.table = table;
    this.atEnd = atEnd;
  }

  /** intern(), clearing the cache first when it is full (no state id may be held across this). */
  private internOrReset(pcs: Int32Array, props: number): number {
    if (this.pcs.length >= this.maxStates) this.reset();
    return this.intern(pcs, props);
  }

  private intern(pcs: Int32Array, props: number): number {
    const key = `${props}:${pcs.join(',')}`;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.pcs.length;
      if (id >= this.atEnd.length) this.grow(Math.min(this.maxStates, id * 2));
      this.pcs.push(pcs);
      this.props.push(props);
      this.ids.set(key, id);
    }
    return id;
  }

  /** Computes, caches and returns the transition of state `s` on class `cls`. */
  private step(s: number, cls: number): number {
    const flags = this.alpha.flags[cls]!;
    const expanded = this.expand(s, contextOf(this.props[s]!, flags));
    const matched = expanded & 1;
    const { op, out, arg } = this.prog;
    const member = this.alpha.member[cls]!;
    const next: number[] = [];
    for (let i = 0; i < expanded >> 1; i++) {
      const pc = this.list[i]!;
      if (op[pc] === CHAR && member[arg[pc]!] === 1) next.push(out[pc]!);
    }
    if (next.length === 0 && (this.prog.anchored || this.anchoredScan)) return this.store(s, cls, (DEAD << 1) | matched);
    // A search only asks "any match?", so order does not matter and sorting merges states.
    const pcs = this.first ? Int32Array.from(new Set(next)) : Int32Array.from(new Set(next)).sort();
    if (cls >= this.stride || this.pcs.length >= this.maxStates) {
      this.reset(); // s is gone; the caller only needs the new state
      return (this.intern(pcs, flags) << 1) | matched;
    }
    return this.store(s, cls, (this.intern(pcs, flags) << 1) | matched);
  }

  private store(s: number, cls: number, t: number): number {
    if (cls < this.stride) this.table[s * this.stride + cls] = t;
    return t;
  }

  private matchesAtEnd(s: number): boolean {
    if (this.atEnd[s] === 0) this.atEnd[s] = (this.expand(s, contextOf(this.props[s]!, EDGE)) & 1) === 1 ? 2 : 1;
    return this.atEnd[s] === 2;
  }

  /**
   * Follows every empty transition from state `s` (and from the program start, for an
   * unanchored search) under assertion context `ctx`, into this.list; returns
   * (how many << 1) | (1 when a match is reachable).
   */
  private expand(s: number, ctx: number): number {
    const { op, out, arg } = this.prog;
    const { seen, stack, list } = this;
    const mark = ++this.mark;
    if (mark === 0xffffffff) {
      seen.fill(0);
      this.mark = 1;
    }
    const m = this.mark;
    let n = 0;
    let matched = 0;
    let top = 0;
    const pcs = this.pcs[s]!;
    if (!this.anchoredScan && (!this.prog.anchored || (this.props[s]! & EDGE) !== 0)) stack[top++] = this.prog.start;
    for (let i = pcs.length - 1; i >= 0; i--) stack[top++] = pcs[i]!;
    while (top > 0) {
      let pc = stack[--top]!;
      while (seen[pc] !== m) {
        seen[pc] = m;
        const o = op[pc];
        if (o === MATCH) {
          matched = 1;
          if (this.first) top = 0; // leftmost-first: threads after this one lose
          break;
        }
        if (o === SPLIT) {
          stack[top++] = arg[pc]!;
          pc = out[pc]!;
        } else if (o === NOP || (o === ASSERT && (ctx & arg[pc]!) !== 0)) pc = out[pc]!;
        else {
          if (o === CHAR) list[n++] = pc;
          break;
        }
      }
    }
    return (n << 1) | matched;
  }
}
