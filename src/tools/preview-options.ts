/** A preview's options (PreviewOptions), checked where the preview is asked: what is none is a TypeError. */
import type { PreviewOptions } from './types.ts';

export function previewOptions(options: unknown): PreviewOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`a preview's options must be an object such as { after }, not ${Array.isArray(options) ? 'an array' : typeof options}.`);
  }
  const { after } = options as { after?: unknown };
  if (after === undefined) return {};
  const calls = Array.isArray(after) ? after : null;
  if (calls === null || !calls.every((c) => typeof c === 'object' && c !== null && typeof (c as { name?: unknown }).name === 'string')) {
    throw new TypeError("a preview's options.after must be an array of the calls that run before it, each { name, args }.");
  }
  // Plain data: what a worker is sent.
  return { after: calls.map(({ name, args }: { name: string; args?: unknown }) => ({ name, args })) };
}
