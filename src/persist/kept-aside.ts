/**
 * readKeptAside(store): what openPersistent kept aside in a store (a workspace whose records
 * failed their checks, or that was not agentvfs's), with the reason, every record as it was
 * stored, and what still reads of it as a snapshot to restore.
 */
import { isVfsError } from '../errors.ts';
import type { SnapshotEntry } from '../snapshot/format.ts';
import { ASIDE_PREFIX, decodeAside, decodeRecord, isEntryKey, META_KEY, snapshotOf } from './records.ts';
import type { WorkspaceStore } from './store.ts';

export interface KeptAside {
  /** The store key it was kept under (`aside:<time>-<random>`). */
  key: string;
  /** Why it was kept aside (what `restored.reason` said). */
  reason: string;
  /** When, in ms since the epoch. */
  at: number;
  /** Every record as the store held it, by key (`f:<path>`, `d:<path>`, `meta`; `snapshot` for a snapshot adapter's). */
  records: Map<string, Uint8Array>;
  /**
   * Every file and directory record that still passes its check, as a snapshot for
   * `backend.restore()`; null when none does, or when they make no tree.
   */
  salvaged: Uint8Array | null;
  /** The keys of the records left out of `salvaged` (failed their check, or not agentvfs's). */
  damaged: string[];
}

/** Everything kept aside in `store`, oldest first. Reads only: the store is left as it is. */
export async function readKeptAside(store: WorkspaceStore): Promise<KeptAside[]> {
  const held = store.readAside ? await store.readAside() : await store.readAll();
  const keys = [...held.keys()].filter((k) => k.startsWith(ASIDE_PREFIX)).sort(byTime);
  return keys.map((key) => keptAside(key, held.get(key)!));
}

function keptAside(key: string, bytes: Uint8Array): KeptAside {
  let aside: ReturnType<typeof decodeAside>;
  try {
    aside = decodeAside(bytes);
  } catch {
    return {
      key,
      reason: 'this record kept aside does not read as one (it is damaged too)',
      at: NaN,
      records: new Map([[key, bytes]]),
      salvaged: null,
      damaged: [key],
    };
  }
  const entries: SnapshotEntry[] = [];
  const damaged: string[] = [];
  for (const [k, value] of aside.records) {
    if (k === META_KEY) continue;
    const entry = isEntryKey(k) ? decodeRecord(k, value) : 'not a record';
    if (typeof entry === 'string') damaged.push(k);
    else entries.push(entry);
  }
  return { key, reason: aside.reason, at: aside.at, records: new Map(aside.records), salvaged: salvage(entries), damaged };
}

function salvage(entries: SnapshotEntry[]): Uint8Array | null {
  if (entries.length === 0) return null;
  try {
    return snapshotOf(entries);
  } catch (error) {
    if (isVfsError(error) && error.code === 'EINVAL') return null; // records that make no tree
    throw error;
  }
}

// Keys are `aside:<ms>-<random>`: by time, then as strings.
const timeOf = (key: string) => Number.parseInt(key.slice(ASIDE_PREFIX.length), 10);
const byTime = (a: string, b: string) => timeOf(a) - timeOf(b) || (a < b ? -1 : a > b ? 1 : 0);
