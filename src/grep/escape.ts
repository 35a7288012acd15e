/** The JavaScript `u`-flag spelling of code points, shared by the parser's class sources and the native emitter. */

// Characters that need a backslash in a u-flag RegExp (`-` only inside a class, where it may be escaped).
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/');

/** The JS (u-flag) source for one literal code point, outside or inside a class. */
export function escapeCodePoint(cp: number, inClass = false): string {
  const c = String.fromCodePoint(cp);
  if (JS_SYNTAX.has(c) || (inClass && c === '-')) return `\\${c}`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029) {
    return `\\u{${cp.toString(16)}}`;
  }
  return c;
}
