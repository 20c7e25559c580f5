// Placement boundaries: a timer armed for the next moment a spotlight or promotion starts or ends,
// which drops the cached pages then, so a placement shows (and stops showing) on `/` within a
// second instead of waiting for the 300 s regeneration (see docs/placements.md, "Projection").

import type { Db } from "../db/client.ts";
import type { Invalidation } from "../serving/invalidation.ts";
import type { Logger } from "../logger.ts";
import { findNextBoundary } from "./scheduler.ts";

/** Longest single wait: the timer re-reads the schedule at least this often. */
const MAX_WAIT_MS = 6 * 3_600_000;
/** Fired just after the boundary, so the render that follows already sees the new state. */
const MARGIN_MS = 25;

export interface BoundaryTimerDeps {
  db: Db;
  log: Logger;
  now: () => Date;
  /** Drops the pages in this process (every instance runs its own timer). */
  invalidateLocally: (invalidation: Invalidation) => void;
  /** What to drop at a boundary. */
  pages: Invalidation;
}

export interface BoundaryTimer {
  /** Re-reads the schedules and re-arms (after a placement change here or on another instance). */
  arm(): Promise<void>;
  /** The next boundary the timer waits for, if any. */
  next(): Date | undefined;
  stop(): void;
}

/** Builds the timer (not armed until `arm` is called). */
export function createBoundaryTimer(deps: BoundaryTimerDeps): BoundaryTimer {
  let handle: ReturnType<typeof setTimeout> | undefined;
  let nextBoundary: Date | undefined;
  let generation = 0;
  let stopped = false;

  async function arm(): Promise<void> {
    if (stopped) return;
    const mine = ++generation;
    let boundary: Date | undefined;
    try {
      boundary = await findNextBoundary(deps.db, deps.now());
    } catch (error) {
      deps.log.warn("placements", "Could not read the next placement boundary; retrying in a minute", undefined, error);
      boundary = new Date(deps.now().getTime() + 60_000);
    }
    // A newer arm() started while this one read: it wins.
    if (mine !== generation || stopped) return;
    if (handle) clearTimeout(handle);
    handle = undefined;
    nextBoundary = boundary;
    const wait = boundary ? boundary.getTime() - deps.now().getTime() + MARGIN_MS : MAX_WAIT_MS;
    handle = setTimeout(fire, Math.min(Math.max(wait, 0), MAX_WAIT_MS));
    (handle as { unref?: () => void }).unref?.();
  }

  function fire(): void {
    handle = undefined;
    if (nextBoundary && nextBoundary.getTime() <= deps.now().getTime()) deps.invalidateLocally(deps.pages);
    void arm();
  }

  return {
    arm,
    next: () => nextBoundary,
    stop() {
      stopped = true;
      if (handle) clearTimeout(handle);
      handle = undefined;
    },
  };
}
