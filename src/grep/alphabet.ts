/**
 * Splits code points into classes that no instruction of a program can tell apart: the
 * same membership in every character set, and the same word / newline property (what
 * \b, ^ and $ look at). The engines then work on small class ids: a DFA row has one
 * entry per class, and a set test is one table lookup.
 *
 * Membership is decided by the JS engine: each set becomes an anchored `u`-flag RegExp
 * (with `i` when case-folded, which folds as RE2 does: Unicode simple case folding),
 * tested once per distinct code point and memoised. So no Unicode tables live here.
 */

import type { CharSet } from './parse.ts';

/** Class flags. */
export const IS_WORD = 1;
export const IS_NEWLINE = 2;

const MAX_MEMO = 1 << 16;

export class Alphabet {
  /** Class of each ASCII code point. */
  readonly ascii = new Uint16Array(128);
  /** member[cls][set]: 1 when the class is in the set. */
  readonly member: Uint8Array[] = [];
  /** IS_WORD / IS_NEWLINE per class. */
  readonly flags: number[] = [];
  private readonly tests: ((s: string) => boolean)[];
  private readonly ids = new Map<string, number>();
  private readonly memo = new Map<number, number>();

  constructor(sets: readonly CharSet[]) {
    this.tests = sets.map(setTest);
    for (let cp = 0; cp < 128; cp++) this.ascii[cp] = this.compute(cp);
  }

  get count(): number {
    return this.member.length;
  }

  classOf(cp: number): number {
    if (cp < 128) return this.ascii[cp]!;
    let cls = this.memo.get(cp);
    if (cls === undefined) {
      if (this.memo.size >= MAX_MEMO) this.memo.clear(); // class ids stay valid; only the memo goes
      cls = this.compute(cp);
      this.memo.set(cp, cls);
    }
    return cls;
  }

  private compute(cp: number): number {
    const s = String.fromCodePoint(cp);
    const row = Uint8Array.from(this.tests, (t) => (t(s) ? 1 : 0));
    const flags = (isWordChar(cp) ? IS_WORD : 0) | (cp === 10 ? IS_NEWLINE : 0);
    const key = `${flags}${row.join('')}`;
    let cls = this.ids.get(key);
    if (cls === undefined) {
      cls = this.member.length;
      this.ids.set(key, cls);
      this.member.push(row);
      this.flags.push(flags);
    }
    return cls;
  }
}

/** RE2's \b looks at ASCII word characters only. */
function isWordChar(cp: number): boolean {
  return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95;
}

function setTest(set: CharSet): (s: string) => boolean {
  const flags = set.fold ? 'iu' : 'u';
  const pos = set.pos === '' ? null : new RegExp(`^[${set.pos}]$`, flags);
  // A negated item is folded first, then negated, as RE2 does: (?i)\PL excludes "a" too.
  const negs = set.negs.map((src) => new RegExp(`^[${src}]$`, flags));
  return (s) => {
    let hit = pos?.test(s) === true;
    for (let i = 0; !hit && i < negs.length; i++) hit = !negs[i]!.test(s);
    return hit !== set.negated;
  };
}
