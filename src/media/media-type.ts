/**
 * Images (PNG, JPEG, GIF, WebP) and PDF recognised by their bytes, never by their names, with
 * the facts a model needs (type, pixel size) read from the header. A file that starts with one
 * of these signatures but cannot be read as that format is reported as invalid, not attached.
 */
interface Media {
  /** The format's name as people say it: "PNG", "JPEG", "GIF", "WebP", "PDF". */
  format: string;
  mediaType: string;
  kind: 'image' | 'file';
  /** Pixel size, for images. */
  width?: number;
  height?: number;
  /** The PDF version from its header, e.g. "1.7". */
  version?: string;
}

/** What the bytes claim to be: null for none of these formats; `invalid` says why one cannot be read. */
export type Sniffed = null | { media: Media; invalid: string | null };

const starts = (b: Uint8Array, at: number, ascii: string): boolean => {
  if (b.length < at + ascii.length) return false;
  for (let i = 0; i < ascii.length; i++) if (b[at + i] !== ascii.charCodeAt(i)) return false;
  return true;
};
const be16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const be32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const le16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const le24 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

type Reader = (b: Uint8Array) => Pick<Media, 'width' | 'height' | 'version'> | string;

interface Format {
  format: string;
  mediaType: string;
  kind: 'image' | 'file';
  is(b: Uint8Array): boolean;
  read: Reader;
}

const FORMATS: readonly Format[] = [
  { format: 'PNG', mediaType: 'image/png', kind: 'image', is: (b) => starts(b, 0, '\x89PNG\r\n\x1a\n'), read: readPng },
  { format: 'JPEG', mediaType: 'image/jpeg', kind: 'image', is: (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, read: readJpeg },
  { format: 'GIF', mediaType: 'image/gif', kind: 'image', is: (b) => starts(b, 0, 'GIF87a') || starts(b, 0, 'GIF89a'), read: readGif },
  { format: 'WebP', mediaType: 'image/webp', kind: 'image', is: (b) => starts(b, 0, 'RIFF') && starts(b, 8, 'WEBP'), read: readWebp },
  { format: 'PDF', mediaType: 'application/pdf', kind: 'file', is: (b) => starts(b, 0, '%PDF-'), read: readPdf },
];

export function sniffMedia(bytes: Uint8Array): Sniffed {
  const format = FORMATS.find((f) => f.is(bytes));
  if (format === undefined) return null;
  const { format: name, mediaType, kind } = format;
  const read = format.read(bytes);
  if (typeof read === 'string') return { media: { format: name, mediaType, kind }, invalid: read };
  return { media: { format: name, mediaType, kind, ...read }, invalid: null };
}

function readPng(b: Uint8Array): ReturnType<Reader> {
  if (b.length < 33 || !starts(b, 12, 'IHDR')) return 'no IHDR header after the signature';
  const width = be32(b, 16);
  const height = be32(b, 20);
  if (width === 0 || height === 0) return `its header gives a size of ${width}x${height}`;
  if (!starts(b, b.length - 8, 'IEND')) return 'it does not end with an IEND chunk (truncated?)';
  return { width, height };
}

// Start-of-frame markers, which carry the size: C0-CF except C4 (DHT), C8 (JPG) and CC (DAC).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(b: Uint8Array): ReturnType<Reader> {
  let i = 2;
  while (i + 3 < b.length) {
    if (b[i] !== 0xff) return `no marker at byte ${i}`;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or the scan before any frame header
    if (SOF.has(marker)) {
      if (i + 9 > b.length) break;
      const height = be16(b, i + 5);
      const width = be16(b, i + 7);
      if (width === 0) return 'its frame header gives a width of 0';
      return { width, height };
    }
    i += 2 + be16(b, i + 2);
  }
  return 'no frame header giving its size';
}

function readGif(b: Uint8Array): ReturnType<Reader> {
  if (b.length < 13) return 'it ends inside its header';
  const width = le16(b, 6);
  const height = le16(b, 8);
  if (width === 0 || height === 0) return `its header gives a size of ${width}x${height}`;
  return { width, height };
}

function readWebp(b: Uint8Array): ReturnType<Reader> {
  // The size ends at byte 30 of a VP8 or VP8X file, at byte 25 of a VP8L one.
  if (b.length < (starts(b, 12, 'VP8L') ? 25 : 30)) return 'it ends inside its header';
  if (starts(b, 12, 'VP8 ')) {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return 'its VP8 frame has no start code';
    return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  }
  if (starts(b, 12, 'VP8L')) {
    if (b[20] !== 0x2f) return 'its VP8L stream has no signature byte';
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (starts(b, 12, 'VP8X')) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  return 'no VP8, VP8L or VP8X chunk after the header';
}

function readPdf(b: Uint8Array): ReturnType<Reader> {
  const version = String.fromCharCode(...b.subarray(5, 8));
  if (!/^\d\.\d$/.test(version)) return 'its header has no version (%PDF-1.x)';
  // The trailer's %%EOF is within the last KiB (allowing trailing whitespace or junk some writers add).
  const tail = String.fromCharCode(...b.subarray(Math.max(0, b.length - 1024)));
  if (!tail.includes('%%EOF')) return 'no %%EOF marker at its end (truncated?)';
  return { version };
}
