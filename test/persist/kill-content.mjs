// What write i of the kill tests writes: its number, then bytes derived from it, 1–64 KiB, so a
// file's content says which write made it and whether it is whole.
export function contentOf(i) {
  const size = 1024 + ((i * 7919) % (63 * 1024));
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, i, true);
  for (let j = 4; j < size; j++) out[j] = (i + j) & 0xff;
  return out;
}

/** The write number a file's content came from, or -1 when it is not exactly some write's content. */
export function writeOf(content) {
  if (content.length < 4) return -1;
  const i = new DataView(content.buffer, content.byteOffset, content.byteLength).getUint32(0, true);
  const expected = contentOf(i);
  if (expected.length !== content.length) return -1;
  for (let j = 0; j < content.length; j++) if (expected[j] !== content[j]) return -1;
  return i;
}
