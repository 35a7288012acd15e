/**
 * A lazily built DFA that answers "does the line match?" with one table lookup per code
 * point once warm. A state is the set of NFA instructions waiting to be followed (not yet
 * expanded) plus the properties of the previous code point; the expansion happens on the
 * next transition, when the next code point is known, which is what \b, ^ and $ need.
 * Transitions are computed on first use and cached: the table is bounded to 4 MiB and the
 * states' instruction lists to another 4 MiB. When the cache is full it is cleared and
 * refilled; when a scan fills it again within 10 code points per state (RE2's rule: the
 * states are not being reused), the rest of that scan runs as an NFA simulation (a Pike VM
 * without captures) that keeps no states, so memory stays bounded and the cost per code
 * point is the number of live threads, never the cost of building and hashing states.
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
/** The NFA simulation's two alternating states: never interned, their table rows stay -1. */
const SLOT_A = 1;
const SLOT_B = 2;
const EMPTY = new Int32Array(0);
const TABLE_ENTRIES = 1 << 20;
/** Budget for the states' instruction lists, counted as STATE_COST + PC_COST per instruction. */
const STATE_BYTES = 4 << 20;
// An Int32Array entry, and its share of the lookup key (digits and a comma).
const PC_COST = 12;
// Per state: the arrays' headers, the key string and the Map entry.
const STATE_COST = 120;
/** RE2 gives up on its DFA when a search refills the cache at under 10 bytes per state. */
const MIN_PROGRESS_PER_STATE = 10;

/**
 * The expansion scratch, sized for a program of `size` instructions. The DFAs of one
 * pattern share it: an expansion is used up before any other DFA runs, and the NFA
 * simulation's lists only live for one scan, which ends before another DFA's begins.
 */
export class Scratch {
  readonly seen: Uint32Array;
  readonly stack: Int32Array;
  readonly list: Int32Array;
  mark = 0;
  private lists: Int32Array | undefined;
  constructor(readonly size: number) {
    this.seen = new Uint32Array(size);
    this.stack = new Int32Array(2 * size + 2); // the waiting instructions, then one per split
    this.list = new Int32Array(size);
  }

