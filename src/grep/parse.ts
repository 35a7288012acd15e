/**
 * The one RE2 parser (Go / ripgrep syntax). It mirrors re2js's parser closely enough that
 * the same patterns are accepted, with the same meaning and the same repetition
 * priorities, and every refusal is a ParseError naming RE2's error kind, the offending
 * text and where it is (diagnose.ts words the message). The linear engine compiles its
 * tree (compile.ts); syntax.ts derives from the same tree whether a JS RegExp may run it.
 *
 * Character sets are kept as JavaScript `u`-flag class source (alphabet.ts tests a code
 * point against them), so no Unicode tables live here. A set also keeps how it was
 * written, when JS spells that with the same meaning, for the native engine.
 */

import { escapeCodePoint } from './escape.ts';

/** Zero-width assertions, as bits so a context can carry several at once. */
export const BEGIN_LINE = 1;
export const END_LINE = 2;
export const BEGIN_TEXT = 4;
export const END_TEXT = 8;
export const WORD_BOUNDARY = 16;
export const NO_WORD_BOUNDARY = 32;

/** One code point out of a set: `[pos]` or outside any `negs` class, the whole negated when `negated`; case-folded when `fold`. */
export interface CharSet {
  pos: string;
  negs: string[];
  negated: boolean;
  fold: boolean;
  /** Set when this is one literal code point, not case-folded. */
  lit?: number;
}

export type Node =
  | { op: 'empty' }
  /**
   * `cp`: the one code point written (a literal, or a one-character class such as `[.]`),
   * folded or not. `js`: the set as JS `u`-flag source with RE2's meaning on a line, absent
   * for what the native engine does not take (`\p{…}`, POSIX classes, `\S` in brackets).
   */
  | { op: 'char'; set: CharSet; cp?: number; js?: string }
  | { op: 'assert'; kind: number }
  | { op: 'cat' | 'alt'; subs: Node[] }
  | { op: 'cap'; sub: Node }
  | { op: 'star' | 'plus' | 'quest'; sub: Node; lazy: boolean }
  | { op: 'repeat'; sub: Node; min: number; max: number; lazy: boolean };

/** `kind` is RE2's error text (e.g. 'missing closing )'), or 'backreference' / 'lookaround'. */
export class ParseError extends Error {
  constructor(
    readonly kind: string,
    readonly fragment: string,
    /** Offset in the pattern the error points at. */
    readonly at: number,
    /** For 'invalid repeat count': which rule it broke, and the count or product that broke it. */
    readonly repeat?: { rule: 'order' | 'count' | 'product'; value: number },
  ) {
    super(`${kind}${fragment === '' ? '' : `: ${fragment}`}`);
  }
}

const FOLD = 1;
const ONE_LINE = 2; // ^ and $ match at the ends of the text only (cleared by (?m))
const DOT_NL = 4;
const NON_GREEDY = 8;
const MAX_DEPTH = 1000; // RE2's nesting limit; also keeps the compiler's recursion shallow
const MAX_REPEAT = 1000;

const PERL: Readonly<Record<string, string>> = { d: '0-9', s: '\\t\\n\\f\\r ', w: '0-9A-Za-z_' };
const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\0-\\x7f',
  blank: '\\t ',
  cntrl: '\\0-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};
// The binary properties RE2 knows besides categories and scripts.
const BINARY_PROPS = new Set(
  'ASCII_Hex_Digit Alphabetic Dash Emoji Emoji_Component Emoji_Modifier Emoji_Modifier_Base Emoji_Presentation Extended_Pictographic Hex_Digit Lowercase Math Quotation_Mark Terminal_Punctuation Uppercase White_Space'.split(
    ' ',
  ),
);
const SIMPLE_ESCAPE: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
// JS spellings of the Perl classes with RE2's meaning; JS's \s also has \v and Unicode spaces, so it is spelled out.
const PERL_JS: Readonly<Record<string, string>> = { d: '\\d', D: '\\D', w: '\\w', W: '\\W', s: `[${PERL.s}]`, S: `[^${PERL.s}]` };
// Inside brackets; `\S` there has no JS spelling without the v flag.
const PERL_IN_CLASS_JS: Readonly<Record<string, string>> = { d: '\\d', D: '\\D', w: '\\w', W: '\\W', s: PERL.s! };

interface Frame {
  open: number; // offset of "(" (-1 for the whole pattern)
  flags: number; // flags to restore when it closes
  capture: boolean;
  branches: Node[];
  items: Node[];
}

