// A scripted run stops between calls once its signal has aborted (the Agent tab's Stop): the
// call under way, if a write of it was waiting for approval, ends ECANCELED and writes nothing.

/** Thrown by a scripted run's call helper after the call that saw the Stop. */
export class StoppedError extends Error {
  constructor() {
    super('Stopped: you pressed Stop.');
    this.name = 'StoppedError';
  }
}

/** Throws StoppedError once `signal` has aborted. */
export function stopIfAsked(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new StoppedError();
}

// The run under way (scripted or a model's), for Stop: the approval dialog (modal, so the page's
// Stop is out of reach while it is open) offers "Stop agent" while one runs. A model's tools get
// the SDK's own signal (merged with its timeouts), so the run is found by being current, not by it.
let current: AbortController | null = null;
/** The Stop closed a question of the run under way (its write was not made). */
let writeCancelled = false;

/** A new run's controller, the current one until endRun. */
export function startRun(): AbortController {
  current = new AbortController();
  writeCancelled = false;
  return current;
}

/** The approval dialog closed a question because Stop was pressed: that write was not made. */
export function noteWriteCancelled(): void {
  writeCancelled = true;
}

/** What a stopped run says, in the transcript and in the status line: a dropped write only if there was one. */
export function stoppedWords(): { transcript: string; status: string } {
  return writeCancelled
    ? {
        transcript: 'Stopped by you. A write that was waiting for approval was not made (ECANCELED).',
        status: 'Stopped. Whatever was written before the Stop stays; the write waiting for approval was not made.',
      }
    : { transcript: 'Stopped by you.', status: 'Stopped. Whatever was written before the Stop stays.' };
}

export function endRun(controller: AbortController): void {
  if (current === controller) current = null;
}

/** Stops the run under way, if any. */
export function stopRun(): void {
  current?.abort();
}

/** Whether a run is under way that Stop can end. */
export const isRunning = (): boolean => current !== null;
