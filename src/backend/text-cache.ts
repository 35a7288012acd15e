/**
 * The decoded text of recently read, written or edited files, up to a memory budget, least
 * recently used first out. Files are stored as UTF-8 bytes (grep searches bytes), so every
 * readText decoded; an agent reads, edits and re-reads the same few files, and the edit_file
 * tool reads each file it edits back for its snippet.
 *
 * An entry is keyed by path and holds the file's metadata object: every write gives a file new
 * metadata (grep's filters rely on the same rule, see content-filter.ts), so an entry whose
 * metadata is not the file's current one is stale and is never returned.
 *
 * Only text files are kept (no NUL byte, see isBinary), so a hit also answers "is it binary?".
 */
import { isBinary, isWellFormed } from '../text.ts';
import type { Meta } from './tree.ts';

export interface CachedText {
  readonly meta: Meta;
  readonly text: string;
  /** The stored bytes start with a UTF-8 BOM, which `text` does not hold. */
  readonly bom: boolean;
}

interface Entry extends CachedText {
  readonly cost: number;
}

/** Default cap: a working set of files well beyond what an agent holds in context. */
export const DEFAULT_TEXT_CACHE_BYTES = 16 * 1024 * 1024;
// And, past 1 MiB, never more than a quarter of the file bytes stored: the cache adds at most a
// quarter to the memory a filesystem holds, unless it is tiny.
const SHARE_OF_STORED = 1 / 4;
const FLOOR = 1024 * 1024;

// Map entry, metadata key and object header: charged per entry so many tiny files stay bounded.
const ENTRY_OVERHEAD = 96;

export class TextCache {
  readonly #entries = new Map<string, Entry>();
  readonly #cap: number;
  #used = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** Bytes held, as charged (see `cost`). */
  get used(): number {
    return this.#used;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The text of `path` if it was kept for exactly this metadata; marks it recently used. */
  get(path: string, meta: Meta): CachedText | undefined {
    const entry = this.#entries.get(path);
    if (entry === undefined) return undefined;
    if (entry.meta !== meta) {
      this.#drop(path, entry);
      return undefined;
    }
    // Re-inserting moves it to the end of the Map's order: the most recently used.
    this.#entries.delete(path);
    this.#entries.set(path, entry);
    return entry;
  }

  /**
   * Keeps `text`, the decoded content of `path` as of `meta`; `byteLength` is the stored size.
   * The caller guarantees `text` is exactly what decoding those bytes gives and that they are
   * not binary. The budget is the cap or a quarter of `storedBytes` (every file's size; at
   * least 1 MiB), the smaller; text too large for half of it is not kept: it would evict
   * everything else.
   */
  set(path: string, meta: Meta, text: string, bom: boolean, byteLength: number, storedBytes: number): void {
    const old = this.#entries.get(path);
    if (old !== undefined) this.#drop(path, old);
    const budget = Math.min(this.#cap, Math.max(FLOOR, storedBytes * SHARE_OF_STORED));
    const cost = costOf(text, byteLength - (bom ? 3 : 0));
    if (cost > budget / 2) return;
    this.#entries.set(path, { meta, text, bom, cost });
    this.#used += cost;
    for (const [key, entry] of this.#entries) {
      if (this.#used <= budget) break;
      this.#drop(key, entry);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#used = 0;
  }

  #drop(path: string, entry: Entry): void {
    this.#entries.delete(path);
    this.#used -= entry.cost;
  }
}

/**
 * Memory a string holds: engines keep text of Latin-1 characters at one byte each and other
 * text at two. Text whose UTF-8 form is as long as it is has only ASCII; anything else is
 * charged two bytes a character, which may overcharge Latin-1 text but never undercharges.
 */
function costOf(text: string, utf8Length: number): number {
  return ENTRY_OVERHEAD + (utf8Length === text.length ? text.length : 2 * text.length);
}

/**
 * True when `text` is exactly what decoding `utf8`, its UTF-8 encoding as stored (a BOM may
 * precede it), gives back, and those bytes are not binary: no leading U+FEFF (decoding drops
 * one BOM), no NUL where isBinary looks, no lone surrogate (the encoder writes U+FFFD for it).
 * Checked on the bytes where that is cheaper: scanning the string cost as much as decoding.
 */
export function roundTrips(text: string, utf8: Uint8Array): boolean {
  if (text.charCodeAt(0) === 0xfeff || isBinary(utf8)) return false;
  // As many bytes as characters: all ASCII. Otherwise, the encoder writes a lone surrogate as
  // U+FFFD (EF BF BD): without those bytes there is none, and only a text holding U+FFFD pays
  // for a scan of the string.
  return utf8.length === text.length || !holdsReplacementChar(utf8) || isWellFormed(text);
}

function holdsReplacementChar(utf8: Uint8Array): boolean {
  for (let at = utf8.indexOf(0xef); at !== -1; at = utf8.indexOf(0xef, at + 1)) {
    if (utf8[at + 1] === 0xbf && utf8[at + 2] === 0xbd) return true;
  }
  return false;
}
