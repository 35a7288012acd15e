/**
 * Comlink sends a thrown Error as name/message/stack only. This keeps a
 * VfsError whole (code, path) in both directions; other errors keep Comlink's
 * default treatment. Registered by both edges, each on its own Comlink copy.
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import { isVfsError, VfsError } from '../errors.ts';
import type { WireVfsError } from './protocol.ts';

type Thrown = { value: unknown };
type Serialized = { isError: boolean; value: unknown };

export function preserveVfsErrors(): void {
  const original = transferHandlers.get('throw') as TransferHandler<Thrown, Serialized> | undefined;
  if (!original || (original as { agentvfs?: boolean }).agentvfs) return;
  const handler: TransferHandler<Thrown, Serialized> & { agentvfs: true } = {
    agentvfs: true,
    // Comlink asks every handler about every top-level argument and result: keep this Comlink's own check, no extra call.
    canHandle: original.canHandle,
    serialize(thrown) {
      if (isVfsError(thrown.value)) {
        const wire: WireVfsError = { ...thrown.value.toJSON(), agentvfsError: true };
        return [{ isError: false, value: wire }, []];
      }
      return original.serialize(thrown);
    },
    deserialize(serialized) {
      const value = serialized.value as Partial<WireVfsError> | null;
      if (!serialized.isError && value && value.agentvfsError === true) {
        throw VfsError.fromJSON(value as WireVfsError);
      }
      return original.deserialize(serialized);
    },
  };
  transferHandlers.set('throw', handler as TransferHandler<unknown, unknown>);
}