/** A parsed pattern, with the flag groups it used (they decide whether JS can run it the same way). */
export interface ParsedRe2 {
  root: Node;
  /** A leading `(?i)`, alone or with `m` and `s` (no-ops on one line), set case folding. */
  leadingFold: boolean;
  /** Some other flag group was used: `(?U)`, `(?-s)`, `(?i:…)`, or flags after the start. */
  otherFlags: boolean;
}

/** Parses `pattern`; `ignoreCase` is the tool's option, the same as a leading (?i). */
export function parseWithFlags(pattern: string, ignoreCase = false): ParsedRe2 {
  const parser = new Parser(pattern, ignoreCase ? FOLD | ONE_LINE : ONE_LINE);
  const root = parser.run();
  return { root, leadingFold: parser.leadingFold, otherFlags: parser.otherFlags };
}

/** The tree alone, for the linear engine. */
export function parse(pattern: string, ignoreCase = false): Node {
  return parseWithFlags(pattern, ignoreCase).root;
}

class Parser {
  private pos = 0;
  private frames: Frame[];
  private names = new Set<string>();
  leadingFold = false;
  otherFlags = false;

  constructor(
    private readonly src: string,
    private flags: number,
  ) {
    this.frames = [{ open: -1, flags, capture: false, branches: [], items: [] }];
  }

