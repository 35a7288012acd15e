/** read_file of an image or a PDF: one line saying what it is, and the file itself as a part the model can see. */
import { counted } from '../counted.ts';
import { VfsError } from '../errors.ts';
import { formatBytes, MAX_MEDIA_BYTES } from '../limits.ts';
import { toBase64 } from '../media/base64.ts';
import { sniffMedia } from '../media/media-type.ts';
import type { ToolPart } from './types.ts';

/** The result for `bytes` when they are an image or a PDF; null when they are neither. Throws when one cannot be attached. */
export function readMedia(path: string, bytes: Uint8Array): { text: string; parts: ToolPart[] } | null {
  const sniffed = sniffMedia(bytes);
  if (sniffed === null) return null;
  const { media } = sniffed;
  const what = media.kind === 'image' ? `${media.format} image` : `${media.format} document`;
  if (sniffed.invalid !== null) {
    throw new VfsError(
      'EBINARY',
      `${path} is not a valid ${media.format}: ${sniffed.invalid} (${counted(bytes.length, 'byte')}). It starts like a ${media.format} but cannot be read as one, so nothing is attached; replace it with write_file or read another file.`,
      { path },
    );
  }
  if (bytes.length > MAX_MEDIA_BYTES) {
    throw new VfsError(
      'ETOOBIG',
      `${path} is a ${what} of ${counted(bytes.length, 'byte')} (${formatBytes(bytes.length)}), over the limit of ${MAX_MEDIA_BYTES} bytes (${formatBytes(MAX_MEDIA_BYTES)}) for an image or PDF that read_file attaches. Nothing is attached; use a smaller copy of it.`,
      { path },
    );
  }
  const facts = [media.width === undefined ? null : `${media.width}x${media.height} pixels`, media.version === undefined ? null : `version ${media.version}`];
  const detail = [...facts.filter((f) => f !== null), counted(bytes.length, 'byte')].join(', ');
  return {
    text: `${path}: ${what} (${media.mediaType}), ${detail}. The ${media.kind === 'image' ? 'image' : 'document'} is attached.`,
    parts: [{ type: media.kind, mediaType: media.mediaType, data: toBase64(bytes) }],
  };
}
