// Daily task: delete admin session records whose token expired more than 604800 s ago.

import type { Deps } from "../deps.ts";
import { deleteExpiredAdminSessions } from "../lib/auth/admin-sessions.ts";

/** Runs the cleanup once and logs one outcome line; the cron endpoint and the schedule call it. */
export async function cleanupAdminSessions(deps: Pick<Deps, "db" | "log" | "now">): Promise<{ deleted: number }> {
  const deleted = await deleteExpiredAdminSessions(deps.db, deps.now());
  deps.log.info("tasks", "Admin session cleanup", { deleted });
  return { deleted };
}
