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
  // (A pair is looked at value by value: cloning it whole to ask would copy its bytes.)
  const sendable = (pair: unknown) => (Array.isArray(pair) ? pair.every((value) => kindOf(value) === null) : kindOf(pair) === null);
  if (files.every(sendable)) return files;
  const replaced = (value: unknown) => {
    const kind = kindOf(value);
    return kind === null ? value : marker(kind);
  };
  return files.map((pair) => (Array.isArray(pair) ? pair.map(replaced) : replaced(pair)));
}

/** Whether structured clone can send `value` (plain data: a call's arguments). */
export function canSend(value: unknown): boolean {
  return kindOf(value) === null;
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
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return null;
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
