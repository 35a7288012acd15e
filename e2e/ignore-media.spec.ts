/// <reference lib="dom" />
// The built core in a module Web Worker in real Chromium: .gitignore rules (the bundled `ignore`
// package needs no polyfill) and read_file of an image and a PDF, whose parts cross to the page.
import { expect, test } from '@playwright/test';
import { GIF_16, JPEG_16, makePdf, makePng, WEBP_16 } from '../test/media-fixtures.ts';
import { serveDist } from './static-dist.ts';

const png = makePng(5, 4);
const pdf = makePdf('chromium');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const WORKER = `
import { createStateBackend, createTools } from '/dist/index.js';
const bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const backend = createStateBackend({ files: {
  '/.gitignore': 'dist/\\n*.log\\n!keep.log\\n',
  '/src/app.ts': 'hello', '/src/debug.log': 'hello', '/src/keep.log': 'hello', '/dist/app.js': 'hello',
  '/node_modules/lib/index.js': 'hello',
  '/img/dot.png': bytes('${b64(png)}'), '/doc.pdf': bytes('${b64(pdf)}'),
  '/a.jpg': bytes('${b64(JPEG_16)}'), '/a.gif': bytes('${b64(GIF_16)}'), '/a.webp': bytes('${b64(WEBP_16)}'),
} });
const tools = createTools(backend);
const results = [];
for (const [name, args] of [
  ['glob', { pattern: '**/*.{ts,js,log}' }],
  ['grep', { pattern: 'hello' }],
  ['ls', {}],
  ['glob', { pattern: '**/*.js', respect_git_ignore: false }],
  ['read_file', { path: '/img/dot.png' }],
  ['read_file', { path: '/doc.pdf' }],
  ['read_file', { path: '/a.jpg' }],
  ['read_file', { path: '/a.gif' }],
  ['read_file', { path: '/a.webp' }],
]) results.push(await tools.run(name, args));
postMessage(results);
`;

test('ignore rules and media parts in a module Web Worker, no polyfills', async ({ page }) => {
  const errors = await serveDist(page, { '/worker.js': WORKER });
  const results = await page.evaluate(
    () =>
      new Promise<Array<{ text: string; parts?: Array<{ type: string; mediaType: string; data: string }> }>>((resolve, reject) => {
        const worker = new Worker('/worker.js', { type: 'module' });
        worker.onerror = (e) => reject(new Error(`worker failed: ${e.message}`));
        worker.onmessage = (e) => resolve(e.data);
      }),
  );
  const why = 'ignored by .gitignore or the default .git/ and node_modules/ ignores';
  expect(results[0]!.text.split('\n').slice(0, -1).sort()).toEqual(['/src/app.ts', '/src/keep.log']);
  expect(results[0]!.text.split('\n').at(-1)).toBe(`... [3 more matching files are ${why}; respect_git_ignore: false includes them]`);
  expect(results[1]!.text).toBe(`/src/app.ts\n/src/keep.log\n... [3 files ${why} were not searched; respect_git_ignore: false searches them]`);
  expect(results[2]!.text.split('\n')[1]).toBe(`... [2 entries ${why} not shown; respect_git_ignore: false lists them]`);
  expect(results[3]!.text.split('\n').sort()).toEqual(['/dist/app.js', '/node_modules/lib/index.js']);
  expect(results[4]).toMatchObject({
    text: `/img/dot.png: PNG image (image/png), 5x4 pixels, ${png.length} bytes. The image is attached.`,
    parts: [{ type: 'image', mediaType: 'image/png', data: b64(png) }],
  });
  expect(results[5]!.parts).toEqual([{ type: 'file', mediaType: 'application/pdf', data: b64(pdf) }]);
  // Chromium's own decoders read each attached image at the size the text gives.
  for (const result of [results[4]!, results[6]!, results[7]!, results[8]!]) {
    const part = result.parts![0]!;
    const size = await page.evaluate(async ({ data, mediaType }) => {
      const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: mediaType }));
      return `${bitmap.width}x${bitmap.height} pixels`;
    }, part);
    expect(result.text).toContain(`(${part.mediaType}), ${size},`);
  }
  expect(errors).toEqual([]);
});
