/**
 * Keeps one agentvfs snapshot in Durable Object storage, split into chunks that fit
 * the storage value limit, and replaced atomically.
 *
 * Layout (all keys in the object's own storage):
 *   snap/<generation>/<index>  one chunk of the snapshot (≤ CHUNK_BYTES)
 *   meta                       the manifest: which generation is current, its chunk count,
 *                              byte length and SHA-256; written LAST
 *   quarantine/<stamp>/…       a snapshot that failed to restore, kept aside by `quarantine()`
 *
 * A save writes the chunks of generation N+1 first (at most 128 keys per put), then the
 * manifest naming N+1, then deletes generation N. If the object dies anywhere before the
 * manifest is written, the manifest still names N, whose chunks are untouched: the previous
 * good snapshot survives, and the orphaned chunks of N+1 are deleted on the next load.
 */

/** Under the 128 KiB value limit of the KV-style storage API (with room for serialization overhead). */
export const CHUNK_BYTES = 128 * 1024 - 1024;
/** The storage API accepts at most 128 keys per put/delete call. */
const KEYS_PER_CALL = 128;

export interface Manifest {
  format: 'agentvfs-do-snapshot';
  version: 1;
  generation: number;
  chunks: number;
  bytes: number;
  sha256: string;
  savedAt: number;
}

/** The stored snapshot could not be read back: missing chunks, wrong size or checksum. */
export class StoredSnapshotError extends Error {
  override name = 'StoredSnapshotError';
}

export interface Loaded {
  manifest: Manifest;
  bytes: Uint8Array;
}

const chunkKey = (generation: number, index: number) => `snap/${generation}/${String(index).padStart(6, '0')}`;
const chunkPrefix = (generation: number) => `snap/${generation}/`;

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function putAll(storage: DurableObjectStorage, entries: Record<string, unknown>): Promise<void> {
  const keys = Object.keys(entries);
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
    const batch: Record<string, unknown> = {};
    for (const key of keys.slice(i, i + KEYS_PER_CALL)) batch[key] = entries[key];
    await storage.put(batch);
  }
}

async function deleteAll(storage: DurableObjectStorage, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) await storage.delete(keys.slice(i, i + KEYS_PER_CALL));
}

export async function readManifest(storage: DurableObjectStorage): Promise<Manifest | undefined> {
  return storage.get<Manifest>('meta');
}

/**
 * Reads the current snapshot. Resolves to undefined when none was ever saved; throws
 * StoredSnapshotError when the stored chunks do not add up to what the manifest says.
 */
export async function loadSnapshot(storage: DurableObjectStorage): Promise<Loaded | undefined> {
  const manifest = await readManifest(storage);
  if (!manifest) return undefined;
  if (manifest.format !== 'agentvfs-do-snapshot' || manifest.version !== 1) {
    throw new StoredSnapshotError(`the manifest has an unknown format (${JSON.stringify(manifest.format)} v${String(manifest.version)})`);
  }
  const stored = await storage.list<Uint8Array>({ prefix: chunkPrefix(manifest.generation) });
  const bytes = new Uint8Array(manifest.bytes);
  let offset = 0;
  for (let i = 0; i < manifest.chunks; i++) {
    const chunk = stored.get(chunkKey(manifest.generation, i));
    if (!(chunk instanceof Uint8Array)) {
      throw new StoredSnapshotError(`chunk ${i + 1} of ${manifest.chunks} (generation ${manifest.generation}) is missing`);
    }
    if (offset + chunk.byteLength > bytes.byteLength) {
      throw new StoredSnapshotError(`the chunks hold more than the ${manifest.bytes} bytes the manifest records`);
    }
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  if (offset !== manifest.bytes) {
    throw new StoredSnapshotError(`the chunks hold ${offset} bytes, the manifest records ${manifest.bytes}`);
  }
  const digest = await sha256(bytes);
  if (digest !== manifest.sha256) {
    throw new StoredSnapshotError(`SHA-256 mismatch: stored ${digest}, manifest ${manifest.sha256}`);
  }
  return { manifest, bytes };
}

/** Saves `bytes` as the next generation and makes it current; resolves when it is durable. */
export async function saveSnapshot(storage: DurableObjectStorage, bytes: Uint8Array, previous: Manifest | undefined): Promise<Manifest> {
  const generation = (previous?.generation ?? 0) + 1;
  const chunks: Record<string, Uint8Array> = {};
  let count = 0;
  for (let offset = 0; offset < bytes.byteLength || count === 0; offset += CHUNK_BYTES) {
    chunks[chunkKey(generation, count++)] = bytes.slice(offset, offset + CHUNK_BYTES);
  }
  const manifest: Manifest = {
    format: 'agentvfs-do-snapshot',
    version: 1,
    generation,
    chunks: count,
    bytes: bytes.byteLength,
    sha256: await sha256(bytes),
    savedAt: Date.now(),
  };
  await putAll(storage, chunks); // 1. the new chunks, under a generation nothing points to yet
  await storage.put('meta', manifest); // 2. the commit point
  if (previous) await dropGeneration(storage, previous.generation); // 3. garbage
  return manifest;
}

async function dropGeneration(storage: DurableObjectStorage, generation: number): Promise<void> {
  const keys = [...(await storage.list({ prefix: chunkPrefix(generation) })).keys()];
  await deleteAll(storage, keys);
}

/** Deletes chunks of any generation other than the current one (left by a save that died before its commit). */
export async function dropOrphans(storage: DurableObjectStorage, current: number): Promise<number> {
  const keys = [...(await storage.list({ prefix: 'snap/' })).keys()].filter((k) => !k.startsWith(chunkPrefix(current)));
  await deleteAll(storage, keys);
  return keys.length;
}

/** Everything stored under snap/ and meta, as raw bytes in chunk order (for inspecting a bad snapshot). */
export async function rawStoredBytes(storage: DurableObjectStorage): Promise<Uint8Array> {
  const manifest = await readManifest(storage);
  const prefix = manifest ? chunkPrefix(manifest.generation) : 'snap/';
  const parts = [...(await storage.list<Uint8Array>({ prefix })).values()].filter((v) => v instanceof Uint8Array);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.byteLength;
  }
  return out;
}

/** Moves the current manifest and every chunk under quarantine/<stamp>/ (nothing is deleted); returns the prefix. */
export async function quarantine(storage: DurableObjectStorage, stamp: string): Promise<string> {
  const prefix = `quarantine/${stamp}/`;
  const entries = await storage.list({ prefix: 'snap/' });
  const moved: Record<string, unknown> = {};
  for (const [key, value] of entries) moved[prefix + key] = value;
  const manifest = await readManifest(storage);
  if (manifest !== undefined) moved[`${prefix}meta`] = manifest;
  await putAll(storage, moved);
  await deleteAll(storage, [...entries.keys()]);
  await storage.delete('meta');
  return prefix;
}
