// Daily task: delete rate-limit counters whose window ended more than 24 hours ago.

import type { Deps } from "../deps.ts";

/** Runs the cleanup once and logs one outcome line. */
export async function cleanupRateLimits(deps: Pick<Deps, "limiter" | "log">): Promise<{ deleted: number }> {
  const deleted = await deps.limiter.cleanup();
  deps.log.info("tasks", "Rate-limit counter cleanup", { deleted });
  return { deleted };
}
