/**
 * CRC-32 (IEEE 802.3; the zlib / PNG / gzip checksum): reflected polynomial
 * 0xEDB88320, initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF.
 * `crc32(utf8("123456789")) === 0xCBF43926`.
 *
 * Slicing-by-16: sixteen 256-entry tables in one Int32Array (signed, so V8
 * keeps every value a small integer), reading the aligned middle of the input
 * as 32-bit words. Pure JS, runtime-neutral.
 */

const TABLE = new Int32Array(16 * 256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLE[n] = c;
}
for (let n = 0; n < 256; n++) {
  let c = TABLE[n]!;
  for (let t = 1; t < 16; t++) {
    c = TABLE[c & 0xff]! ^ (c >>> 8);
    TABLE[t * 256 + n] = c;
  }
}

/** Word reads below assume a little-endian host (all current engines); otherwise we go byte by byte. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function bytewise(c: number, b: Uint8Array, start: number, end: number): number {
  const t = TABLE;
  for (let i = start; i < end; i++) c = t[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

/**
 * CRC-32 of `bytes`. Pass the result of a previous call as `previous` to
 * continue over the next chunk: `crc32(b, crc32(a))` equals `crc32(a ++ b)`.
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = ~previous;
  const n = bytes.length;
  if (n < 64 || !LITTLE_ENDIAN) return ~bytewise(c, bytes, 0, n) >>> 0;

  // Bytes up to the first 4-byte-aligned address, then 16-byte blocks as words, then the rest.
  const head = (4 - (bytes.byteOffset & 3)) & 3;
  c = bytewise(c, bytes, 0, head);
  const wordCount = ((n - head) >>> 4) << 2;
  const w = new Int32Array(bytes.buffer, bytes.byteOffset + head, wordCount);
  const t = TABLE;
  for (let j = 0; j < wordCount; j += 4) {
    c ^= w[j]!;
    const w1 = w[j + 1]!;
    const w2 = w[j + 2]!;
    const w3 = w[j + 3]!;
    c =
      t[3840 | (c & 0xff)]! ^ t[3584 | ((c >>> 8) & 0xff)]! ^ t[3328 | ((c >>> 16) & 0xff)]! ^ t[3072 | (c >>> 24)]! ^
      t[2816 | (w1 & 0xff)]! ^ t[2560 | ((w1 >>> 8) & 0xff)]! ^ t[2304 | ((w1 >>> 16) & 0xff)]! ^ t[2048 | (w1 >>> 24)]! ^
      t[1792 | (w2 & 0xff)]! ^ t[1536 | ((w2 >>> 8) & 0xff)]! ^ t[1280 | ((w2 >>> 16) & 0xff)]! ^ t[1024 | (w2 >>> 24)]! ^
      t[768 | (w3 & 0xff)]! ^ t[512 | ((w3 >>> 8) & 0xff)]! ^ t[256 | ((w3 >>> 16) & 0xff)]! ^ t[w3 >>> 24]!;
  }
  return ~bytewise(c, bytes, head + wordCount * 4, n) >>> 0;
}
