// A test clock for the code that takes `Timers` (src/lib/timers.ts): time moves only when the test
// says so, and the timers due by then run in order, so queue tests never sleep on the real clock.

import type { TimerHandle, Timers } from "../../src/lib/timers.ts";

interface Pending {
  at: number;
  seq: number;
  run: () => void;
}

export interface TestTimers extends Timers {
  /** Moves the clock by `ms`, running every timer due on the way (each followed by the promises it settles). */
  advance(ms: number): Promise<void>;
  /** Lets the promises already settled run their callbacks (no time passes). */
  settle(): Promise<void>;
  /** Timers not yet run. */
  pending(): number;
}

/** Lets every queued promise callback run: one turn of the event loop, not a wait on the clock. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function createTestTimers(start = Date.UTC(2026, 5, 21, 10)): TestTimers {
  let current = start;
  let seq = 0;
  const timers = new Set<Pending>();
  const settle = async () => {
    for (let i = 0; i < 5; i++) await nextTurn();
  };
  return {
    now: () => current,
    setTimeout(run, ms) {
      const timer: Pending = { at: current + Math.max(0, ms), seq: seq++, run };
      timers.add(timer);
      return { timer };
    },
    clearTimeout(handle: TimerHandle | undefined) {
      if (handle) timers.delete(handle.timer as Pending);
    },
    settle,
    pending: () => timers.size,
    async advance(ms) {
      const target = current + ms;
      await settle();
      for (;;) {
        let due: Pending | undefined;
        for (const timer of timers) if (timer.at <= target && (!due || timer.at < due.at || (timer.at === due.at && timer.seq < due.seq))) due = timer;
        if (!due) break;
        timers.delete(due);
        current = Math.max(current, due.at);
        due.run();
        await settle();
      }
      current = target;
      await settle();
    },
  };
}
