/** Byte/text conversions shared by the backend and the tools. */
import { VfsError } from './errors.ts';

const encoder = new TextEncoder();
// Keeps a BOM in the decoded text, so callers decide what to do with it.
const decoderKeepBom = new TextDecoder('utf-8', { ignoreBOM: true });

const BINARY_SNIFF_BYTES = 8192;

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

export function hasBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** UTF-8 text without a leading BOM (invalid sequences become U+FFFD). */
export function decodeText(bytes: Uint8Array): string {
  return decoderKeepBom.decode(hasBom(bytes) ? bytes.subarray(3) : bytes);
}

/** The whole text, a BOM included as U+FEFF (what deepagents stores and returns: raw text). */
export function decodeRawText(bytes: Uint8Array): string {
  return decoderKeepBom.decode(bytes);
}

/** The text of bytes[start, end) of a file, as decodeText would give that part (a BOM only dropped at 0). */
export function decodeRange(bytes: Uint8Array, start: number, end: number): string {
  return decoderKeepBom.decode(bytes.subarray(start === 0 && hasBom(bytes) ? 3 : start, end));
}

/**
 * Number of `\n` bytes in `bytes[from, to)`. grep counts every line before each hit, so
 * this reads four bytes at a time (a zero-byte test on word ^ 0x0a0a0a0a): about twice as
 * fast as a native indexOf per newline, and no decoding.
 */
export function countNewlineBytes(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  let i = from;
  while (i < to && ((bytes.byteOffset + i) & 3) !== 0) if (bytes[i++] === 10) n++;
  const words = (to - i) >>> 2;
  if (words > 8) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const x = view[k]! ^ 0x0a0a0a0a;
      // Bit 7 of each byte of `zero` is set exactly where that byte of x is 0.
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      n += Math.imul((zero >>> 7) & 0x01010101, 0x01010101) >>> 24;
    }
    i += words * 4;
  }
  while (i < to) if (bytes[i++] === 10) n++;
  return n;
}

/** A file is binary when a NUL byte appears in its first 8 KiB (as git and ripgrep decide). */
export function isBinary(bytes: Uint8Array): boolean {
  // No subarray for small files: every read_file and every grep candidate asks this.
  return (bytes.length > BINARY_SNIFF_BYTES ? bytes.subarray(0, BINARY_SNIFF_BYTES) : bytes).indexOf(0) !== -1;
}

/** Number of `\n` characters in `text[from, to)`. */
export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  let at = text.indexOf('\n', from);
  while (at !== -1 && at < to) {
    n++;
    at = text.indexOf('\n', at + 1);
  }
  return n;
}

/** Number of lines as an editor counts them: "a\nb\n" has 2, "a\nb" has 2, "" has 0. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  return countNewlines(text, 0, text.length) + (text.endsWith('\n') ? 0 : 1);
}

/** Splits text into lines without their endings ("\n" or "\r\n"); a final newline adds no empty line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/** Splits text into lines that keep their "\n" (the last may have none): joined, they give the text back. */
export function linesWithEnds(text: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start) + 1 || text.length;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/** True when index `i` of `text` falls between the two halves of a surrogate pair (an emoji, say). */
export function splitsPair(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  const before = text.charCodeAt(i - 1);
  const after = text.charCodeAt(i);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** The first `max` UTF-16 units of `text`, one fewer when `max` falls inside a surrogate pair (an emoji stays whole). */
export function headOf(text: string, max: number): string {
  return text.slice(0, splitsPair(text, max) ? max - 1 : max);
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The text of a file an edit is about to rewrite. A file that is not valid UTF-8 (Latin-1 bytes,
 * say) is refused (EBINARY): decoded, its bad bytes become U+FFFD, and writing the edit back would
 * change them on lines the edit never touched.
 */
export function decodeForEdit(bytes: Uint8Array, path: string): string {
  const text = decodeText(bytes);
  const line = firstNotUtf8Line(bytes, text);
  if (line === null) return text;
  throw new VfsError(
    'EBINARY',
    `${path} is not valid UTF-8 text (line ${line} holds bytes that are no UTF-8 character, shown as \uFFFD); an edit would rewrite those bytes too, so it is refused and the file is unchanged. Replace the whole file with write_file if that is meant.`,
    { path },
  );
}

/** The 1-based line of `text` (`bytes` decoded) holding the first U+FFFD that stands for bytes no UTF-8 character; null when `bytes` are valid UTF-8. */
export function firstNotUtf8Line(bytes: Uint8Array, text: string): number | null {
  if (!text.includes('\uFFFD') || isValidUtf8(bytes)) return null;
  return text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
}

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

// With the u flag a surrogate pair is one code point, so \p{Cs} is only ever a lone surrogate.
const LONE_SURROGATES = /\p{Cs}/gu;
const nativeIsWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;

/** Whether `s` has no lone UTF-16 surrogate, so it has a UTF-8 form. */
export function isWellFormed(s: string): boolean {
  if (nativeIsWellFormed) return nativeIsWellFormed.call(s);
  LONE_SURROGATES.lastIndex = 0;
  return !LONE_SURROGATES.test(s);
}

/** Where `s` holds its first lone surrogate (a UTF-16 index), or -1. */
export function loneSurrogateAt(s: string): number {
  if (isWellFormed(s)) return -1;
  LONE_SURROGATES.lastIndex = 0;
  return LONE_SURROGATES.exec(s)!.index;
}

/** `s` with each lone surrogate as U+FFFD (what its UTF-8 round trip gives). */
export function toWellFormed(s: string): string {
  return isWellFormed(s) ? s : s.replace(LONE_SURROGATES, '\uFFFD');
}
