/**
 * A write that replaces a file needs the file read first (or, where the vendor's tool does not,
 * still reads it). When the permissions forbid reading it, "read it first" is no way forward:
 * the refusal says the write cannot be done at all.
 */
import type { Backend } from '../backend/types.ts';
import { isVfsError, VfsError } from '../errors.ts';

/** The EACCES a read of `path` meets (the permissions' rule), or null when it may be read. */
export async function readRefusal(backend: Backend, path: string): Promise<VfsError | null> {
  return backend.read(path).then(
    () => null,
    (error: unknown) => (isVfsError(error) && error.code === 'EACCES' ? error : null),
  );
}

/** EACCES for a write of `path` that needs the read `refusal` forbids: the rule, then `why` and what to do. */
export function cannotReplace(refusal: VfsError, path: string, why: string): VfsError {
  // The write rule's refusal (a writing call meets it first: forWriting) says all there is.
  if (!refusal.message.includes(' Nothing was read.')) return refusal;
  // The rule without the read's own outcome and advice ("Nothing was read. Use a path …").
  return new VfsError('EACCES', `${refusal.message.replace(/ Nothing was read\..*$/, '')} ${why}`, { path });
}

/** Refuses an overwrite of `path` that this tool set may not read: `tool` replaces only what it may read. */
export async function refuseBlindOverwrite(backend: Backend, path: string, tool: string): Promise<void> {
  const refusal = await readRefusal(backend, path);
  if (refusal !== null)
    throw cannotReplace(refusal, path, `${tool} replaces only a file this tool set may read. Nothing was written. Write to a new path instead.`);
}
