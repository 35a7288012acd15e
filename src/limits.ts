/**
 * Size limits, enforced before anything is written. The defaults keep a
 * browser tab safe (a tab typically dies somewhere past 1–4 GB of heap) while
 * leaving room for real projects; pass `Infinity` to lift one.
 */
import { checkOptionNames } from './option-names.ts';

export interface Limits {
  /** Largest single file, in bytes. Default 16 MiB. */
  maxFileBytes: number;
  /** Sum of all file sizes, in bytes. Default 256 MiB. */
  maxTotalBytes: number;
  /** Number of files (directories not counted). Default 100,000. */
  maxFiles: number;
  /**
   * Number of directories (the root not counted), those a deep path implies too. Default 100,000.
   * Each is a path of its own in a snapshot: without a bound, a few files thousands of levels deep
   * make a snapshot of gigabytes.
   */
  maxDirectories: number;
  /** Longest normalized absolute path, in UTF-16 characters. Default 4,096. */
  maxPathLength: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxFileBytes: 16 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFiles: 100_000,
  maxDirectories: 100_000,
  maxPathLength: 4096,
});

export function resolveLimits(partial: Partial<Limits> | undefined): Limits {
  if (partial !== undefined && (typeof partial !== 'object' || partial === null))
    throw new TypeError('agentvfs: limits must be an object of limit name → number.');
  checkOptionNames(partial ?? {}, Object.keys(DEFAULT_LIMITS), 'agentvfs: limits');
  // A limit set to undefined keeps its default, as one left out does (a spread would copy the undefined).
  const given = Object.entries(partial ?? {}).filter(([, value]) => value !== undefined);
  const limits = { ...DEFAULT_LIMITS, ...Object.fromEntries(given) };
  for (const [key, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      throw new TypeError(`agentvfs: limits.${key} must be a non-negative number (or Infinity), got ${String(value)}.`);
    }
  }
  return limits;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Largest image or PDF read_file attaches, in bytes (5 MiB): model APIs refuse larger images
 * (Anthropic's limit per image is 5 MB), and base64 makes it a third larger again.
 */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;

/** How every EQUOTA error ends for a backend caller, who can remove files (tools reword it: few of them remove anything). */
export const QUOTA_NEXT_STEP = 'Nothing was written; remove files to make room.';
