import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cpuClock } from '../../test/cpu-time.ts';
import { VfsError } from '../errors.ts';
import { xxh32 } from './xxhash32.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotEntry, type SnapshotLimits } from './format.ts';

const LIMITS: SnapshotLimits = { maxFileBytes: 1 << 20, maxTotalBytes: 1 << 24, maxFiles: 1000, maxDirectories: 1000, maxPathLength: 4096 };

// ---- property tests --------------------------------------------------------

const segment = fc
  .oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }), fc.constantFrom('a', 'b', 'src', 'index.ts', 'é', '🎉'))
  .filter((s) => !/[/\\\0\n\r]/.test(s) && s !== '.' && s !== '..');
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => `/${segments.join('/')}`);
const itemArb = fc.record({
  path: pathArb,
  dir: fc.boolean(),
  mtimeMs: fc.double({ noNaN: true, noDefaultInfinity: true }),
  content: fc.uint8Array({ maxLength: 64 }),
});
/** Random trees: unique paths; anything with a listed descendant is a directory. */
const treeArb = fc.uniqueArray(itemArb, { selector: (item) => item.path, maxLength: 30 }).map((items) =>
  items.map(({ path, dir, mtimeMs, content }): SnapshotEntry => {
    const hasChild = items.some((other) => other.path.startsWith(`${path}/`));
    return dir || hasChild ? { path, kind: 'dir', mtimeMs } : { path, kind: 'file', mtimeMs, content };
  }),
);

