/** Base64 of bytes without Buffer or btoa's string detour: the same code in Node, browsers and workerd. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const PAD = 61; // '='

export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = CODES[n >>> 18]!;
    out[o++] = CODES[(n >>> 12) & 63]!;
    out[o++] = CODES[(n >>> 6) & 63]!;
    out[o++] = CODES[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o++] = CODES[n >>> 18]!;
    out[o++] = CODES[(n >>> 12) & 63]!;
    out[o++] = rest === 2 ? CODES[(n >>> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  // Base64 is ASCII, which UTF-8 (the one encoding every runtime's TextDecoder has) decodes as is, in one pass.
  return new TextDecoder().decode(out);
}
