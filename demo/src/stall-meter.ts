// Measures how long the page went without drawing a frame while some work was in flight.
// A blocked main thread draws no frames, so the longest gap between two animation frames
// is the longest freeze a person could have seen. The grep runs in the worker: the gaps
// stay at about one frame (~17 ms at 60 Hz) however long the search takes.

export interface StallReport {
  /** The longest time without a frame, in ms (from the start to the first frame, between frames, from the last frame to the end). */
  longestMs: number;
  /** Frames drawn while the work ran. */
  frames: number;
  /** How long the measurement ran, in ms (so longestMs <= windowMs). */
  windowMs: number;
}

export class StallMeter {
  #start = 0;
  #last = 0;
  #longest = 0;
  #frames = 0;
  #raf = 0;
  #listener: ((live: StallReport) => void) | null = null;

  /** Starts measuring; `onFrame` gets the figures so far on every frame (for a live display). */
  start(onFrame?: (live: StallReport) => void): void {
    this.stop();
    this.#start = this.#last = performance.now();
    this.#longest = 0;
    this.#frames = 0;
    this.#listener = onFrame ?? null;
    const frame = () => {
      const now = performance.now(); // not rAF's timestamp: it is the frame's start, which may precede #start
      this.#gap(now);
      this.#frames++;
      this.#listener?.(this.#report(now));
      this.#raf = requestAnimationFrame(frame);
    };
    this.#raf = requestAnimationFrame(frame);
  }

  /** Stops measuring: the time since the last frame counts as a gap too. */
  stop(): StallReport {
    cancelAnimationFrame(this.#raf);
    this.#listener = null;
    const now = performance.now();
    this.#gap(now);
    return this.#report(now);
  }

  #gap(now: number): void {
    this.#longest = Math.max(this.#longest, now - this.#last);
    this.#last = now;
  }

  #report(now: number): StallReport {
    return { longestMs: this.#longest, frames: this.#frames, windowMs: now - this.#start };
  }
}
