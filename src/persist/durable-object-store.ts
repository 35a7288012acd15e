/**
 * A workspace store in a Durable Object's storage (its key-value API, SQLite-backed or not).
 * A save is one `storage.transaction()`: every put and delete lands or none does. A value over
 * the per-value limit is split: `<prefix>v:<key>` then holds `{ chunks }` and the parts live under
 * `<prefix>c:<key>:<i>`; overwriting or deleting a key removes its old parts in the same transaction.
 */
import type { WorkspaceStore } from './store.ts';

/** Under the 128 KiB value limit of the key-value storage API, with room for serialization. */
const CHUNK_BYTES = 120 * 1024;

const NOT_BYTES = new Uint8Array([0]);

/** `value` with a buffer of its own (a view is stored with its whole buffer). */
const own = (value: Uint8Array): Uint8Array => (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice());

/** The slice of `DurableObjectStorage` used here (so the core needs no Workers types). */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  list(options?: { prefix?: string }): Promise<Map<string, unknown>>;
  transaction<T>(work: (txn: DurableObjectTransactionLike) => Promise<T>): Promise<T>;
}
export interface DurableObjectTransactionLike {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
}

export interface DurableObjectStoreOptions {
  /** Prefix of every key this store uses, so the object can keep other data beside it. Default "agentvfs:". */
  prefix?: string;
  /** Largest value written as one key (the storage API's limit is 128 KiB). Default 120 KiB. */
  chunkBytes?: number;
}

export function createDurableObjectStore(storage: DurableObjectStorageLike, options: DurableObjectStoreOptions = {}): WorkspaceStore {
  const prefix = options.prefix ?? 'agentvfs:';
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const valueKey = (key: string) => `${prefix}v:${key}`;
  const chunkKey = (key: string, i: number) => `${prefix}c:${key}:${i}`;

  async function dropChunks(txn: DurableObjectTransactionLike, key: string): Promise<void> {
    const head = await txn.get(valueKey(key));
    const chunks = (head as { chunks?: unknown } | undefined)?.chunks;
    if (typeof chunks === 'number') for (let i = 0; i < chunks; i++) await txn.delete(chunkKey(key, i));
  }

  return {
    async readAll() {
      const stored = await storage.list({ prefix });
      const out = new Map<string, Uint8Array>();
      for (const [k, v] of stored) {
        if (!k.startsWith(`${prefix}v:`)) continue;
        const key = k.slice(prefix.length + 2);
        const chunks = typeof v === 'object' && v !== null ? (v as { chunks?: unknown }).chunks : undefined;
        if (typeof chunks !== 'number') {
          // Anything but bytes (not ours: a null, a string) reads as a record that fails its check, so it is reported.
          out.set(key, v instanceof Uint8Array ? v : v instanceof ArrayBuffer ? new Uint8Array(v) : NOT_BYTES);
          continue;
        }
        const parts: Uint8Array[] = [];
        let size = 0;
        for (let i = 0; i < chunks; i++) {
          const part = stored.get(chunkKey(key, i));
          // A missing part makes the record short: its checksum then reports it.
          if (!(part instanceof Uint8Array)) break;
          parts.push(part);
          size += part.length;
        }
        const whole = new Uint8Array(size);
        let at = 0;
        for (const part of parts) whole.set(part, at), (at += part.length);
        out.set(key, whole);
      }
      return out;
    },
    async write(batch) {
      // Durable Object storage is durable once the transaction resolves; there is no weaker mode.
      await storage.transaction(async (txn) => {
        for (const key of batch.deletes) {
          await dropChunks(txn, key);
          await txn.delete(valueKey(key));
        }
        for (const [key, value] of batch.puts) {
          await dropChunks(txn, key);
          if (value.length <= chunkBytes) {
            await txn.put(valueKey(key), own(value));
            continue;
          }
          const chunks = Math.ceil(value.length / chunkBytes);
          // Copies, not views: workerd serializes a view with its whole buffer, which would be over the limit.
          for (let i = 0; i < chunks; i++) await txn.put(chunkKey(key, i), value.slice(i * chunkBytes, (i + 1) * chunkBytes));
          await txn.put(valueKey(key), { chunks });
        }
      });
    },
  };
}
