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

/** Whether operation i of the kill tests removes its slot's file instead of writing it (one in six, decided by i alone). */
export function removes(i) {
  return i % 6 === 5;
}

/**
 * After which operation of a round the reopened workspace is exactly as it was: from `from` (the
 * last that must be there) to `to` (the last that may have run); start - 1 when it is as the round
 * found it, null when it matches none. Saves are whole and in order, so what reopens is the state
 * after one operation. The round ran operations from `start` in order, operation j on slot
 * j % slots, over `initial(slot)`; `held(slot)` is the write the slot's file holds now
 * (undefined: no file), and `initial` what it held when the round started.
 */
export function stateAfter(held, { initial, start, from, to, slots }) {
  const effect = (slot, j) => (j < start ? initial(slot) : removes(j) ? undefined : j);
  const first = Math.max(from, start - 1);
  let wrong = 0;
  for (let slot = 0; slot < slots; slot++) {
    const last = first < slot ? -1 : slot + Math.floor((first - slot) / slots) * slots; // the slot's last operation up to first
    if (held(slot) !== effect(slot, last)) wrong++;
  }
  if (wrong === 0) return first;
  for (let j = first + 1; j <= to; j++) {
    const slot = j % slots;
    wrong += (effect(slot, j - slots) === held(slot) ? 1 : 0) - (effect(slot, j) === held(slot) ? 1 : 0);
    if (wrong === 0) return j;
  }
  return null;
}
