// The copy a copying restore makes: every file's bytes exactly, none aliasing the input, laid out as
// bulk-buffers.ts says (a buffer per file, or shared buffers cut between files, big files apart),
// and the checksum of the whole body, whatever the layout and wherever a damaged body's scan stopped.
import { describe, expect, it } from 'vitest';
import { seeded } from '../../test/seeded.ts';
import { copyBodyHashing } from './body-copy.ts';
import { xxh32 } from './xxhash32.ts';

/** A body of random bytes holding `n` files of random sizes between random gaps (the entry headers). */
function body(random: () => number, n: number) {
  const sizes = Array.from({ length: n }, () => (random() < 0.1 ? 0 : random() < 0.15 ? 2000 + Math.floor(random() * 9000) : Math.floor(random() * 300)));
  const gaps = sizes.map(() => 1 + Math.floor(random() * 40));
  const bodyStart = 7 + Math.floor(random() * 50);
  const length = bodyStart + sizes.reduce((a, b) => a + b, 0) + gaps.reduce((a, b) => a + b, 0);
  const bytes = Uint8Array.from({ length }, () => Math.floor(random() * 256));
  const files = new Float64Array(2 * n);
  let count = 0;
  let at = bodyStart;
  for (let i = 0; i < n; i++) {
    at += gaps[i]!;
    if (sizes[i]! > 0) {
      files[2 * count] = at;
      files[2 * count + 1] = at + sizes[i]!;
      count++;
    }
    at += sizes[i]!;
  }
  return { bytes, bodyStart, files, count };
}

describe('copyBodyHashing', () => {
  it('copies every file exactly, hashes the whole body, and lays the copy out by the rule', () => {
    const random = seeded(0x5eed);
    for (let round = 0; round < 300; round++) {
      const { bytes, bodyStart, files, count } = body(random, 1 + Math.floor(random() * 60));
      const shared = [0, 64, 1000, 4096, 1 << 20][round % 5]!;
      // Some rounds stop the scan early, as on a damaged body: what follows is hashed, not copied.
      const kept = round % 7 === 0 ? Math.floor(count / 2) : count;
      const scanned = kept === count ? bytes.length : files[2 * kept]!;
      const original = bytes.slice();
      const copy = copyBodyHashing(bytes, bodyStart, files, kept, scanned, shared);
      expect(copy.checksum).toBe(xxh32(original.subarray(bodyStart)));
      // Every file, also those past where the scan stopped (decoding asks for them when the header's counts are wrong).
      const contents = Array.from({ length: count }, (_, i) => copy.contentAt(files[2 * i]!, files[2 * i + 1]! - files[2 * i]!));
      bytes.fill(0); // nothing handed out may be a view into the input
      const buffers = new Map<ArrayBufferLike, number>();
      for (let i = 0; i < count; i++) {
        const [start, end] = [files[2 * i]!, files[2 * i + 1]!];
        const content = contents[i]!;
        expect(content).toEqual(original.subarray(start, end));
        buffers.set(content.buffer, (buffers.get(content.buffer) ?? 0) + 1);
        if (shared === 0 || end - start > shared / 4 || i >= kept) expect(content.buffer.byteLength).toBe(end - start); // a buffer of its own, copied once
      }
      // A shared buffer holds about `shared` bytes: one survivor keeps that much alive, not the whole copy.
      for (const [buffer, files] of buffers) if (files > 1) expect(buffer.byteLength).toBeLessThanOrEqual(shared + shared / 4 + 40);
    }
  });

  it('hands out an empty array for an empty file, and checksums an empty body', () => {
    const bytes = new Uint8Array(16);
    const copy = copyBodyHashing(bytes, 16, new Float64Array(0), 0, 16);
    expect(copy.checksum).toBe(xxh32(new Uint8Array(0)));
    expect(copy.contentAt(16, 0)).toEqual(new Uint8Array(0));
  });
});
