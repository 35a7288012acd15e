// Shared by the memory probes: a ~50 MB tree of 5,000 files, and a measure of retained memory.
export const FILES = 5_000;
export const FILE_BYTES = 10_000; // 5,000 × 10 KB = 50 MB

export async function loadFiftyMegabytes(backend) {
  const body = 'x'.repeat(FILE_BYTES - 20);
  const encoder = new TextEncoder();
  await backend.uploadFiles(
    Array.from({ length: FILES }, (_, i) => [`/src/d${i % 50}/f${i}.txt`, encoder.encode(`file ${String(i).padStart(8, '0')}\n${body}`)]),
  );
}

/** Heap plus external memory after two full collections (external already includes arrayBuffers), and RSS. */
export function measure() {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external, rss: m.rss };
}
