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

// The runs Stop can end, by their signal: the approval dialog (modal, so the page's Stop is out
// of reach while it is open) offers "Stop agent" for a question whose call has one.
const controllers = new WeakMap<AbortSignal, AbortController>();

/** A new run's controller, findable from its signal. */
export function stoppableRun(): AbortController {
  const controller = new AbortController();
  controllers.set(controller.signal, controller);
  return controller;
}

/** Stops the run `signal` belongs to; false when it is not a run's. */
export function stopRun(signal: AbortSignal | undefined): boolean {
  const controller = signal === undefined ? undefined : controllers.get(signal);
  controller?.abort();
  return controller !== undefined;
}

/** Whether `signal` is a run's that Stop can end. */
export const isStoppable = (signal: AbortSignal | undefined): boolean => signal !== undefined && controllers.has(signal);