  /** SLOT_A's and SLOT_B's thread lists (a list holds at most one entry per instruction). */
  slot(slot: number): Int32Array {
    const half = this.size;
    this.lists ??= new Int32Array(2 * half); // only a scan that gave up on its cache needs them
    return this.lists.subarray(slot === SLOT_A ? 0 : half, slot === SLOT_A ? half : 2 * half);
  }
}

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
  /** STATE_COST + PC_COST per instruction of every interned state. */
  private stateBytes = 0;
  private readonly scratch: Scratch;
  /** Where the current scan last cleared the cache (any monotone position), -1 if it has not. */
  private resetAt = -1;
  /** The current scan runs as an NFA simulation through SLOT_A and SLOT_B. */
  private nfa = false;

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
    scratch?: Scratch,
  ) {
    this.anchoredScan = mode !== 'search';
    this.first = mode === 'first';
    const n = prog.op.length;
    this.scratch = scratch !== undefined && scratch.size >= n ? scratch : new Scratch(n);
    this.reset();
  }

  /** How many scans gave up on the cache and finished as an NFA simulation (for tests and measurements). */
  nfaScans = 0;

  /** Every scan starts as a DFA (RE2 decides per search too). */
  private begin(): void {
    this.nfa = false;
    this.resetAt = -1;
  }

  test(line: string): boolean {
    this.begin();
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
        t = this.step(s, cls, i);
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
    this.begin();
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
        t = this.step(s, cls, i);
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
    this.begin();
    let s = this.start;
    let best = -1;
    for (let i = line.length; i > from; ) {
      let cp = line.charCodeAt(i - 1);
      if (cp >= 0xdc00 && cp <= 0xdfff) cp = codePointBefore(line, i);
      const cls = this.alpha.classOf(cp);
      let t = cls < this.stride ? this.table[s * this.stride + cls]! : -1;
      if (t < 0) t = this.step(s, cls, i);
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
    this.begin();
    const len = line.length;
    const before = start === 0 ? EDGE : this.alpha.flags[this.alpha.classOf(codePointBefore(line, start))]!;
    let s = this.startAfter(before);
    let end = -1;
    for (let i = start; i < len; ) {
      const cp = line.codePointAt(i)!;
      const cls = cp < 128 ? this.alpha.ascii[cp]! : this.alpha.classOf(cp);
      let t = cls < this.stride ? this.table[s * this.stride + cls]! : -1;
      if (t < 0) t = this.step(s, cls, i);
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
    this.begin();
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
      if (t < 0) t = this.step(s, cls, i);
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
    this.begin();
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
      if (t < 0) t = this.step(s, cls, i);
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
    this.pcs = [EMPTY, EMPTY, EMPTY]; // the dead state (never expanded), SLOT_A, SLOT_B
    this.props = [0, 0, 0];
    this.stateBytes = 0;
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
    if (this.full()) this.reset();
    return this.intern(pcs, props);
  }

  private full(): boolean {
    return this.pcs.length >= this.maxStates || this.stateBytes >= STATE_BYTES;
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
      this.stateBytes += STATE_COST + PC_COST * pcs.length;
    }
    return id;
  }

  /**
   * Computes, caches and returns the transition of state `s` on class `cls`; `at` is the
   * scan's position (for telling a thrashing cache from one that is merely full).
   */
  private step(s: number, cls: number, at: number): number {
    const flags = this.alpha.flags[cls]!;
    const expanded = this.expand(s, contextOf(this.props[s]!, flags));
    const matched = expanded & 1;
    const dies = this.prog.anchored || this.anchoredScan;
    if (!this.nfa && (cls >= this.stride || this.full())) {
      if (this.resetAt >= 0 && Math.abs(at - this.resetAt) < MIN_PROGRESS_PER_STATE * this.pcs.length) {
        this.nfa = true;
        this.nfaScans++;
      } else {
        const pcs = this.follow(expanded >> 1, cls);
        if (pcs.length === 0 && dies) return (DEAD << 1) | matched;
        this.reset(); // s is gone; the caller only needs the new state
        this.resetAt = at;
        return (this.intern(pcs, flags) << 1) | matched;
      }
    }
    if (this.nfa) return this.simulate(s, expanded, cls, flags, dies);
    const pcs = this.follow(expanded >> 1, cls);
    if (pcs.length === 0 && dies) return this.store(s, cls, (DEAD << 1) | matched);
    return this.store(s, cls, (this.intern(pcs, flags) << 1) | matched);
  }

  /** The instructions the `count` expanded threads go to on class `cls`, as a state's list. */
  private follow(count: number, cls: number): Int32Array {
    const { op, out, arg } = this.prog;
    const list = this.scratch.list;
    const member = this.alpha.member[cls]!;
    const next: number[] = [];
    for (let i = 0; i < count; i++) {
      const pc = list[i]!;
      if (op[pc] === CHAR && member[arg[pc]!] === 1) next.push(out[pc]!);
    }
    // A search only asks "any match?", so order does not matter and sorting merges states.
    return this.first ? Int32Array.from(new Set(next)) : Int32Array.from(new Set(next)).sort();
  }

  /**
   * One step of the NFA simulation: the threads go into the slot `s` is not, nothing is
   * cached. A list may repeat an instruction; expand() follows it once.
   */
  private simulate(s: number, expanded: number, cls: number, flags: number, dies: boolean): number {
    const slot = s === SLOT_A ? SLOT_B : SLOT_A;
    const buf = this.scratch.slot(slot);
    const { op, out, arg } = this.prog;
    const list = this.scratch.list;
    const member = this.alpha.member[cls]!;
    let k = 0;
    for (let i = 0; i < expanded >> 1; i++) {
      const pc = list[i]!;
      if (op[pc] === CHAR && member[arg[pc]!] === 1) buf[k++] = out[pc]!;
    }
    const matched = expanded & 1;
    if (k === 0 && dies) return (DEAD << 1) | matched;
    this.pcs[slot] = buf.subarray(0, k);
    this.props[slot] = flags;
    return (slot << 1) | matched;
  }

  private store(s: number, cls: number, t: number): number {
    if (cls < this.stride) this.table[s * this.stride + cls] = t;
    return t;
  }

  private matchesAtEnd(s: number): boolean {
    if (s === SLOT_A || s === SLOT_B) return (this.expand(s, contextOf(this.props[s]!, EDGE)) & 1) === 1;
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
    const scratch = this.scratch;
    const { seen, stack, list } = scratch;
    const mark = ++scratch.mark;
    if (mark === 0xffffffff) {
      seen.fill(0);
      scratch.mark = 1;
    }
    const m = scratch.mark;
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
