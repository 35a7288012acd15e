import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import { GIF_16, JPEG_16, makePdf, makePng, WEBP_16 } from '../media-fixtures.ts';
import type { BackendFactory } from './harness.ts';

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

export function mediaToolSuite(make: BackendFactory) {
  describe('read_file of images and PDFs', () => {
    it('a PNG: one line with its type, size and dimensions, and the image as a part', async () => {
      const png = makePng(3, 2);
      const tools = createTools(await make({ files: { '/img/dot.png': png } }));
      const result = await tools.run('read_file', { path: '/img/dot.png' });
      expect(result).toEqual({
        text: `/img/dot.png: PNG image (image/png), 3x2 pixels, ${png.length} bytes. The image is attached.`,
        isError: false,
        parts: [{ type: 'image', mediaType: 'image/png', data: base64(png) }],
        changed: [],
      });
      expect(await tools.call('read_file', { path: '/img/dot.png' })).toBe(result.text);
    });

    it('JPEG, GIF and WebP by their bytes (whatever the name), with dimensions; a PDF as a file part', async () => {
      const pdf = makePdf();
      const tools = createTools(await make({ files: { '/a.jpg': JPEG_16, '/b.bin': GIF_16, '/c': WEBP_16, '/d.pdf': pdf } }));
      const jpeg = await tools.run('read_file', { path: '/a.jpg' });
      expect(jpeg.text).toBe(`/a.jpg: JPEG image (image/jpeg), 16x16 pixels, ${JPEG_16.length} bytes. The image is attached.`);
      expect(jpeg.parts).toEqual([{ type: 'image', mediaType: 'image/jpeg', data: base64(JPEG_16) }]);
      expect((await tools.run('read_file', { path: '/b.bin' })).text).toBe(
        `/b.bin: GIF image (image/gif), 16x16 pixels, ${GIF_16.length} bytes. The image is attached.`,
      );
      expect((await tools.run('read_file', { path: '/c' })).text).toBe(
        `/c: WebP image (image/webp), 16x16 pixels, ${WEBP_16.length} bytes. The image is attached.`,
      );
      const doc = await tools.run('read_file', { path: '/d.pdf' });
      expect(doc.text).toBe(`/d.pdf: PDF document (application/pdf), version 1.7, ${pdf.length} bytes. The document is attached.`);
      expect(doc.parts).toEqual([{ type: 'file', mediaType: 'application/pdf', data: base64(pdf) }]);
    });

    it('a file with an image signature that cannot be read as one is an error with no part', async () => {
      const png = makePng(3, 2);
      const tools = createTools(await make({ files: { '/cut.png': png.subarray(0, 40), '/x.jpg': Uint8Array.of(0xff, 0xd8, 0xff, 0xd9, 0, 0) } }));
      const cut = await tools.run('read_file', { path: '/cut.png' });
      expect(cut).toEqual({
        text: 'Error: EBINARY: /cut.png is not a valid PNG: it does not end with an IEND chunk (truncated?) (40 bytes). It starts like a PNG but cannot be read as one, so nothing is attached; replace it with write_file or read another file.',
        isError: true,
        code: 'EBINARY',
        changed: [],
      });
      expect(await tools.call('read_file', { path: '/x.jpg' })).toMatch(/^Error: EBINARY: \/x\.jpg is not a valid JPEG: no frame header giving its size/);
    });

    it('over 5 MiB is an error saying so; reading it still counts, so write_file may replace it', async () => {
      const big = makePng(1, 1, 5 * 1024 * 1024 + 1);
      const tools = createTools(await make({ files: { '/big.png': big } }));
      const result = await tools.run('read_file', { path: '/big.png' });
      expect(result.text).toBe(
        `Error: ETOOBIG: /big.png is a PNG image of ${big.length} bytes (5.0 MiB), over the limit of 5242880 bytes (5.0 MiB) for an image or PDF that read_file attaches. Nothing is attached; use a smaller copy of it.`,
      );
      expect(result.parts).toBeUndefined();
      expect(await tools.call('write_file', { path: '/big.png', content: 'x' })).toMatch(/^Updated \/big\.png/);
    });
  });
}
