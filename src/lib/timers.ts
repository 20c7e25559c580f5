// The clock and timers of the in-memory queues (tracking write-behind, batched rate limiter), passed
// in so their tests run on a test clock (test/helpers/timers.ts) and never sleep.

/** An opaque timer handle. */
export type TimerHandle = { readonly timer: unknown };

export interface Timers {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `run` once after `ms`; a `background` timer never keeps the process alive on its own. */
  setTimeout(run: () => void, ms: number, background?: boolean): TimerHandle;
  clearTimeout(handle: TimerHandle | undefined): void;
}

/** The real clock and timers. */
export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout(run, ms, background = false) {
    const timer = setTimeout(run, ms);
    if (background) (timer as { unref?: () => void }).unref?.();
    return { timer };
  },
  clearTimeout(handle) {
    if (handle) clearTimeout(handle.timer as ReturnType<typeof setTimeout>);
  },
};