describe('snapshot format: properties', () => {
  it('random trees round-trip exactly and canonically', () => {
    fc.assert(
      fc.property(treeArb, (tree) => {
        const bytes = encodeSnapshot(tree);
        const back = decodeSnapshot(bytes, LIMITS);
        expect(back).toEqual(tree);
        back.forEach((e, i) => {
          expect(Object.is(e.mtimeMs, tree[i]!.mtimeMs)).toBe(true);
        });
        expect(encodeSnapshot(back)).toEqual(bytes);
      }),
      { seed: 20_261_101, numRuns: 300 },
    );
  });

  it('arbitrary bytes, with or without a valid signature, are rejected with ESNAPSHOT', () => {
    const magic = encodeSnapshot([]).subarray(0, 12);
    fc.assert(
      fc.property(fc.boolean(), fc.uint8Array({ maxLength: 200 }), (prefixed, tail) => {
        const bytes = prefixed ? Uint8Array.of(...magic, ...tail) : tail;
        expect(() => decodeSnapshot(bytes, LIMITS)).toThrow(expect.objectContaining({ code: 'ESNAPSHOT' }));
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});

// ---- seeded mutation fuzzing -----------------------------------------------

/** mulberry32: a tiny seeded PRNG, so a failure names a reproducible iteration. */
function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
  };
}

const bytesOf = (s: string) => new TextEncoder().encode(s);
const ORIGINAL: SnapshotEntry[] = [
  { path: '/project', kind: 'dir', mtimeMs: 1_700_000_000_000 },
  { path: '/project/README.md', kind: 'file', mtimeMs: 1_700_000_000_001.5, content: bytesOf('# Title\n\nSome text.\n') },
  { path: '/project/src/index.ts', kind: 'file', mtimeMs: 1_700_000_000_002, content: bytesOf('export const x = 1;\n') },
  { path: '/project/src/empty.ts', kind: 'file', mtimeMs: 0, content: new Uint8Array(0) },
  { path: '/project/bin/blob.dat', kind: 'file', mtimeMs: -1.25, content: Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff) },
  { path: '/project/docs/日本語 🎉.txt', kind: 'file', mtimeMs: 42, content: bytesOf('ユニコード\n') },
  { path: '/project/docs', kind: 'dir', mtimeMs: 43 },
  { path: '/tmp/a/b/c', kind: 'dir', mtimeMs: 44 },
  { path: '/tmp/x', kind: 'file', mtimeMs: 45, content: bytesOf('x') },
];

type Mutation = (b: Uint8Array, r: (n: number) => number) => Uint8Array;
const int = (r: (n: number) => number, n: number) => Math.floor(r(n));
const randomBytes = (r: (n: number) => number, n: number) => Uint8Array.from({ length: n }, () => int(r, 256));
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
};

const MUTATIONS: Record<string, Mutation> = {
  flipBits(b, r) {
    const out = b.slice();
    for (let k = 1 + int(r, 4); k > 0; k--) out[int(r, out.length)]! ^= 1 << int(r, 8);
    return out;
  },
  setByte(b, r) {
    const out = b.slice();
    out[int(r, out.length)] = int(r, 256); // sometimes the same value: identical bytes
    return out;
  },
  truncate: (b, r) => b.slice(0, int(r, b.length)),
  insert(b, r) {
    const at = int(r, b.length + 1);
    return join(b.subarray(0, at), randomBytes(r, 1 + int(r, 16)), b.subarray(at));
  },
  deleteRange(b, r) {
    const at = int(r, b.length);
    return join(b.subarray(0, at), b.subarray(at + 1 + int(r, 32)));
  },
  spliceCopy(b, r) {
    const from = int(r, b.length);
    const piece = b.slice(from, from + 1 + int(r, 40));
    const to = int(r, b.length);
    const out = b.slice();
    out.set(piece.subarray(0, out.length - to), to); // copy bytes from elsewhere over these
    return out;
  },
  duplicateRange(b, r) {
    const from = int(r, b.length);
    const at = int(r, b.length + 1);
    return join(b.subarray(0, at), b.subarray(from, from + 1 + int(r, 60)), b.subarray(at));
  },
  overwriteHeaderWord(b, r) {
    const out = b.slice();
    const words = [0xffffffff, 0, 1, 2, 0x7fffffff, 0x80000000, int(r, 2 ** 32), int(r, 1000)];
    new DataView(out.buffer).setUint32(4 * int(r, 11), words[int(r, words.length)]!, true);
    return out;
  },
};

/** Makes the mutated bytes self-consistent again (body length and both checksums), so the parser proper is exercised. */
function reseal(b: Uint8Array, fixLength: boolean): Uint8Array {
  if (b.length < 44) return b;
  const out = b.slice();
  const v = new DataView(out.buffer);
  if (fixLength) {
    v.setUint32(32, out.length - 44, true);
    v.setUint32(36, 0, true);
  }
  v.setUint32(20, xxh32(out.subarray(44)), true);
  v.setUint32(40, xxh32(out.subarray(0, 40)), true);
  return out;
}

function tryDecode(bytes: Uint8Array, context: string): SnapshotEntry[] | VfsError {
  try {
    return decodeSnapshot(bytes, LIMITS);
  } catch (error) {
    if (error instanceof VfsError && error.code === 'ESNAPSHOT' && error.message.startsWith('Invalid snapshot: ')) return error;
    throw new Error(`${context}: decode threw something other than ESNAPSHOT: ${String(error)}`, { cause: error });
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

describe('snapshot format: seeded mutation fuzzing', () => {
  it('10,000+ mutations: raw ones are rejected unless unchanged; resealed ones are rejected or decode canonically', () => {
    const original = encodeSnapshot(ORIGINAL);
    const names = Object.keys(MUTATIONS);
    const r = prng(0xa7f5);
    const stats = { rejected: 0, unchanged: 0, resealedAccepted: 0, resealedRejected: 0 };
    const cpu = cpuClock(); // not the wall clock: other processes of a loaded machine stretch that
    for (let i = 0; i < 12_000; i++) {
      const name = names[i % names.length]!;
      const mutated = MUTATIONS[name]!(original, r);
      const context = `iteration ${i} (${name})`;

      const raw = tryDecode(mutated, context);
      if (sameBytes(mutated, original)) {
        expect(raw, context).toEqual(ORIGINAL);
        stats.unchanged++;
      } else {
        expect(raw, `${context}: changed bytes were accepted`).toBeInstanceOf(VfsError);
        stats.rejected++;
      }

      const sealed = reseal(mutated, r(1) < 0.7);
      const result = tryDecode(sealed, `${context}, resealed`);
      if (result instanceof VfsError) {
        stats.resealedRejected++;
      } else {
        // Whatever is accepted is a valid tree whose canonical encoding is exactly these bytes.
        expect(sameBytes(encodeSnapshot(result), sealed), `${context}, resealed: accepted bytes are not canonical`).toBe(true);
        stats.resealedAccepted++;
      }
    }
    expect(stats.rejected + stats.unchanged).toBe(12_000);
    expect(stats.rejected).toBeGreaterThan(11_000);
    expect(stats.resealedRejected).toBeGreaterThan(1000); // the parser's own checks were reached
    expect(stats.resealedAccepted).toBeGreaterThan(100); // and some mutations (content, mtime bits) were valid
    expect(cpu()).toBeLessThan(10_000);
  });
});
