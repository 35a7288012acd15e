/**
 * When a debounced save runs: `debounceMs` after the last mutation, and never later than
 * `maxWaitMs` after the first unsaved one, so a steady stream of mutations cannot hold a save
 * back for ever. Shared by the snapshot (persistent.ts) and incremental (incremental.ts) savers.
 */
import type { SaveDurability } from './adapter.ts';

export interface SaveScheduler {
  /** A mutation happened: (re)start the debounce, and start the maximum wait unless it runs. */
  schedule(): void;
  /** Drops the pending timers (a save about to run by other means, or closing). */
  cancel(): void;
  /** No more scheduling: later schedule() calls do nothing. */
  close(): void;
}

export function saveScheduler(options: {
  debounceMs: number;
  maxWaitMs: number;
  save: (durability: SaveDurability) => Promise<void>;
  onError: ((error: Error) => void) | undefined;
}): SaveScheduler {
  const { debounceMs, maxWaitMs, save, onError } = options;
  let timer: unknown = null; // restarts on every mutation
  let maxTimer: unknown = null; // runs from the first unsaved mutation; never restarts
  let closed = false;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    if (maxTimer !== null) clearTimeout(maxTimer);
    timer = maxTimer = null;
  };
  const saveInBackground = () => {
    cancel();
    save('default').catch((error: Error) => onError?.(error));
  };
  // A page being hidden may be about to go (a reload, a closed tab): save what waits now, not
  // after the debounce, which would never come.
  const page = hiddenPage(() => {
    if (timer !== null) saveInBackground();
  });
  return {
    schedule() {
      if (closed) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(saveInBackground, debounceMs);
      maxTimer ??= setTimeout(saveInBackground, maxWaitMs);
    },
    cancel,
    close() {
      closed = true;
      page.stop();
    },
  };
}

type PageEvents = { addEventListener(type: string, fn: () => void): void; removeEventListener(type: string, fn: () => void): void };

/** Calls `onHidden` when the page is hidden or hidden for good (pagehide); nothing outside a page (a worker, Node, workerd). */
function hiddenPage(onHidden: () => void): { stop(): void } {
  const scope = globalThis as unknown as Partial<PageEvents> & { document?: PageEvents & { visibilityState?: string } };
  const document = scope.document;
  if (document === undefined || typeof scope.addEventListener !== 'function' || typeof document.addEventListener !== 'function') return { stop() {} };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') onHidden();
  };
  document.addEventListener('visibilitychange', onVisibility);
  scope.addEventListener('pagehide', onHidden);
  return {
    stop() {
      document.removeEventListener('visibilitychange', onVisibility);
      scope.removeEventListener!('pagehide', onHidden);
    },
  };
}
