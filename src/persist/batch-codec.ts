/**
 * One store batch as bytes, for stores that append batches to a log (the Node file store):
 *   u32 put count | u32 delete count | u8 flags (1: drop legacy)
 *   then per put: u32 key length | key (UTF-8) | u32 value length | value
 *   then per delete: u32 key length | key
 * All numbers little-endian.
 */
import type { StoreBatch } from './store.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeBatch(batch: StoreBatch): Uint8Array {
  const puts = batch.puts.map(([k, v]) => [encoder.encode(k), v] as const);
  const deletes = batch.deletes.map((k) => encoder.encode(k));
  let size = 9;
  for (const [k, v] of puts) size += 8 + k.length + v.length;
  for (const k of deletes) size += 4 + k.length;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, puts.length, true);
  view.setUint32(4, deletes.length, true);
  out[8] = batch.dropLegacy ? 1 : 0;
  let at = 9;
  const put = (bytes: Uint8Array) => {
    view.setUint32(at, bytes.length, true);
    out.set(bytes, at + 4);
    at += 4 + bytes.length;
  };
  for (const [k, v] of puts) {
    put(k);
    put(v);
  }
  for (const k of deletes) put(k);
  return out;
}

/**
 * The batch `bytes` hold (values are views into `bytes`); throws on bytes encodeBatch did not
 * write, those with anything after the last entry included (a damaged count would otherwise read
 * as a shorter batch).
 */
export function decodeBatch(bytes: Uint8Array): StoreBatch {
  if (bytes.length < 9) throw new RangeError('batch truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 9;
  const take = (): Uint8Array => {
    if (at + 4 > bytes.length) throw new RangeError('batch truncated');
    const length = view.getUint32(at, true);
    if (at + 4 + length > bytes.length) throw new RangeError('batch truncated');
    const out = bytes.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return out;
  };
  const putCount = view.getUint32(0, true);
  const deleteCount = view.getUint32(4, true);
  const puts: Array<[string, Uint8Array]> = [];
  for (let i = 0; i < putCount; i++) puts.push([decoder.decode(take()), take()]);
  const deletes: string[] = [];
  for (let i = 0; i < deleteCount; i++) deletes.push(decoder.decode(take()));
  if (at !== bytes.length) throw new RangeError(`batch has ${bytes.length - at} bytes after its last entry`);
  if (bytes[8]! > 1) throw new RangeError(`batch flags ${bytes[8]} are not ones this version writes`);
  return { puts, deletes, ...(bytes[8] === 1 ? { dropLegacy: true } : {}) };
}
