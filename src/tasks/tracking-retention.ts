// Daily task: roll tracking rows older than TRACKING_RETENTION_DAYS into the daily rollups and
// delete them (see docs/insights.md, "Retention").

import type { Deps } from "../deps.ts";
import { applyTrackingRetention, type RetentionOutcome } from "../lib/insights/retention.ts";

/** Runs the retention pass once; logs one outcome line. */
export function trackingRetention(deps: Pick<Deps, "db" | "log" | "now" | "config">): Promise<RetentionOutcome> {
  return applyTrackingRetention(deps, deps.now(), deps.config.trackingRetentionDays);
}
