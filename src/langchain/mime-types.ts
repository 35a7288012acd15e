/**
 * deepagents decides by a file's extension whether it is text (paginated, searched, editable) or
 * not (read whole as bytes, shown to the model as an image, audio, video or file block). These are
 * the extensions it treats as not text, and the text types it names; everything else is text/plain.
 */
const NOT_TEXT: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mpeg: 'video/mpeg',
  mpg: 'video/mpeg',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  flv: 'video/x-flv',
  wmv: 'video/x-ms-wmv',
  '3gpp': 'video/3gpp',
  pdf: 'application/pdf',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const TEXT: Record<string, string> = {
  svg: 'image/svg+xml',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'text/xml',
  json: 'application/json',
  js: 'application/javascript',
  mjs: 'application/javascript',
  cjs: 'application/javascript',
};

/** The MIME type deepagents gives a path, from its extension (a dotfile such as .env has none). */
export function mimeTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'text/plain';
  const ext = name.slice(dot + 1).toLowerCase();
  return NOT_TEXT[ext] ?? TEXT[ext] ?? 'text/plain';
}

export function isTextMimeType(mimeType: string): boolean {
  return mimeType.startsWith('text/') || mimeType === 'application/json' || mimeType === 'application/javascript' || mimeType === 'image/svg+xml';
}
