/**
 * Messages for writes refused before anything changed, said alike by a single write, a batch and
 * the write tools: what failed, that nothing was written, and one next action (SPEC §3).
 */
import { formatBytes } from '../limits.ts';

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
