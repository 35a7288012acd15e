/**
 * A small parser for the part of RE2 syntax whose meaning we can reproduce exactly in a
 * JavaScript `u`-flag RegExp. It runs only on patterns parse.ts has already accepted, so it
 * does not report syntax errors: anything it does not model (inline flags other than a
 * leading `(?i)`, `\p{…}`, POSIX classes, `\C`, …) makes it return null and the pattern
 * is left to the linear engine. Capturing and named groups become plain groups: nothing reads them.
 */

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

// RE2's \s is [\t\n\f\r ]; JS's \s also has \v and Unicode spaces, so spell it out.
const SPACE = '\\t\\n\\f\\r ';
const PERL_CLASS: Readonly<Record<string, string>> = { d: '\\d', D: '\\D', w: '\\w', W: '\\W', s: `[${SPACE}]`, S: `[^${SPACE}]` };
const SIMPLE_ESCAPE: Readonly<Record<string, number>> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
// Characters that need a backslash in a u-flag RegExp (`-` only inside a class, where it may be escaped).
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/');

class Unsupported extends Error {}

/** The JS (u-flag) source for one literal code point, outside or inside a class. */
export function escapeCodePoint(cp: number, inClass = false): string {
  const c = String.fromCodePoint(cp);
  if (JS_SYNTAX.has(c) || (inClass && c === '-')) return `\\${c}`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029) {
    return `\\u{${cp.toString(16)}}`;
  }
  return c;
}

