import { describe, expect, it } from 'vitest';
import { VfsError } from '../errors.ts';
import { normalizePath } from '../paths.ts';
import { xxh32 } from './xxhash32.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotEntry, type SnapshotLimits } from './format.ts';

const LIMITS: SnapshotLimits = { maxFileBytes: 1 << 20, maxTotalBytes: 1 << 24, maxFiles: 1000, maxDirectories: 1000, maxPathLength: 4096 };
const utf8 = (s: string) => new TextEncoder().encode(s);
const FILE = 1;
const DIR = 2;

interface RawEntry {
  kind: number;
  path: string | Uint8Array;
  mtime?: number;
  content?: string;
  /** Overrides the stored lengths (to describe more than is there). */
  pathLength?: number;
  contentLength?: number;
}
interface RawHeader {
  version?: number;
  entryCount?: number;
  fileCount?: number;
  contentBytes?: number;
  extraBody?: Uint8Array;
}

/** Writes a snapshot byte by byte, bypassing encodeSnapshot's checks, with correct checksums. */
function build(entries: RawEntry[], header: RawHeader = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  let files = 0;
  let contentBytes = 0;
  for (const e of entries) {
    const path = typeof e.path === 'string' ? utf8(e.path) : e.path;
    const content = utf8(e.content ?? '');
    const fixed = new Uint8Array(21);
    const v = new DataView(fixed.buffer);
    fixed[0] = e.kind;
    v.setUint32(1, e.pathLength ?? path.length, true);
    v.setFloat64(5, e.mtime ?? 0, true);
    v.setUint32(13, e.contentLength ?? content.length, true);
    parts.push(fixed, path, content);
    if (e.kind === FILE) files++;
    contentBytes += content.length;
  }
  if (header.extraBody) parts.push(header.extraBody);
  const bodyLength = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(44 + bodyLength);
  const v = new DataView(out.buffer);
  out.set([0x41, 0x56, 0x46, 0x53, 0x0d, 0x0a, 0x1a, 0x0a]);
  v.setUint32(8, header.version ?? 2, true);
  v.setUint32(12, header.entryCount ?? entries.length, true);
  v.setUint32(16, header.fileCount ?? files, true);
  v.setUint32(24, header.contentBytes ?? contentBytes, true);
  v.setUint32(32, bodyLength, true);
  let off = 44;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return seal(out);
}

/** Recomputes both checksums (XXH32) in place. */
function seal(bytes: Uint8Array): Uint8Array {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  v.setUint32(20, xxh32(bytes.subarray(44)), true);
  v.setUint32(40, xxh32(bytes.subarray(0, 40)), true);
  return bytes;
}

/** Decoding rejects `input` with `message`, the same whether it copies the files or not. */
function rejects(input: unknown, message: RegExp, limits: SnapshotLimits = LIMITS): void {
  const thrown = (copy: boolean): unknown => {
    try {
      decodeSnapshot(input as Uint8Array, limits, { copy });
    } catch (e) {
      return e;
    }
    return undefined;
  };
  const error = thrown(true);
  expect(error, 'decode should throw').toBeInstanceOf(VfsError);
  expect((error as VfsError).code).toBe('ESNAPSHOT');
  expect((error as VfsError).message).toMatch(/^Invalid snapshot: /);
  expect((error as VfsError).message).toMatch(message);
  expect((thrown(false) as VfsError | undefined)?.message).toBe((error as VfsError).message);
}

const GOOD: SnapshotEntry[] = [
  { path: '/docs', kind: 'dir', mtimeMs: 1 },
  { path: '/docs/hi.txt', kind: 'file', mtimeMs: 2, content: utf8('hi\n') },
];
const good = () => encodeSnapshot(GOOD);

