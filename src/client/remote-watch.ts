/**
 * watch() through a worker. The listener stays on this side; the worker subscribes in its
 * backend and posts each commit's events as one message on the same channel as the answers,
 * so a mutating call's events arrive before its own answer. Unsubscribing stops delivery here
 * at once and tells the worker; a dead worker just stops sending (nothing to tell, nothing thrown).
 */
import type { WatchListener, WatchOptions } from '../backend/types.ts';
import { toEndpoint } from '../worker/endpoint.ts';
import { WorkerGoneError } from './liveness.ts';
import type { MessageEndpoint } from '../worker/message-endpoint.ts';
import { isWatchMessage } from '../worker/protocol.ts';

type MessageListener = (event: { data: unknown }) => void;

let watchCounter = 0;

export class RemoteWatches {
  readonly #listeners = new Map<string, WatchListener>();
  readonly #endpoint: MessageEndpoint;
  #receive: MessageListener | null = null;

  constructor(target: object, gone: Promise<never>) {
    // One wrapper for adding and removing (a worker_threads Worker's wrapper maps each listener it added).
    this.#endpoint = toEndpoint(target);
    gone.catch(() => this.#stopAll());
  }

  /**
   * Registers `listener` and asks the worker to subscribe (`subscribe(id)`), or, when that
   * request fails (the worker is gone), forgets it.
   */
  add(
    listener: WatchListener,
    options: WatchOptions | undefined,
    subscribe: (id: string, options: WatchOptions | undefined) => Promise<unknown>,
    unsubscribe: (id: string) => Promise<unknown>,
  ): () => void {
    if (typeof listener !== 'function') throw new TypeError('agentvfs: watch(listener) needs a function, called with each commit’s events.');
    const id = `w${(watchCounter++).toString(36)}-${Math.random().toString(36).slice(2)}`;
    this.#listeners.set(id, listener);
    this.#listen(true);
    // Options the worker refuses (a bad path, glob or directories) are reported, as a listener's error is;
    // a gone worker (or closed fork) just stops.
    subscribe(id, options).catch((error: unknown) => this.#forget(id) && !(error instanceof WorkerGoneError) && report(error));
    return () => {
      if (!this.#forget(id)) return;
      unsubscribe(id).catch(() => {}); // a dead worker holds nothing to release
    };
  }

  #forget(id: string): boolean {
    const had = this.#listeners.delete(id);
    if (this.#listeners.size === 0) this.#listen(false);
    return had;
  }

  #stopAll(): void {
    this.#listeners.clear();
    this.#listen(false);
  }

  #listen(on: boolean): void {
    if (on === (this.#receive !== null)) return;
    const endpoint = this.#endpoint;
    if (on) {
      this.#receive = (event) => {
        const data = event.data;
        if (!isWatchMessage(data)) return;
        const listener = this.#listeners.get(data.agentvfsWatch);
        try {
          listener?.(data.events);
        } catch (error) {
          report(error);
        }
      };
      endpoint.addEventListener('message', this.#receive);
    } else {
      endpoint.removeEventListener('message', this.#receive!);
      this.#receive = null;
    }
  }
}

function report(error: unknown): void {
  const g = globalThis as { reportError?: (e: unknown) => void; console?: { error(...a: unknown[]): void } };
  if (typeof g.reportError === 'function') g.reportError(error);
  else g.console?.error('agentvfs: watch', error);
}
