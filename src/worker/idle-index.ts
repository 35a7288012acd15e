/**
 * Builds the backend's search index in small slices while the worker has nothing else to
 * do, so the first grep after a load, a restore or a batch of writes does not pay for it
 * (about 1 s per 70 MB here). A slice is ~1 MB of file bytes (~15 ms on a slow core), so a
 * request that arrives meanwhile waits for one slice at most.
 */
import type { Backend } from '../backend/types.ts';

const SLICE_BYTES = 1 << 20;
// Starts once no change has come for this long: a bulk load in many calls is not interleaved.
const QUIET_MS = 30;

/** Returns `changed()`: call it after anything that may add or rewrite files. */
export function indexWhenIdle(backend: () => Backend | undefined): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const step = () => {
    timer = undefined;
    const target = backend();
    if (typeof target?.prepareSearch !== 'function') return; // a custom backend without it
    target.prepareSearch({ maxBytes: SLICE_BYTES }).then(
      ({ done }) => {
        if (!done && timer === undefined) timer = setTimeout(step, 0);
      },
      () => {}, // the next change tries again; the next search builds what is missing anyway
    );
  };
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(step, QUIET_MS);
  };
}
