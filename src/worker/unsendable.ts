/**
 * uploadFiles' entries that structured clone cannot send (a function, a symbol, an unawaited
 * Promise): each such value travels as a marker of its kind and is rebuilt in the worker as a value
 * of that kind, so the backend refuses that entry as it does in process, and writes the others.
 */
type Kind = 'function' | 'symbol' | 'object';

interface UnsendableMarker {
  agentvfsUnsendable: Kind;
}

/** Client side: `files` with each value that cannot be sent replaced by its marker (the same array when none is). */
export function sendableEntries(files: readonly unknown[]): readonly unknown[] {
  if (files.every((pair) => kindOf(pair) === null && (!Array.isArray(pair) || pair.every((value) => kindOf(value) === null)))) return files;
  return files.map((pair) => {
    const kind = kindOf(pair);
    if (kind !== null) return marker(kind);
    return Array.isArray(pair) ? pair.map((value) => ((k) => (k === null ? value : marker(k)))(kindOf(value))) : pair;
  });
}

/** Worker side: each marker back as a value of its kind. */
export function receivedEntries(files: unknown): unknown {
  if (!Array.isArray(files)) return files;
  return files.map((pair) => (isMarker(pair) ? rebuilt(pair) : Array.isArray(pair) ? pair.map((v) => (isMarker(v) ? rebuilt(v) : v)) : pair));
}

/** The kind of a value structured clone cannot send, or null when it can (bytes and primitives always can). */
function kindOf(value: unknown): Kind | null {
  if (typeof value === 'function') return 'function';
  if (typeof value === 'symbol') return 'symbol';
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer || Array.isArray(value)) return null;
  try {
    structuredClone(value);
    return null;
  } catch {
    return 'object';
  }
}

const marker = (kind: Kind): UnsendableMarker => ({ agentvfsUnsendable: kind });

function isMarker(value: unknown): value is UnsendableMarker {
  const kind = (value as Partial<UnsendableMarker> | null)?.agentvfsUnsendable;
  return typeof value === 'object' && value !== null && (kind === 'function' || kind === 'symbol' || kind === 'object');
}

function rebuilt({ agentvfsUnsendable: kind }: UnsendableMarker): unknown {
  return kind === 'function' ? () => {} : kind === 'symbol' ? Symbol('unsendable') : {};
}