describe('decodeSnapshot rejects', () => {
  it('values that are not a Uint8Array, and empty data', () => {
    rejects(good().buffer, /expected a Uint8Array, got an ArrayBuffer \(wrap it/);
    rejects('AVFS', /expected a Uint8Array, got string/);
    rejects(null, /expected a Uint8Array, got null/);
    rejects([0x41], /got an array/);
    rejects(new Uint16Array(30), /got an object \(Uint16Array\)/);
    rejects(new Uint8ClampedArray(good()), /got an object \(Uint8ClampedArray\)/);
    rejects({ [Symbol.toStringTag]: 'Uint8Array', length: 50 }, /expected a Uint8Array, got an object/);
    rejects(new Uint8Array(0), /the data is empty \(0 bytes\)/);
  });

  it('foreign data: wrong magic, gzip, text-mode damage', () => {
    rejects(utf8('{"files": {"/a": "this is JSON, not a snapshot"}}'), /not an agentvfs snapshot \(it does not start with the "AVFS" signature\)/);
    rejects(Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3), /gzip-compressed; decompress it first/);
    const bytes = good();
    const textMode = Uint8Array.of(...bytes.subarray(0, 4), 0x0a, 0x1a, 0x0a, ...bytes.subarray(8));
    rejects(textMode, /text mode/);
  });

  it('a newer or impossible format version', () => {
    rejects(build([], { version: 3 }), /made by a newer agentvfs: format 3, this build reads up to 2/);
    rejects(build([], { version: 0x01000000 }), /format 16777216, this build reads up to 2/);
    rejects(build([], { version: 0 }), /format version 0 does not exist/);
  });

  it('format 1 (pre-release, never read), before its checksums are looked at', () => {
    const refused = /format 1 is a pre-release format this build does not read \(it reads format 2\); restore it with the agentvfs build that wrote it/;
    rejects(build([{ kind: DIR, path: '/docs' }], { version: 1 }), refused); // sealed with XXH32
    const damaged = build([], { version: 1 });
    damaged[40] = damaged[40]! ^ 0xff; // a bad header checksum: the version is still what is reported
    rejects(damaged, refused);
    rejects(damaged.subarray(0, 12), refused); // a bare version field is enough to tell
  });

  it('truncated data, saying expected vs actual length', () => {
    const bytes = good();
    const n = bytes.length;
    rejects(bytes.subarray(0, n - 1), new RegExp(`truncated: expected ${n} bytes, got ${n - 1} \\(1 byte missing\\)`));
    rejects(bytes.subarray(0, 50), new RegExp(`truncated: expected ${n} bytes, got 50 \\(${n - 50} bytes missing\\)`));
    rejects(bytes.subarray(0, 43), /truncated: expected at least 44 bytes \(the header\), got 43/);
    rejects(bytes.subarray(0, 10), /truncated: expected at least 44 bytes \(the header\), got 10/);
    rejects(bytes.subarray(0, 3), /truncated: expected at least 44 bytes \(the header\), got 3/);
  });

  it('trailing bytes after the end', () => {
    const bytes = good();
    rejects(
      Uint8Array.of(...bytes, 0, 0, 0),
      new RegExp(`3 bytes of trailing data after the end of the snapshot \\(expected ${bytes.length} bytes, got ${bytes.length + 3}\\)`),
    );
  });

  it('checksum mismatches in the header and in the body', () => {
    const header = good();
    header[13]! ^= 0x10;
    rejects(header, /header checksum mismatch \(stored 0x[0-9A-F]{8}, computed 0x[0-9A-F]{8}\): the data is corrupted/);
    const body = good();
    body[body.length - 1]! ^= 0x01;
    rejects(body, /body checksum mismatch/);
  });

  it('an unknown kind byte', () => {
    rejects(build([{ kind: 3, path: '/a' }]), /entry 0 at byte 44: unknown kind byte 0x03 \(1 = file, 2 = directory\)/);
    rejects(
      build([
        { kind: DIR, path: '/a' },
        { kind: 0, path: '/b' },
      ]),
      /entry 1 at byte 67: unknown kind byte 0x00/,
    );
  });

  it('a path that is not valid UTF-8', () => {
    for (const tail of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe6, 0x97]]) {
      rejects(build([{ kind: FILE, path: Uint8Array.of(0x2f, ...tail) }]), /entry 0 at byte 44: the path is not valid UTF-8/);
    }
  });

  it('a path that is not absolute and normalized', () => {
    for (const path of ['a/b', '/a//b', '/a/./b', '/a/', '/a/../b', '/a\\b', '\ufeff/a']) {
      rejects(build([{ kind: FILE, path }]), /the path is not absolute and normalized \(normalized it would be "/);
    }
  });

  it('a path that escapes the root, holds a NUL or a line break, has an overlong name, is empty or is the root', () => {
    rejects(build([{ kind: DIR, path: '/../etc' }]), /entry 0 \("\/\.\.\/etc"\): the path is not a valid path \(.*goes above the root/);
    rejects(build([{ kind: FILE, path: '/a\0b' }]), /not a valid path \(.*NUL byte/);
    rejects(build([{ kind: FILE, path: '/a\nb' }]), /not a valid path \(.*line break/);
    rejects(build([{ kind: DIR, path: '/a\rb' }]), /not a valid path \(.*line break/);
    rejects(build([{ kind: FILE, path: `/${'x'.repeat(256)}` }]), /not a valid path \(.*over 255 bytes/);
    rejects(build([{ kind: FILE, path: '' }]), /entry 0 at byte 44: the path is empty/);
    rejects(build([{ kind: DIR, path: '/' }]), /the path is the root "\/", which is implicit/);
  });

  it('duplicate paths', () => {
    rejects(
      build([
        { kind: DIR, path: '/a' },
        { kind: FILE, path: '/b' },
        { kind: FILE, path: '/a' },
      ]),
      /entries 0 and 2 both have the path "\/a"/,
    );
  });

  it('a file or directory under a file', () => {
    rejects(
      build([
        { kind: FILE, path: '/a' },
        { kind: FILE, path: '/a/b' },
      ]),
      /entry 1 \("\/a\/b"\) is under a file: "\/a" \(entry 0\) is a file/,
    );
    rejects(
      build([
        { kind: DIR, path: '/a/b/c' },
        { kind: FILE, path: '/a' },
      ]),
      /entry 0 \("\/a\/b\/c"\) is under a file: "\/a" \(entry 1\)/,
    );
    rejects(
      build([
        { kind: DIR, path: '/d' },
        { kind: FILE, path: '/d/f' },
        { kind: DIR, path: '/d/f/g/h' },
      ]),
      /entry 2 .* "\/d\/f" \(entry 1\) is a file/,
    );
  });

  it('an entry under a file when the entries are in path order (the in-order check) names the same entries', () => {
    rejects(
      build([
        { kind: FILE, path: '/a' },
        { kind: DIR, path: '/a/b/c' },
      ]),
      /^Invalid snapshot: entry 1 \("\/a\/b\/c"\) is under a file: "\/a" \(entry 0\) is a file, not a directory\.$/,
    );
    rejects(
      build([
        { kind: DIR, path: '/a' },
        { kind: FILE, path: '/a/f' },
        { kind: FILE, path: '/a/f/g/h' },
        { kind: FILE, path: '/a/f/i' },
        { kind: FILE, path: '/b' },
      ]),
      /^Invalid snapshot: entry 2 \("\/a\/f\/g\/h"\) is under a file: "\/a\/f" \(entry 1\) is a file, not a directory\.$/,
    );
    // A sibling whose name extends the file's is not under it.
    expect(
      decodeSnapshot(
        build([
          { kind: FILE, path: '/a' },
          { kind: FILE, path: '/a-b' },
          { kind: FILE, path: '/ab' },
        ]),
        LIMITS,
      ),
    ).toHaveLength(3);
  });

  it('accepts a path exactly when it is canonical (the byte-level fast check agrees with normalizePath)', () => {
    const alphabet = ['/', '/', 'a', 'b', '.', '..', '\\', '\0', 'é', '𝄞', 'x'.repeat(84), 'y'.repeat(200), 'é'.repeat(128)];
    let seed = 1;
    const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let t = 0; t < 3000; t++) {
      let path = rand(8) === 0 ? '' : '/';
      for (let k = 1 + rand(6); k > 0; k--) path += alphabet[rand(alphabet.length)];
      if (path === '') continue;
      let canonical: boolean;
      try {
        canonical = path !== '/' && normalizePath(path) === path;
      } catch {
        canonical = false;
      }
      const bytes = build([{ kind: FILE, path }]);
      if (canonical) expect(decodeSnapshot(bytes, LIMITS)[0]!.path, path).toBe(path);
      else expect(() => decodeSnapshot(bytes, LIMITS), path).toThrow(/the path/);
    }
  });

  it('a directory entry with content', () => {
    rejects(build([{ kind: DIR, path: '/d', content: 'hello' }]), /entry 0 \("\/d"\): a directory entry with 5 bytes of content/);
  });

  it('a non-finite modification time', () => {
    rejects(build([{ kind: FILE, path: '/a', mtime: Number.NaN }]), /entry 0 \("\/a"\): the modification time is NaN, not a finite number/);
    rejects(build([{ kind: DIR, path: '/a', mtime: Number.POSITIVE_INFINITY }]), /modification time is Infinity/);
    rejects(build([{ kind: DIR, path: '/a', mtime: Number.NEGATIVE_INFINITY }]), /modification time is -Infinity/);
  });

  it('entries that run past the end or leave bytes over', () => {
    rejects(build([{ kind: FILE, path: '/a' }], { entryCount: 2 }), /entry 1 at byte 67 is cut short/);
    rejects(build([{ kind: FILE, path: '/a', pathLength: 99 }]), /entry 0 at byte 44 is cut short: its 99-byte path runs past the end/);
    rejects(build([{ kind: FILE, path: '/a', contentLength: 1000 }]), /entry 0 \("\/a"\) is cut short: its 1000 bytes of content run past/);
    rejects(build([{ kind: FILE, path: '/a' }], { extraBody: new Uint8Array(5) }), /5 bytes of unexpected data after the last of the 1 entries/);
  });

  it('header counts that disagree with the entries', () => {
    rejects(build([{ kind: FILE, path: '/a' }], { fileCount: 2 }), /the header counts 2 files among only 1 entry\b/);
    rejects(
      build(
        [
          { kind: FILE, path: '/a' },
          { kind: DIR, path: '/b' },
        ],
        { fileCount: 2 },
      ),
      /the header counts 2 files but the entries hold 1/,
    );
    rejects(build([{ kind: FILE, path: '/a', content: 'xy' }], { contentBytes: 10 }), /the header counts 10 content bytes but the files hold 2/);
    // Fewer than the entries hold: a copying decode lays out only what the header counts.
    const two = [
      { kind: FILE, path: '/a', content: 'xy' },
      { kind: FILE, path: '/b', content: 'zw' },
    ];
    rejects(build(two, { fileCount: 1 }), /the header counts 1 file but the entries hold 2/);
    rejects(build(two, { contentBytes: 3 }), /the header counts 3 content bytes but the files hold 4/);
  });

  it('snapshots over the limits', () => {
    const three = build(['/a', '/b', '/c'].map((path) => ({ kind: FILE, path, content: '12345' })));
    rejects(three, /it holds 3 files, over the limit of 2 files/, { ...LIMITS, maxFiles: 2 });
    rejects(three, /it holds 15 bytes of file content, over the limit of 14 bytes/, { ...LIMITS, maxTotalBytes: 14 });
    rejects(three, /entry 0 \("\/a"\): the file is 5 bytes, over the per-file limit of 4 bytes/, { ...LIMITS, maxFileBytes: 4 });
    rejects(build([{ kind: DIR, path: '/ab/cdé' }]), /the path is 8 bytes, over the limit of 7 bytes/, { ...LIMITS, maxPathLength: 7 });
  });

  it('never modifies the input', () => {
    const bytes = good();
    const copy = bytes.slice();
    decodeSnapshot(bytes, LIMITS);
    const broken = bytes.subarray(0, 60);
    expect(() => decodeSnapshot(broken, LIMITS)).toThrow(VfsError);
    expect(bytes).toEqual(copy);
  });
});
