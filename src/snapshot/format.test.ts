import { describe, expect, it } from 'vitest';
import { VfsError } from '../errors.ts';
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_FORMAT_VERSION, type SnapshotEntry, type SnapshotLimits } from './format.ts';

const LIMITS: SnapshotLimits = { maxFileBytes: 1 << 20, maxTotalBytes: 1 << 24, maxFiles: 1000, maxDirectories: 1000, maxPathLength: 4096 };
const utf8 = (s: string) => new TextEncoder().encode(s);
const file = (path: string, content: Uint8Array | string = '', mtimeMs = 1_700_000_000_000): SnapshotEntry => ({
  path,
  kind: 'file',
  mtimeMs,
  content: typeof content === 'string' ? utf8(content) : content,
});
const dir = (path: string, mtimeMs = 1_700_000_000_000): SnapshotEntry => ({ path, kind: 'dir', mtimeMs });

function roundTrip(entries: SnapshotEntry[]): SnapshotEntry[] {
  const bytes = encodeSnapshot(entries);
  const back = decodeSnapshot(bytes, LIMITS);
  expect(back).toEqual(entries);
  expect(encodeSnapshot(back)).toEqual(bytes); // canonical: one tree, one byte string
  return back;
}

/** The example in docs/snapshot-format.md ("A complete example"). */
const GOLDEN_ENTRIES: SnapshotEntry[] = [dir('/docs'), file('/docs/hi.txt', 'hi\n', 1_700_000_000_000.5)];
const GOLDEN_HEX =
  '41 56 46 53 0d 0a 1a 0a 02 00 00 00 02 00 00 00 01 00 00 00 32 5f 87 f8 03 00 00 00 00 00 00 00 ' +
  '3e 00 00 00 00 00 00 00 67 a7 e6 ec 02 05 00 00 00 00 00 80 56 fe bc 78 42 00 00 00 00 00 00 00 ' +
  '00 2f 64 6f 63 73 01 0c 00 00 00 00 08 80 56 fe bc 78 42 03 00 00 00 00 00 00 00 2f 64 6f 63 73 ' +
  '2f 68 69 2e 74 78 74 68 69 0a';
/** The same example in format 1 (CRC-32 checksums), a pre-release format that is now refused. */
const GOLDEN_V1_HEX =
  '41 56 46 53 0d 0a 1a 0a 01 00 00 00 02 00 00 00 01 00 00 00 50 c8 00 39 03 00 00 00 00 00 00 00 ' +
  '3e 00 00 00 00 00 00 00 c3 13 28 b1 02 05 00 00 00 00 00 80 56 fe bc 78 42 00 00 00 00 00 00 00 ' +
  '00 2f 64 6f 63 73 01 0c 00 00 00 00 08 80 56 fe bc 78 42 03 00 00 00 00 00 00 00 2f 64 6f 63 73 ' +
  '2f 68 69 2e 74 78 74 68 69 0a';
const hexBytes = (hex: string) => Uint8Array.from(hex.split(' ').map((h) => parseInt(h, 16)));

