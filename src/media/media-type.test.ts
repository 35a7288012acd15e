// The header readers on real files (test/media-fixtures.ts) and on headers built for the cases
// the real files do not cover (WebP's lossy and lossless forms, JPEG fill bytes); Chromium's
// decoders check the real files' sizes in e2e/ignore-media.spec.ts.
import { describe, expect, it } from 'vitest';
import { GIF_16, JPEG_16, makePdf, makePng, WEBP_16 } from '../../test/media-fixtures.ts';
import { sniffMedia } from './media-type.ts';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
/** A WebP file of one chunk (or several, each [name, payload]), its sizes as they are in a real one. */
const riff = (chunk: string, payload: number[], ...more: [string, number[]][]) => {
  const chunks = [[chunk, payload] as [string, number[]], ...more].flatMap(([name, data]) => [
    ...ascii(name),
    ...le32(data.length),
    ...data,
    ...(data.length % 2 ? [0] : []),
  ]);
  return Uint8Array.from([...ascii('RIFF'), ...le32(4 + chunks.length), ...ascii('WEBP'), ...chunks]);
};

describe('sniffMedia', () => {
  it('reads type and size of real PNG, JPEG, GIF, WebP and PDF files', () => {
    expect(sniffMedia(makePng(300, 7))).toEqual({ media: { format: 'PNG', mediaType: 'image/png', kind: 'image', width: 300, height: 7 }, invalid: null });
    expect(sniffMedia(JPEG_16)?.media).toMatchObject({ format: 'JPEG', width: 16, height: 16 });
    expect(sniffMedia(GIF_16)?.media).toMatchObject({ format: 'GIF', width: 16, height: 16 });
    expect(sniffMedia(WEBP_16)?.media).toMatchObject({ format: 'WebP', width: 16, height: 16 });
    expect(sniffMedia(makePdf())).toEqual({ media: { format: 'PDF', mediaType: 'application/pdf', kind: 'file', version: '1.7' }, invalid: null });
  });

  it('WebP lossy (VP8) and lossless (VP8L) headers', () => {
    // VP8: frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height (2 bits of scale above).
    expect(sniffMedia(riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02 | 0x40, 0xe0, 0x01]))?.media).toMatchObject({ width: 640, height: 480 });
    // VP8L: signature 0x2f, then width-1 and height-1 in 14 bits each.
    const bits = 639 | (479 << 14);
    expect(sniffMedia(riff('VP8L', [0x2f, bits & 0xff, (bits >>> 8) & 0xff, (bits >>> 16) & 0xff, (bits >>> 24) & 0xff]))?.media).toMatchObject({
      width: 640,
      height: 480,
    });
    expect(sniffMedia(riff('VP8L', [0x00, 0, 0, 0, 0]))?.invalid).toBe('its VP8L stream has no signature byte');
    expect(sniffMedia(riff('VP8L', [0x2f, 0, 0, 0]))?.invalid).toBe('it ends inside its header');
    expect(sniffMedia(riff('ABCD', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]))?.invalid).toBe('no VP8, VP8L or VP8X chunk after the header');
  });

  it('JPEG: fill bytes and segments before the frame header are skipped', () => {
    const sof = [0xff, 0xc2, 0, 11, 8, 0x01, 0x2c, 0x00, 0xc8, 1, 1, 0x11, 0];
    const scan = [0xff, 0xda, 0, 8, 1, 1, 0, 0, 0x3f, 0, 0x12, 0xff, 0x00, 0x34];
    const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2, 0xff, 0xff, ...sof, ...scan, 0xff, 0xd9]);
    expect(sniffMedia(jpeg)?.media).toMatchObject({ format: 'JPEG', width: 200, height: 300 });
    expect(sniffMedia(jpeg.subarray(0, 10))?.invalid).toBe('no frame header giving its size');
  });

  it('a file cut short is not attached, in any format; bytes after the end are allowed', () => {
    const cut = (b: Uint8Array, n: number) => sniffMedia(b.subarray(0, b.length - n))?.invalid;
    expect(cut(JPEG_16, 2)).toBe('its image data does not end with an end-of-image marker (truncated?)');
    expect(cut(JPEG_16, 40)).toBe('its image data does not end with an end-of-image marker (truncated?)');
    // Up to its frame header only (no scan): a thumbnail's header is not an image.
    const sofAt = JPEG_16.findIndex((x, i) => x === 0xff && JPEG_16[i + 1] === 0xc0);
    expect(sniffMedia(JPEG_16.subarray(0, sofAt + 19))?.invalid).toBe('no image data after its frame header (truncated?)');
    expect(cut(GIF_16, 2)).toBe('it ends inside a block (truncated?)');
    expect(cut(GIF_16, GIF_16.length - 13)).toBe('it ends inside a block (truncated?)'); // (inside its colour table)
    expect(sniffMedia(GIF_16.subarray(0, 13).map((x, i) => (i === 10 ? 0 : x)))?.invalid).toBe('it holds no image (truncated?)');
    // Only the trailer missing, or a stray 00 between blocks: the image is whole, as decoders read it.
    expect(cut(GIF_16, 1)).toBeNull();
    expect(sniffMedia(Uint8Array.from([...GIF_16.subarray(0, GIF_16.length - 1), 0, 0x3b]))?.invalid).toBeNull();
    expect(sniffMedia(new TextEncoder().encode('GIF89a is a format I like very much'))?.invalid).toBe('no image or extension block at byte 13');
    expect(cut(WEBP_16, 1)).toBe('it ends before its RIFF size says (truncated?)');
    expect(sniffMedia(riff('VP8X', [0, 0, 0, 0, 0x9f, 0x0f, 0, 0xb7, 0x0b, 0]))?.invalid).toBe('no image chunk after its VP8X header');
    expect(sniffMedia(riff('VP8X', [0, 0, 0, 0, 0x9f, 0x0f, 0, 0xb7, 0x0b, 0], ['VP8L', [0x2f, 0, 0, 0, 0]]))?.media).toMatchObject({
      width: 4000,
      height: 3000,
    });
    const png = makePng(7, 5);
    expect(cut(png, 1)).toBe('it does not end with an IEND chunk (truncated?)');
    for (const [file, format] of [
      [png, 'PNG'],
      [JPEG_16, 'JPEG'],
      [GIF_16, 'GIF'],
    ] as const) {
      expect(sniffMedia(Uint8Array.from([...file, 0x0a, 1, 2, 3]))?.invalid, format).toBeNull();
    }
  });

  it('a signature without a readable file says why; other bytes are not media', () => {
    const png = makePng(2, 2);
    expect(sniffMedia(png.subarray(0, 20))?.invalid).toBe('no IHDR header after the signature');
    expect(sniffMedia(png.subarray(0, png.length - 1))?.invalid).toBe('it does not end with an IEND chunk (truncated?)');
    expect(sniffMedia(Uint8Array.from(ascii('GIF89a')))?.invalid).toBe('it ends inside its header');
    expect(sniffMedia(Uint8Array.from(ascii('%PDF-1.4\n1 0 obj\n')))?.invalid).toBe('no %%EOF marker at its end (truncated?)');
    expect(sniffMedia(Uint8Array.from(ascii('%PDF-x\n%%EOF\n')))?.invalid).toBe('its header has no version (%PDF-1.x)');
    expect(sniffMedia(Uint8Array.from([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WAVE')]))).toBeNull(); // RIFF, but audio
    expect(sniffMedia(new TextEncoder().encode('PNG is a format'))).toBeNull();
    expect(sniffMedia(new Uint8Array())).toBeNull();
  });
});
