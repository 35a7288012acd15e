/**
 * Messages for writes refused before anything changed, said alike by a single write, a batch and
 * the write tools: what failed, that nothing was written, and one next action (SPEC §3).
 */
import { VfsError } from '../errors.ts';
import { formatBytes } from '../limits.ts';
import { loneSurrogateAt } from '../text.ts';

/** ETOOBIG: writing `size` bytes to `path` would pass the per-file `limit`. */
export function tooBigMessage(path: string, size: number, limit: number): string {
  return `${path} would be ${formatBytes(size)}, over the per-file limit of ${formatBytes(limit)}. Nothing was written. Split the content into smaller files.`;
}

/** EISDIR: a file write to the directory `path`. */
export function isDirMessage(path: string): string {
  return `${path} is a directory. Nothing was written. Write to a file path inside it instead.`;
}

/** ENOTDIR: a write to `path`, under the file `ancestor`. */
export function underFileMessage(ancestor: string, path: string): string {
  return `${ancestor} is a file, so ${path} cannot exist under it. No file was changed. Use a path outside ${ancestor}.`;
}

/**
 * `text` if every character has a UTF-8 form; a lone surrogate would be stored as U+FFFD,
 * silently: EINVAL (`what` names the text). For every write of model text, a tool's own encoding too.
 */
export function wellFormedText(text: string, what: string, path: string): string {
  const at = loneSurrogateAt(text);
  if (at === -1) return text;
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  throw new VfsError(
    'EINVAL',
    `${what} holds a lone UTF-16 surrogate (\\u${unit} at index ${at}), half of a character, which UTF-8 cannot store. Nothing was written. Send the whole character, or leave it out.`,
    { path },
  );
}