describe('snapshot format: round trips', () => {
  it('is version 2', () => {
    expect(SNAPSHOT_FORMAT_VERSION).toBe(2);
  });

  it('refuses format 1 (CRC-32, never released) with ESNAPSHOT naming the format it reads', () => {
    expect(() => decodeSnapshot(hexBytes(GOLDEN_V1_HEX), LIMITS)).toThrow(
      expect.objectContaining({
        code: 'ESNAPSHOT',
        message: expect.stringMatching(/^Invalid snapshot: format 1 is a pre-release format this build does not read \(it reads format 2\)/),
      }),
    );
  });

  it('encodes the documented example byte for byte', () => {
    expect(encodeSnapshot(GOLDEN_ENTRIES)).toEqual(hexBytes(GOLDEN_HEX));
    expect(decodeSnapshot(hexBytes(GOLDEN_HEX), LIMITS)).toEqual(GOLDEN_ENTRIES);
  });

  it('round-trips an empty snapshot as a 44-byte header', () => {
    const bytes = encodeSnapshot([]);
    expect(bytes.length).toBe(44);
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x41, 0x56, 0x46, 0x53, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(decodeSnapshot(bytes, LIMITS)).toEqual([]);
  });

  it('round-trips directories, including empty ones and implied parents', () => {
    roundTrip([dir('/a'), dir('/a/b'), dir('/x/y/z'), dir('/empty')]);
  });

  it('round-trips files in any order, with parents listed or implied', () => {
    roundTrip([file('/z/deep/file.txt', 'deep'), dir('/z'), file('/top.md', '# hi'), file('/empty.txt'), dir('/z/deep')]);
  });

  it('round-trips binary content with all 256 byte values', () => {
    const all = Uint8Array.from({ length: 256 * 3 }, (_, i) => (i * 7) & 0xff);
    const [back] = roundTrip([file('/bin/all.dat', all)]);
    expect(new Set(back!.content).size).toBe(256);
  });

  it('round-trips unicode paths', () => {
    roundTrip([
      file('/café/naïve.txt', 'accents'),
      file('/日本語/ファイル.md', 'cjk'),
      file('/emoji/🎉 party 👩‍👩‍👧.txt', 'astral + ZWJ'),
      file('/combining/e\u0301.txt', 'NFD is kept as is'),
      file('/combining/\u00e9.txt', 'NFC is a different name'),
      dir('/spaces and \t tabs'),
    ]);
  });

  it('round-trips exact float64 timestamps', () => {
    const times = [0, 0.5, 1_700_000_000_000.123, -86_400_000.25, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2];
    const back = roundTrip(times.map((t, i) => file(`/t${i}`, '', t)));
    expect(back.map((e) => e.mtimeMs)).toEqual(times);
    expect(Object.is(decodeSnapshot(encodeSnapshot([dir('/neg', -0)]), LIMITS)[0]!.mtimeMs, -0)).toBe(true);
  });

  it('sizes the output exactly: 44 + per entry 21 + path bytes + content bytes', () => {
    const entries = [dir('/d'), file('/d/é', 'abc')];
    expect(encodeSnapshot(entries).length).toBe(44 + (21 + 2) + (21 + 5 + 3));
  });

  it('returns content that does not alias the input', () => {
    const bytes = encodeSnapshot([file('/a', 'hello'), file('/b', 'world')]);
    const [a, b] = decodeSnapshot(bytes, LIMITS);
    expect(a!.content!.buffer).not.toBe(bytes.buffer);
    bytes.fill(0);
    expect(new TextDecoder().decode(a!.content)).toBe('hello');
    expect(new TextDecoder().decode(b!.content)).toBe('world');
  });

  it('copies every file exactly into a buffer of its own, none aliasing the input (under 128 MiB; body-copy.test.ts has the rest)', () => {
    const bytesOf = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, j) => (seed * 7 + j) & 0xff);
    const entries = [dir('/b'), file('/b/1', bytesOf(300_007, 1)), file('/b/15', ''), file('/b/2', bytesOf(70_000, 2)), dir('/s')];
    for (let i = 0; i < 40; i++) entries.push(file(`/s/${String(i).padStart(2, '0')}`, bytesOf(5_000, i)));
    const bytes = encodeSnapshot(entries);
    const expected = structuredClone(entries);
    const back = decodeSnapshot(bytes, LIMITS);
    bytes.fill(0); // nothing returned is a view into the input
    expect(back).toEqual(expected);
    for (const e of back) if (e.content && e.content.length > 0) expect(e.content.buffer.byteLength).toBe(e.content.length);
  });

  it('decodes from a view at any byte offset of a larger buffer', () => {
    const entries = [
      file(
        '/x',
        Uint8Array.from({ length: 500 }, (_, i) => i & 0xff),
      ),
      dir('/y'),
    ];
    const bytes = encodeSnapshot(entries);
    for (let offset = 1; offset < 8; offset++) {
      const host = new Uint8Array(bytes.length + 16).fill(0xee);
      host.set(bytes, offset);
      expect(decodeSnapshot(host.subarray(offset, offset + bytes.length), LIMITS)).toEqual(entries);
    }
  });

  it('accepts limits that are met exactly', () => {
    const entries = [file('/ab', 'xy'), dir('/cd'), file('/ef', 'z')];
    const exact = { maxFileBytes: 2, maxTotalBytes: 3, maxFiles: 2, maxDirectories: 1, maxPathLength: 3 };
    expect(decodeSnapshot(encodeSnapshot(entries), exact)).toEqual(entries);
    expect(() => decodeSnapshot(encodeSnapshot(entries), { ...exact, maxDirectories: 0 })).toThrow(/it holds 1 directory, over the limit of 0 directories/);
  });
});

describe('encodeSnapshot rejects entries the format cannot hold (EINVAL)', () => {
  const cases: [string, unknown, RegExp][] = [
    ['not an array', 'nope', /expected an array/],
    ['a null entry', [null], /entry 0 is null/],
    ['a relative path', [dir('a/b')], /not absolute and normalized/],
    ['the root', [dir('/')], /root "\/"/],
    ['a path escaping the root', [dir('/../etc')], /not a valid path/],
    ['a lone surrogate', [dir('/bad\ud800name')], /lone UTF-16 surrogate/],
    ['a NaN mtime', [dir('/a', Number.NaN)], /not a finite number/],
    ['an unknown kind', [{ path: '/a', kind: 'link', mtimeMs: 0 }], /kind is "link"/],
    ['a file without content', [{ path: '/a', kind: 'file', mtimeMs: 0 }], /needs its content as a Uint8Array/],
    ['a directory with content', [{ ...dir('/a'), content: utf8('x') }], /directory cannot have content/],
    ['duplicate paths', [dir('/a'), file('/a')], /entries 0 and 1 both have the path "\/a"/],
    ['a file under a file', [file('/a'), file('/a/b/c')], /is under a file/],
  ];
  for (const [name, input, message] of cases) {
    it(name, () => {
      let error: unknown;
      try {
        encodeSnapshot(input as SnapshotEntry[]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(VfsError);
      expect((error as VfsError).code).toBe('EINVAL');
      expect((error as VfsError).message).toMatch(message);
    });
  }
});
