// Every ten minutes: delete the tracking write-batch markers applied more than an hour ago (a
// marker only guards a retried batch against being written twice, and retries end within minutes).

import type { Deps } from "../deps.ts";
import { pruneBatchMarkers } from "../lib/tracking/rows.ts";

/** Runs the prune once; a failure is logged as a warning and reported as nothing deleted. */
export async function pruneTrackingMarkers(deps: Pick<Deps, "db" | "log">): Promise<{ deleted: number }> {
  try {
    return { deleted: await pruneBatchMarkers(deps.db) };
  } catch (error) {
    deps.log.warn("tracking", "Could not prune write batch markers", undefined, error);
    return { deleted: 0 };
  }
}
