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
const le32 = (b: Uint8Array, at: number) => (le24(b, at) + (b[at + 3]! << 24)) >>> 0;

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
  // Chunk by chunk to IEND: bytes after it are allowed (decoders ignore them), a chunk cut short is not.
  for (let i = 8; i + 12 <= b.length; i += 12 + be32(b, i)) if (starts(b, i + 4, 'IEND')) return { width, height };
  return 'it does not end with an IEND chunk (truncated?)';
}

// Start-of-frame markers, which carry the size: C0-CF except C4 (DHT), C8 (JPG) and CC (DAC).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(b: Uint8Array): ReturnType<Reader> {
  let size: { width: number; height: number } | null = null;
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
    if (marker === 0xd9) break; // end of image before any scan
    if (marker === 0xda) {
      if (size === null) break; // a scan before any frame header
      // The image data follows the scan header; it ends at the end-of-image marker (FF D9 cannot
      // occur inside it: a data byte FF is followed by 00), which a file cut short lacks.
      for (let j = b.length - 2; j > i; j--) if (b[j] === 0xff && b[j + 1] === 0xd9) return size;
      return 'its image data does not end with an end-of-image marker (truncated?)';
    }
    if (SOF.has(marker) && size === null) {
      if (i + 9 > b.length) break;
      const height = be16(b, i + 5);
      const width = be16(b, i + 7);
      if (width === 0) return 'its frame header gives a width of 0';
      size = { width, height };
    }
    i += 2 + be16(b, i + 2);
  }
  return size === null ? 'no frame header giving its size' : 'no image data after its frame header (truncated?)';
}

function readGif(b: Uint8Array): ReturnType<Reader> {
  if (b.length < 13) return 'it ends inside its header';
  const width = le16(b, 6);
  const height = le16(b, 8);
  if (width === 0 || height === 0) return `its header gives a size of ${width}x${height}`;
  // Block by block to the trailer (3B): at least one image, nothing cut short. As decoders do, a
  // stray 00 between blocks is passed over, and a file that ends right after a whole image is read.
  const table = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  const subBlocks = (at: number) => {
    while (at < b.length && b[at] !== 0) at += 1 + b[at]!;
    return at + 1; // past the terminator (beyond the end when there is none)
  };
  let images = 0;
  let i = 13 + table(b[10]!);
  while (i < b.length) {
    const block = b[i]!;
    if (block === 0x3b) return images > 0 ? { width, height } : 'it holds no image';
    if (block === 0x00) i++;
    else if (block === 0x21) i = subBlocks(i + 2);
    else if (block === 0x2c) {
      if (i + 10 > b.length) break;
      i = subBlocks(i + 10 + table(b[i + 9]!) + 1); // after the descriptor, its colour table, the LZW code size
      if (i <= b.length) images++;
    } else return `no image or extension block at byte ${i}`;
  }
  if (i === b.length && images > 0) return { width, height };
  return images === 0 && i === b.length ? 'it holds no image (truncated?)' : 'it ends inside a block (truncated?)';
}

function readWebp(b: Uint8Array): ReturnType<Reader> {
  // The RIFF size counts what follows it: a file shorter than that was cut short.
  const end = le32(b, 4) + 8;
  if (b.length < end || end < 20 || b.length < 20 + le32(b, 16)) return 'it ends before its RIFF size says (truncated?)';
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
  if (starts(b, 12, 'VP8X')) {
    // The extended form's header only: the image is in a later chunk (a frame of an animation, or the still image).
    for (let i = 12; i + 8 <= end; i += 8 + le32(b, i + 4) + (le32(b, i + 4) & 1)) {
      if (starts(b, i, 'VP8 ') || starts(b, i, 'VP8L') || starts(b, i, 'ANMF')) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
    }
    return 'no image chunk after its VP8X header';
  }
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
