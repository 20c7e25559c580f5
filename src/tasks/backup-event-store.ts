// Daily task: snapshot the event store and both placement schedules (newest 30 kept).

import type { Deps } from "../deps.ts";
import { createBackup, type CreateBackupResult } from "../lib/store/backups.ts";

/** Runs the backup once and logs one outcome line. */
export async function backupEventStore(deps: Pick<Deps, "db" | "log" | "now">): Promise<CreateBackupResult> {
  const result = await createBackup(deps.db, { createdBy: "cron", trigger: "cron", now: deps.now() });
  deps.log.info("tasks", "Event store backup", result.skipped ? { skipped: true } : { backupId: result.backup.id, rows: result.backup.rowCount, pruned: result.prunedCount });
  return result;
}

/** The cron endpoint's fields for one backup run. */
export function backupReport(result: CreateBackupResult): Record<string, unknown> {
  if (result.skipped) return { skipped: true, message: result.message };
  const { backup } = result;
  return {
    message: result.message,
    backup: {
      id: backup.id,
      createdAt: backup.createdAt.toISOString(),
      createdBy: backup.createdBy,
      trigger: backup.trigger,
      rowCount: backup.rowCount,
      featuredEntryCount: backup.featuredEntryCount,
      promotedEntryCount: backup.promotedEntryCount,
      storeUpdatedAt: backup.storeUpdatedAt?.toISOString() ?? null,
      storeChecksum: backup.storeChecksum,
    },
    prunedCount: result.prunedCount,
  };
}
