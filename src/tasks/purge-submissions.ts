// Daily task: delete host submissions and outbox messages older than the period the privacy page
// states (lib/submissions/retention.ts), and console activity older than TRACKING_RETENTION_DAYS.

import type { Deps } from "../deps.ts";
import { purgeOldSubmissions } from "../lib/submissions/retention.ts";
import { pruneActivity } from "../lib/admin/activity.ts";

/** Runs the purge once and logs one outcome line (counts only). */
export async function purgeSubmissions(deps: Pick<Deps, "db" | "log" | "now" | "config">): Promise<{ deletedSubmissions: number; deletedMessages: number; deletedActivity: number; cutoff: string }> {
  const now = deps.now();
  const purged = await purgeOldSubmissions(deps.db, now);
  const deletedActivity = await pruneActivity(deps.db, now, deps.config.trackingRetentionDays);
  const outcome = { ...purged, deletedActivity };
  deps.log.info("tasks", "Old submissions, messages and activity purged", outcome);
  return outcome;
}
