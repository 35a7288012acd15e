/**
 * A workspace store in a Durable Object's storage (its key-value API, SQLite-backed or not).
 * A save is one `storage.transaction()`: every put and delete lands or none does. A value over
 * the per-value limit is split: `<prefix>v:<key>` then holds `{ chunks }` and the parts live under
 * `<prefix>c:<key>:<i>`; overwriting or deleting a key removes its old parts in the same transaction.
 * A key too long for the storage's 2 KiB keys (a deep path) is stored under a hash of it, its
 * value then `{ key, value }` or `{ key, chunks }`. What was kept aside (`aside:` keys) is left
 * out of `readAll`, so an object does not load it into memory on every wake; `readAside` reads it.
 */
import { checkOptionNames, optionNames } from '../option-names.ts';
import { xxh32 } from '../snapshot/xxhash32.ts';
import { ASIDE_PREFIX as ASIDE, asBytes } from './records.ts';
import type { WorkspaceStore } from './store.ts';

/** Under the storage API's 2 KiB key limit, with room for the prefix and a chunk number. */
const MAX_NAME_BYTES = 1_900;
const encoder = new TextEncoder();

/** Under the 128 KiB value limit of the key-value storage API, with room for serialization. */
const CHUNK_BYTES = 120 * 1024;

/** `value` with a buffer of its own (a view is stored with its whole buffer). */
const own = (value: Uint8Array): Uint8Array => (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice());

/** The slice of `DurableObjectStorage` used here (so the core needs no Workers types). */
export interface DurableObjectStorageLike {
  get(key: string): Promise<unknown>;
  /** As DurableObjectStorage.list: keys under `prefix`, from `start` (inclusive) to `end` (exclusive). */
  list(options?: { prefix?: string; start?: string; end?: string }): Promise<Map<string, unknown>>;
  transaction<T>(work: (txn: DurableObjectTransactionLike) => Promise<T>): Promise<T>;
}
export interface DurableObjectTransactionLike {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<boolean>;
}

export interface DurableObjectStoreOptions {
  /** Prefix of every key this store uses, so the object can keep other data beside it. Default "agentvfs:". */
  prefix?: string | undefined;
  /** Largest value written as one key (the storage API's limit is 128 KiB). Default 120 KiB. */
  chunkBytes?: number | undefined;
}

const STORE_OPTIONS = optionNames<DurableObjectStoreOptions>({ prefix: true, chunkBytes: true });

export function createDurableObjectStore(storage: DurableObjectStorageLike, options: DurableObjectStoreOptions = {}): WorkspaceStore {
  checkOptionNames(options, STORE_OPTIONS, 'agentvfs/persist: createDurableObjectStore');
  const prefix = options.prefix ?? 'agentvfs:';
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const prefixBytes = encoder.encode(prefix).length;
  // Each record's name in storage: its key, or for a key too long, "#" and 96 bits of hashes of it.
  const nameOf = (key: string): string => {
    const bytes = encoder.encode(key);
    if (bytes.length + prefixBytes <= MAX_NAME_BYTES) return key;
    return `#${[0, 1, 2].map((seed) => xxh32(bytes, seed).toString(16).padStart(8, '0')).join('')}`;
  };
  const valueKey = (name: string) => `${prefix}v:${name}`;
  const chunkKey = (name: string, i: number) => `${prefix}c:${name}:${i}`;

  /** Removes the old parts of a record before it is rewritten or deleted; a hashed name another key holds is refused. */
  async function dropChunks(txn: DurableObjectTransactionLike, key: string, name: string): Promise<void> {
    const head = await txn.get(valueKey(name));
    const held = typeof head === 'object' && head !== null && !(head instanceof Uint8Array) ? (head as { key?: unknown; chunks?: unknown }) : undefined;
    if (name !== key && typeof held?.key === 'string' && held.key !== key) {
      throw new Error(
        `agentvfs/persist: two paths hash to the same storage key ${name} (${JSON.stringify(key.slice(0, 60))}… and ${JSON.stringify(held.key.slice(0, 60))}…); nothing was saved. Use shorter paths.`,
      );
    }
    const chunks = held?.chunks;
    // Up to the first part that is not there: a damaged head's count (a billion) must not be trusted.
    if (typeof chunks === 'number') for (let i = 0; i < chunks && (await txn.delete(chunkKey(name, i))); i++);
  }

  /** The records in `stored` (a listing of this store's keys): heads and their parts put together. */
  function assemble(stored: Map<string, unknown>): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const [k, held] of stored) {
      if (!k.startsWith(`${prefix}v:`)) continue;
      const name = k.slice(prefix.length + 2);
      const head = typeof held === 'object' && held !== null ? (held as { key?: unknown; value?: unknown; chunks?: unknown }) : null;
      // A hashed name holds its key beside the value; one that does not, or holds a key that is not
      // stored under that name, is not ours: reported under its own name, so keeping it aside removes it.
      const key = name.startsWith('#') && typeof head?.key === 'string' && nameOf(head.key) === name ? head.key : name;
      const v = name.startsWith('#') ? head?.value : held;
      const chunks = head?.chunks;
      if (typeof chunks !== 'number') {
        // Anything but bytes (not ours: a null, a string) reads as a record that fails its check, so it is reported.
        out.set(key, asBytes(v));
        continue;
      }
      const parts: Uint8Array[] = [];
      let size = 0;
      for (let i = 0; i < chunks; i++) {
        const part = stored.get(chunkKey(name, i));
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
  }

  const listed = async (ranges: { prefix: string; start?: string; end?: string }[]) => {
    const all = new Map<string, unknown>();
    for (const range of ranges) for (const [k, v] of await storage.list(range)) all.set(k, v);
    return all;
  };
  // The key ranges of what was kept aside, heads (v:) and parts (c:): ";" is the character after ":".
  const asideFrom = (space: 'v' | 'c') => `${prefix}${space}:${ASIDE}`;
  const asideTo = (space: 'v' | 'c') => `${prefix}${space}:${ASIDE.slice(0, -1)};`;

  return {
    async readAll() {
      return assemble(
        await listed([
          { prefix, end: asideFrom('c') },
          { prefix, start: asideTo('c'), end: asideFrom('v') },
          { prefix, start: asideTo('v') },
        ]),
      );
    },
    async readAside() {
      return assemble(await listed([{ prefix: asideFrom('v') }, { prefix: asideFrom('c') }]));
    },
    async write(batch) {
      // Durable once the transaction resolves (and workerd's output gate holds back any response
      // sent meanwhile until it is): there is no weaker mode.
      await storage.transaction(async (txn) => {
        for (const key of batch.deletes) {
          const name = nameOf(key);
          await dropChunks(txn, key, name);
          await txn.delete(valueKey(name));
        }
        for (const [key, value] of batch.puts) {
          const name = nameOf(key);
          const hashed = name !== key;
          await dropChunks(txn, key, name);
          // A hashed record holds its key too, which counts against the value limit.
          if (value.length + (hashed ? encoder.encode(key).length : 0) <= chunkBytes) {
            await txn.put(valueKey(name), hashed ? { key, value: own(value) } : own(value));
            continue;
          }
          const chunks = Math.ceil(value.length / chunkBytes);
          // Copies, not views: workerd serializes a view with its whole buffer, which would be over the limit.
          for (let i = 0; i < chunks; i++) await txn.put(chunkKey(name, i), value.slice(i * chunkBytes, (i + 1) * chunkBytes));
          await txn.put(valueKey(name), hashed ? { key, chunks } : { chunks });
        }
      });
    },
  };
}
