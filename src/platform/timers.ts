// Timers as a port: work scheduled for later (cache keep-alive pings) asks it, so tests run the clock
// forward instead of waiting.

export interface Timers {
  /** Calls `run` once after `ms`; the returned function cancels it. */
  after(ms: number, run: () => void): () => void;
}

export const systemTimers: Timers = {
  after(ms, run) {
    const timer = setTimeout(run, ms);
    // A pending ping never keeps a finished process alive.
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};
