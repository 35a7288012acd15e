import { counted } from '../counted.ts';
import { isVfsError, VfsError } from '../errors.ts';

/**
 * The error for a sound stored workspace that a restore into this backend refused (its limits
 * cannot hold it): no damage, so nothing is kept aside and the store stays as it is. Null for
 * any other failure, which the caller handles as its own.
 */
export function notFitting(entries: number, error: unknown): VfsError | null {
  if (!isVfsError(error) || !['ESNAPSHOT', 'EQUOTA', 'ETOOBIG'].includes(error.code)) return null;
  return new VfsError(
    'EQUOTA',
    `agentvfs/persist: the stored workspace (${counted(entries, 'entry', 'entries')}) does not fit this backend: ${error.message} It was not opened, and the store is unchanged: open it into a backend whose limits hold it.`,
    { cause: error },
  );
}