  private get top(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  private fail(kind: string, fragment: string, at = this.pos, repeat?: ParseError['repeat']): never {
    throw new ParseError(kind, fragment, at, repeat);
  }

  run(): Node {
    const src = this.src;
    let lastRepeat = -1;
    while (this.pos < src.length) {
      const start = this.pos;
      let repeatAt = -1;
      const c = src[start]!;
      if (c === '(') this.open();
      else if (c === '|') {
        this.pos++;
        this.top.branches.push(cat(this.top.items));
        this.top.items = [];
      } else if (c === ')') this.close();
      else if (c === '*' || c === '+' || c === '?') {
        repeatAt = start;
        this.pos++;
        const [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
        this.repeat(c === '*' ? 'star' : c === '+' ? 'plus' : 'quest', min, max, start, lastRepeat);
      } else {
        const count = c === '{' ? this.counted() : null;
        if (count === null) this.atom();
        else {
          repeatAt = start;
          this.repeat('repeat', count[0], count[1], start, lastRepeat);
        }
      }
      lastRepeat = repeatAt;
    }
    if (this.frames.length > 1) this.fail('missing closing )', src, this.top.open);
    return this.finish(this.top);
  }

  private push(node: Node): void {
    this.top.items.push(node);
  }

  private finish(f: Frame): Node {
    const last = cat(f.items);
    return f.branches.length === 0 ? last : { op: 'alt', subs: [...f.branches, last] };
  }

  private open(): void {
    const src = this.src;
    const start = this.pos;
    const look = /^\(\?<?[=!]/.exec(src.slice(start, start + 4));
    if (look) this.fail('lookaround', look[0], start);
    if (this.frames.length > MAX_DEPTH) this.fail('expression nests too deeply', '', start);
    if (src[start + 1] !== '?') {
      this.pos++;
      this.frames.push({ open: start, flags: this.flags, capture: true, branches: [], items: [] });
      return;
    }
    if (src.startsWith('(?P<', start) || src.startsWith('(?<', start)) {
      const begin = start + (src[start + 2] === 'P' ? 4 : 3);
      const end = src.indexOf('>', start);
      if (end < 0) this.fail('invalid named capture', src.slice(start), start);
      const name = src.slice(begin, end);
      if (!/^[A-Za-z0-9_]+$/.test(name)) this.fail('invalid named capture', src.slice(start, end + 1), start);
      if (this.names.has(name)) this.fail('duplicate capture group name', name, start);
      this.names.add(name);
      this.pos = end + 1;
      this.frames.push({ open: start, flags: this.flags, capture: true, branches: [], items: [] });
      return;
    }
    // Flags: (?i) (?-s) (?im-sU) for the rest of the group, or (?i:...) for a group.
    this.pos += 2;
    let flags = this.flags;
    let sign = 1;
    let sawFlag = false;
    while (this.pos < src.length) {
      const f = src[this.pos++]!;
      if (f === 'i' || f === 'm' || f === 's' || f === 'U') {
        // RE2 flips all bits for the negative part, so "set" below means "clear" there.
        if (f === 'm') flags &= ~ONE_LINE;
        else flags |= f === 'i' ? FOLD : f === 's' ? DOT_NL : NON_GREEDY;
        sawFlag = true;
      } else if (f === '-' && sign > 0) {
        sign = -1;
        flags = ~flags;
        sawFlag = false;
      } else if ((f === ':' || f === ')') && (sign > 0 || sawFlag)) {
        if (sign < 0) flags = ~flags;
        if (f === ':') this.frames.push({ open: start, flags: this.flags, capture: false, branches: [], items: [] });
        this.flags = flags;
        const written = src.slice(start + 2, this.pos - 1);
        if (start === 0 && f === ')' && /^[ims]+$/.test(written)) this.leadingFold = written.includes('i');
        else if (written !== '' || f !== ':') this.otherFlags = true; // (?:…) sets none
        return;
      } else break;
    }
    this.fail('invalid or unsupported Perl syntax', src.slice(start, this.pos), start);
  }

  private close(): void {
    if (this.frames.length < 2) this.fail('unexpected )', this.src, this.pos);
    this.pos++;
    const f = this.frames.pop()!;
    this.flags = f.flags;
    const body = this.finish(f);
    this.push(f.capture ? { op: 'cap', sub: body } : body);
  }

  /** `{n}`, `{n,}` or `{n,m}` at pos, as [min, max] (max -1: unbounded), consumed; null (nothing consumed) when it is a literal "{". */
  private counted(): [number, number] | null {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos, this.pos + 24));
    if (!m) return null;
    const num = (s: string): number => (s.length > 1 && s[0] === '0' ? -1 : s.length > 8 ? -2 : Number(s));
    const min = num(m[1]!);
    const max = m[2] === undefined ? min : m[3] === '' ? -1 : num(m[3]!);
    if (min === -1 || (m[3] !== undefined && m[3] !== '' && max === -1)) return null; // RE2 reads "{01}" literally
    const start = this.pos;
    this.pos += m[0].length;
    if (min < 0 || min > MAX_REPEAT || max === -2 || max > MAX_REPEAT) {
      const value = Math.max(Number(m[1]), Number(m[3] ?? 0)); // the count as typed (num() gives -2 past 8 digits)
      this.fail('invalid repeat count', m[0], start, { rule: 'count', value });
    }
    if (max >= 0 && min > max) this.fail('invalid repeat count', m[0], start, { rule: 'order', value: min });
    return [min, max];
  }

  private repeat(op: 'star' | 'plus' | 'quest' | 'repeat', min: number, max: number, start: number, lastRepeat: number): void {
    let lazy = (this.flags & NON_GREEDY) !== 0;
    if (this.src[this.pos] === '?') {
      this.pos++;
      lazy = !lazy;
    }
    if (lastRepeat >= 0) this.fail('invalid nested repetition operator', this.src.slice(lastRepeat, this.pos), lastRepeat);
    const items = this.top.items;
    if (items.length === 0) this.fail('missing argument to repetition operator', this.src.slice(start, this.pos), start);
    const sub = items[items.length - 1]!;
    const node: Node = op === 'repeat' ? { op, sub, min, max, lazy } : { op, sub, lazy };
    if (op === 'repeat' && (min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT)) {
      this.fail('invalid repeat count', this.src.slice(start, this.pos), start, { rule: 'product', value: repeatProduct(node) });
    }
    items[items.length - 1] = node;
  }

  private atom(): void {
    const src = this.src;
    const c = src[this.pos]!;
    const oneLine = (this.flags & ONE_LINE) !== 0;
    if (c === '^') {
      this.pos++;
      this.push({ op: 'assert', kind: oneLine ? BEGIN_TEXT : BEGIN_LINE });
    } else if (c === '$') {
      this.pos++;
      this.push({ op: 'assert', kind: oneLine ? END_TEXT : END_LINE });
    } else if (c === '.') {
      this.pos++;
      const any = (this.flags & DOT_NL) !== 0;
      // `[^\n]` even under (?s): a line holds no newline.
      this.push({ op: 'char', set: { pos: any ? '\\0-\\u{10ffff}' : '', negs: any ? [] : ['\\n'], negated: false, fold: false }, js: '[^\\n]' });
    } else if (c === '[') this.push(this.charClass());
    else if (c === '\\') this.escape();
    else this.literal(this.codePoint());
  }

  private literal(cp: number): void {
    const fold = (this.flags & FOLD) !== 0;
    this.push({ op: 'char', set: { pos: escapeCodePoint(cp, true), negs: [], negated: false, fold, ...(fold ? {} : { lit: cp }) }, cp });
  }

  private codePoint(): number {
    const cp = this.src.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private escape(): void {
    const src = this.src;
    const start = this.pos;
    const e = src[start + 1] ?? '';
    const assertion = { A: BEGIN_TEXT, z: END_TEXT, b: WORD_BOUNDARY, B: NO_WORD_BOUNDARY }[e];
    if (assertion !== undefined) {
      this.pos += 2;
      this.push({ op: 'assert', kind: assertion });
      return;
    }
    if (e === 'C') this.fail('invalid escape sequence', '\\C', start);
    if (e === 'Q') {
      const end = src.indexOf('\\E', start + 2);
      const text = src.slice(start + 2, end < 0 ? src.length : end);
      this.pos = end < 0 ? src.length : end + 2;
      for (const ch of text) this.literal(ch.codePointAt(0)!);
      return;
    }
    // \1-\9 not read as octal (\12 is octal 10), and \k<name>: backreferences.
    if ((/[1-9]/.test(e) && !(e <= '7' && /[0-7]/.test(src[start + 2] ?? ''))) || src.startsWith('k<', start + 1)) {
      this.fail('backreference', src.slice(start, start + 2), start);
    }
    const set = this.classEscape(start);
    if (set !== null) {
      const fold = (this.flags & FOLD) !== 0;
      const js = PERL_JS[e];
      const charSet = set.neg ? { pos: '', negs: [set.src], negated: false, fold } : { pos: set.src, negs: [], negated: false, fold };
      this.push({ op: 'char', set: charSet, ...(js === undefined ? {} : { js }) });
      return;
    }
    this.literal(this.escapedChar());
  }

  /** `\d \D \s \S \w \W \pL \p{Greek} \PL \p{^L}` at `start`, consumed; null if something else. */
  private classEscape(start: number): { src: string; neg: boolean } | null {
    const e = this.src[start + 1] ?? '';
    const perl = PERL[e.toLowerCase()];
    if (perl !== undefined && /[dswDSW]/.test(e)) {
      this.pos = start + 2;
      return { src: perl, neg: e !== e.toLowerCase() };
    }
    if (e !== 'p' && e !== 'P') return null;
    let neg = e === 'P';
    const src = this.src;
    const brace = src[start + 2] === '{';
    const end = brace ? src.indexOf('}', start + 3) : start + 2;
    if (start + 2 >= src.length || end < 0) this.fail('invalid character class range', src.slice(start), start);
    this.pos = start + 2;
    let name: string;
    if (brace) {
      name = src.slice(start + 3, end);
      this.pos = end + 1;
    } else name = String.fromCodePoint(this.codePoint());
    if (name.startsWith('^')) {
      neg = !neg;
      name = name.slice(1);
    }
    const js = unicodeClass(name);
    if (js === null) this.fail('invalid character class range', src.slice(start, this.pos), start);
    return { src: js, neg };
  }

  /** A single-character escape at pos (the backslash), as RE2's parseEscape reads it. */
  private escapedChar(): number {
    const src = this.src;
    const start = this.pos;
    if (start + 1 >= src.length) this.fail('trailing backslash at end of expression', '', start);
    const e = src[start + 1]!;
    this.pos += 2;
    const bad = (): never => this.fail('invalid escape sequence', src.slice(start, this.pos), start);
    if (SIMPLE_ESCAPE[e] !== undefined) return SIMPLE_ESCAPE[e];
    if (e >= '0' && e <= '7') {
      const digits = /^[0-7]{0,2}/.exec(src.slice(this.pos, this.pos + 2))![0];
      if (e !== '0' && digits === '') bad();
      this.pos += digits.length;
      return parseInt(e + digits, 8);
    }
    if (e === 'x') {
      const m = /^(?:\{([0-9A-Fa-f]+)\}|[0-9A-Fa-f]{2})/.exec(src.slice(this.pos, this.pos + 12));
      const cp = m ? parseInt(m[1] ?? m[0], 16) : -1;
      if (!m || cp > 0x10ffff) {
        this.pos = Math.min(src.length, this.pos + 1);
        bad();
      }
      this.pos += m![0].length;
      return cp;
    }
    // RE2 lets any ASCII punctuation be escaped to stand for itself.
    if (e < '\x80' && !/[0-9A-Za-z]/.test(e)) return e.charCodeAt(0);
    this.pos = start + 1;
    this.codePoint();
    return bad();
  }

  private charClass(): Node {
    const src = this.src;
    const open = this.pos;
    this.pos++;
    const negated = src[this.pos] === '^';
    if (negated) this.pos++;
    const fold = (this.flags & FOLD) !== 0;
    let pos = '';
    const negs: string[] = [];
    const add = (s: { src: string; neg: boolean }): void => {
      if (s.neg) negs.push(s.src);
      else pos += s.src;
    };
    // The JS spelling (null once something has none), and the one code point when that is all there is.
    let js: string | null = '';
    let items = 0;
    let only = -1;
    let first = true;
    while (first || src[this.pos] !== ']') {
      if (this.pos >= src.length) this.fail('missing closing ]', src.slice(open), open);
      first = false;
      items++;
      const start = this.pos;
      if (src.startsWith('[:', start)) {
        js = null;
        const end = src.indexOf(':]', start + 2);
        if (end >= 0) {
          const name = src.slice(start, end + 2);
          this.pos = end + 2;
          const m = /^\[:(\^?)(\w+):\]$/.exec(name);
          const body = m ? POSIX[m[2]!] : undefined;
          if (body === undefined) this.fail('invalid character class range', name, start);
          add({ src: body, neg: m![1] === '^' });
          continue;
        }
      }
      if (src[start] === '\\') {
        const set = this.classEscape(start);
        if (set !== null) {
          add(set);
          const perl = PERL_IN_CLASS_JS[src[start + 1]!];
          js = js === null || perl === undefined ? null : js + perl;
          continue;
        }
      }
      const lo = this.classChar(open);
      let hi = lo;
      if (src[this.pos] === '-' && this.pos + 1 < src.length && src[this.pos + 1] !== ']') {
        this.pos++;
        // `[a-\d]`: a class cannot end a range (RE2 refuses \d as a character there; say why).
        const cls = /^\\(?:[dDsSwW]|[pP](?:\{[^}]*\}|[^{]))/.exec(src.slice(this.pos, this.pos + 40));
        if (cls !== null) this.fail('invalid character class range', src.slice(start, this.pos + cls[0].length), start);
        hi = this.classChar(open);
        if (hi < lo) this.fail('invalid character class range', src.slice(start, this.pos), start);
      }
      const range = hi === lo ? escapeCodePoint(lo, true) : `${escapeCodePoint(lo, true)}-${escapeCodePoint(hi, true)}`;
      pos += range;
      if (js !== null) js += range;
      if (hi === lo) only = lo;
    }
    this.pos++;
    const set = { pos, negs, negated, fold };
    // `[.]` is a common way to escape one character: the native view sees a literal.
    if (!negated && items === 1 && only >= 0) return { op: 'char', set, cp: only };
    return { op: 'char', set, ...(js === null ? {} : { js: `[${negated ? '^' : ''}${js}]` }) };
  }

  private classChar(open: number): number {
    if (this.pos >= this.src.length) this.fail('missing closing ]', this.src.slice(open), open);
    return this.src[this.pos] === '\\' ? this.escapedChar() : this.codePoint();
  }
}

function cat(items: Node[]): Node {
  return items.length === 0 ? { op: 'empty' } : items.length === 1 ? items[0]! : { op: 'cat', subs: items };
}

/** RE2 refuses nested counted repetitions whose product exceeds 1000, e.g. (a{100}){100}. */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.op === 'repeat') {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  if (node.op === 'cat' || node.op === 'alt') return node.subs.every((s) => repeatIsValid(s, n));
  if ('sub' in node) return repeatIsValid(node.sub, n);
  return true;
}

/** The largest product of counts along a nesting of counted repetitions (what repeatIsValid bounds). */
function repeatProduct(node: Node): number {
  let own = 1;
  if (node.op === 'repeat') {
    if (node.max === 0) return 1;
    own = node.max < 0 ? Math.max(1, node.min) : node.max;
  }
  if (node.op === 'cat' || node.op === 'alt') return own * Math.max(1, ...node.subs.map(repeatProduct));
  if ('sub' in node) return own * repeatProduct(node.sub);
  return own;
}

/** JS class source for an RE2 Unicode class name (\pL, \p{Greek}), or null if unknown. */
function unicodeClass(name: string): string | null {
  const special: Record<string, string> = { Any: 'Any', Ascii: 'ASCII', Assigned: 'Assigned', Lc: 'gc=LC' };
  let prop = special[name];
  if (prop === undefined) {
    if (/^([A-Z][a-z]?|LC)$/.test(name)) prop = `gc=${name}`;
    else if (BINARY_PROPS.has(name)) prop = name;
    else if (/^[A-Z][A-Za-z_]+$/.test(name)) prop = `sc=${name}`;
    else return null;
  }
  try {
    new RegExp(`\\p{${prop}}`, 'u');
  } catch {
    return null;
  }
  return `\\p{${prop}}`;
}