export function parseRe2(pattern: string): ParsedPattern | null {
  try {
    return new Parser(pattern).parse();
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  parse(): ParsedPattern {
    let ignoreCase = false;
    const flags = /^\(\?([ims]+)\)/.exec(this.src);
    if (flags) {
      ignoreCase = flags[1]!.includes('i');
      this.pos = flags[0].length;
    }
    const root = this.alternation();
    if (this.pos < this.src.length) throw new Unsupported();
    return { root, ignoreCase };
  }

  private peek(): string {
    return this.src[this.pos] ?? '';
  }

  private alternation(): ReNode {
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.concatenation());
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alt', branches };
  }

  private concatenation(): ReNode {
    const items: ReNode[] = [];
    while (this.pos < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atoms = this.atoms();
      const last = this.quantified(atoms.pop()!);
      for (const node of [...atoms, last]) {
        // Splice plain groups so literal runs across them stay visible: `foo(bar)` = foobar.
        if (node.kind === 'concat') items.push(...node.items);
        else items.push(node);
      }
    }
    return items.length === 1 ? items[0]! : { kind: 'concat', items };
  }

  private quantified(atom: ReNode): ReNode {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos, this.pos + 12));
      if (!m) return atom;
      this.pos += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    }
    const lazy = this.peek() === '?';
    if (lazy) this.pos++;
    if (atom.kind === 'assert' || this.peek() === '*' || this.peek() === '+' || this.peek() === '?') throw new Unsupported();
    return { kind: 'repeat', body: atom, min, max, lazy };
  }

  /** Usually one atom; `\Q…\E` yields one per character (a quantifier binds to the last). */
  private atoms(): ReNode[] {
    const c = this.peek();
    if (c === '(') return [this.group()];
    if (c === '[') return [this.charClass()];
    if (c === '*' || c === '+' || c === '?') throw new Unsupported();
    if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.pos, this.pos + 12))) throw new Unsupported();
    this.pos += c.length;
    if (c === '.') return [{ kind: 'set', js: '[^\\n]' }];
    if (c === '^') return [{ kind: 'assert', js: '^' }];
    if (c === '$') return [{ kind: 'assert', js: '$' }];
    if (c !== '\\') {
      this.pos--;
      return [{ kind: 'char', cp: this.codePoint() }];
    }
    const e = this.peek();
    this.pos++;
    if (e === 'Q') return this.quoted();
    if (PERL_CLASS[e] !== undefined) return [{ kind: 'set', js: PERL_CLASS[e] }];
    if (e === 'b' || e === 'B') return [{ kind: 'assert', js: `\\${e}` }];
    if (e === 'A') return [{ kind: 'assert', js: '^' }];
    if (e === 'z') return [{ kind: 'assert', js: '$' }];
    this.pos -= 2;
    return [{ kind: 'char', cp: this.escapedChar() }];
  }

  private quoted(): ReNode[] {
    const end = this.src.indexOf('\\E', this.pos);
    const text = this.src.slice(this.pos, end < 0 ? undefined : end);
    this.pos = end < 0 ? this.src.length : end + 2;
    const nodes: ReNode[] = [...text].map((ch) => ({ kind: 'char', cp: ch.codePointAt(0)! }));
    if (nodes.length === 0) throw new Unsupported(); // `\Q\E+` quantifies nothing: leave it to re2js
    return nodes;
  }

  private group(): ReNode {
    this.pos++; // (
    if (this.peek() === '?') {
      const m = /^\?(:|P?<[A-Za-z0-9_]+>)/.exec(this.src.slice(this.pos, this.pos + 200));
      if (!m) throw new Unsupported(); // inline flags and anything else
      this.pos += m[0].length;
    }
    const body = this.alternation();
    if (this.peek() !== ')') throw new Unsupported();
    this.pos++;
    return body;
  }

  private codePoint(): number {
    const cp = this.src.codePointAt(this.pos);
    if (cp === undefined) throw new Unsupported();
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  /** A single-character escape (pos at the backslash), as RE2's parseEscape reads it. */
  private escapedChar(): number {
    this.pos++; // backslash
    const e = this.peek();
    this.pos++;
    if (SIMPLE_ESCAPE[e] !== undefined) return SIMPLE_ESCAPE[e];
    if (e >= '0' && e <= '7') {
      // RE2 octal: \0, or \1-\7 followed by another octal digit; up to three digits.
      const m = /^[0-7]{1,3}/.exec(this.src.slice(this.pos - 1, this.pos + 2))![0];
      if (e !== '0' && m.length < 2) throw new Unsupported();
      this.pos += m.length - 1;
      return parseInt(m, 8);
    }
    if (e === 'x') {
      const m = /^(\{([0-9A-Fa-f]+)\}|[0-9A-Fa-f]{2})/.exec(this.src.slice(this.pos, this.pos + 12));
      if (!m) throw new Unsupported();
      this.pos += m[0].length;
      const cp = parseInt(m[2] ?? m[1]!, 16);
      if (cp > 0x10ffff) throw new Unsupported();
      return cp;
    }
    // RE2 lets any ASCII punctuation be escaped to stand for itself.
    if (e !== '' && e < '\x80' && !/[0-9A-Za-z]/.test(e)) return e.charCodeAt(0);
    throw new Unsupported();
  }

  private charClass(): ReNode {
    this.pos++; // [
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.pos++;
    }
    const parts: string[] = [];
    const single: number[] = [];
    let first = true;
    while (first || this.peek() !== ']') {
      if (this.pos >= this.src.length) throw new Unsupported();
      first = false;
      if (this.src.startsWith('[:', this.pos)) throw new Unsupported(); // POSIX class
      if (this.peek() === '\\') {
        const e = this.src[this.pos + 1] ?? '';
        if (e === 'd' || e === 'D' || e === 'w' || e === 'W' || e === 's') {
          parts.push(e === 's' ? SPACE : `\\${e}`);
          single.push(-1, -1);
          this.pos += 2;
          continue;
        }
      }
      const lo = this.classChar();
      let hi = lo;
      if (this.peek() === '-' && (this.src[this.pos + 1] ?? ']') !== ']') {
        this.pos++;
        hi = this.classChar();
      }
      parts.push(hi === lo ? escapeCodePoint(lo, true) : `${escapeCodePoint(lo, true)}-${escapeCodePoint(hi, true)}`);
      single.push(lo, hi);
    }
    this.pos++; // ]
    // `[.]` is a common way to escape one character: keep it a literal for the analysis.
    if (!negated && single.length === 2 && single[0] === single[1] && single[0]! >= 0) return { kind: 'char', cp: single[0]! };
    return { kind: 'set', js: `[${negated ? '^' : ''}${parts.join('')}]` };
  }

  private classChar(): number {
    if (this.peek() !== '\\') return this.codePoint();
    const e = this.src[this.pos + 1] ?? '';
    if (e === 'S' || e === 'p' || e === 'P' || e === 'Q' || e === 'E') throw new Unsupported();
    return this.escapedChar();
  }
}
