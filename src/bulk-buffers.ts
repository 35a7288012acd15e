/**
 * How a bulk copy (a copying upload, a copying restore) lays out its copies: one rule for both.
 * Under SHARED_FROM_BYTES, a buffer per file: that starts a garbage collection or two at most, and
 * the allocator recycles the buffers of files freed before. From it on, shared buffers of an eighth
 * of the copy each (at least 1 MiB), allocated together, a file over a quarter of one getting a
 * buffer of its own: V8 starts a full garbage collection whenever 64 MB more of ArrayBuffers exist
 * than after the last one, and each walks the whole heap. A shared buffer lives until every file in
 * it has been rewritten or removed. Figures in docs/backend.md and docs/snapshot-format.md.
 */
const SHARED_FROM_BYTES = 128 * 1024 * 1024;
const SHARED_PARTS = 8;
export const MIN_SHARED_BYTES = 1024 * 1024;

/** The size of each shared buffer for a bulk copy of `total` bytes; 0: a buffer per file. */
export function sharedBufferBytes(total: number): number {
  return total < SHARED_FROM_BYTES ? 0 : Math.max(MIN_SHARED_BYTES, Math.ceil(total / SHARED_PARTS));
}

/** Whether a file of `n` bytes gets a buffer of its own, beside shared buffers of `shared` bytes. */
export function ownsBuffer(n: number, shared: number): boolean {
  return n > shared / 4;
}
