import { isVfsError } from '../errors.ts';
import type { Backend, FileInfo } from './types.ts';

/** `backend.stat(path)`, or null when nothing is there (ENOENT, or ENOTDIR: a file stands where a directory would be). */
export async function statOrNull(backend: Pick<Backend, 'stat'>, path: string): Promise<FileInfo | null> {
  try {
    return await backend.stat(path);
  } catch (error) {
    if (isVfsError(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return null;
    throw error;
  }
}
