// Event store backups: snapshots of the sheet and both placement schedules, the newest 30 kept,
// restored as a whole after a pre-restore snapshot (see docs/store-and-backups.md, "Backups").

import { desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventStoreBackups, promotedSchedule, spotlightSchedule } from "../db/schema/index.ts";
import { clearStore, readStoreSheet, saveStoreSheet, sheetChecksum, storedSheetCsv } from "./store.ts";

export const BACKUPS_KEPT = 30;

export type BackupCreatedBy = "cron" | "admin-panel";
export type BackupTrigger = "cron" | "manual" | "pre-restore" | "pre-rollover";

/** A backup without its payload, as listings show it. */
export interface BackupSummary {
  id: string;
  createdAt: Date;
  createdBy: string;
  trigger: string;
  rowCount: number;
  featuredEntryCount: number;
  promotedEntryCount: number;
  storeUpdatedAt: Date | null;
  storeChecksum: string | null;
}

export type CreateBackupResult =
  | { ok: true; skipped: false; message: string; backup: BackupSummary; prunedCount: number }
  | { ok: true; skipped: true; message: string };

type ScheduleRow = typeof spotlightSchedule.$inferSelect;

const summaryColumns = {
  id: eventStoreBackups.id,
  createdAt: eventStoreBackups.createdAt,
  createdBy: eventStoreBackups.createdBy,
  trigger: eventStoreBackups.trigger,
  rowCount: eventStoreBackups.rowCount,
  featuredEntryCount: eventStoreBackups.featuredEntryCount,
  promotedEntryCount: eventStoreBackups.promotedEntryCount,
  storeUpdatedAt: eventStoreBackups.storeUpdatedAt,
  storeChecksum: eventStoreBackups.storeChecksum,
};

function scheduleToJson(row: ScheduleRow): Record<string, unknown> {
  return {
    id: row.id,
    eventKey: row.eventKey,
    requestedStartAt: row.requestedStartAt.toISOString(),
    effectiveStartAt: row.effectiveStartAt?.toISOString() ?? null,
    effectiveEndAt: row.effectiveEndAt?.toISOString() ?? null,
    durationHours: row.durationHours,
    slot: row.slot,
    status: row.status,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES: ReadonlySet<string> = new Set(["scheduled", "cancelled", "completed"]);

function dateOrNull(value: unknown): Date | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== "string") return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A backup entry turned back into a schedule row; undefined when it fails the shape checks. */
function scheduleFromJson(entry: unknown): ScheduleRow | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const e = entry as Record<string, unknown>;
  const requested = dateOrNull(e.requestedStartAt);
  const start = dateOrNull(e.effectiveStartAt);
  const end = dateOrNull(e.effectiveEndAt);
  const created = dateOrNull(e.createdAt);
  const updated = dateOrNull(e.updatedAt);
  const duration = Number(e.durationHours);
  if (typeof e.id !== "string" || !UUID.test(e.id) || typeof e.eventKey !== "string" || !e.eventKey) return undefined;
  if (!requested || start === undefined || end === undefined || !Number.isInteger(duration) || duration < 1 || duration > 168) return undefined;
  if (typeof e.status !== "string" || !STATUSES.has(e.status)) return undefined;
  return {
    id: e.id,
    eventKey: e.eventKey,
    requestedStartAt: requested,
    effectiveStartAt: start,
    effectiveEndAt: end,
    durationHours: duration,
    slot: Number.isInteger(e.slot) ? (e.slot as number) : null,
    status: e.status,
    createdBy: typeof e.createdBy === "string" ? e.createdBy : "restore",
    createdAt: created ?? requested,
    updatedAt: updated ?? requested,
  };
}

/** Backups newest first (at most `limit`). */
export function listBackups(db: Db, limit = BACKUPS_KEPT): Promise<BackupSummary[]> {
  return db.select(summaryColumns).from(eventStoreBackups).orderBy(desc(eventStoreBackups.createdAt), desc(eventStoreBackups.id)).limit(limit);
}

/** Snapshots the store and both schedules; skipped when all three are empty. Keeps the newest 30. */
export async function createBackup(db: Db, options: { createdBy: BackupCreatedBy; trigger: BackupTrigger; now: Date }): Promise<CreateBackupResult> {
  const stored = await readStoreSheet(db);
  const spotlight = await db.select().from(spotlightSchedule);
  const promoted = await db.select().from(promotedSchedule);
  const rowCount = stored?.rows.length ?? 0;
  if (rowCount === 0 && spotlight.length === 0 && promoted.length === 0) {
    return { ok: true, skipped: true, message: "Managed store and featured schedule are both empty; nothing to back up." };
  }
  const csv = stored ? storedSheetCsv(stored) : "";
  const [backup] = await db
    .insert(eventStoreBackups)
    .values({
      createdAt: options.now,
      createdBy: options.createdBy,
      trigger: options.trigger,
      rowCount,
      featuredEntryCount: spotlight.length,
      promotedEntryCount: promoted.length,
      storeUpdatedAt: stored?.meta.updatedAt ?? null,
      // Autosaves leave the store's recorded checksum empty: then it is computed from the snapshot.
      storeChecksum: stored ? stored.meta.checksum || (stored.rows.length ? sheetChecksum(csv) : null) : null,
      csvContent: csv,
      featuredEntries: spotlight.map(scheduleToJson),
      promotedEntries: promoted.map(scheduleToJson),
    })
    .returning(summaryColumns);
  const prunedCount = await pruneBackups(db);
  let message = `Backup created (${rowCount} rows, ${spotlight.length} featured entries)`;
  if (prunedCount > 0) message += ` (pruned ${prunedCount} old backups)`;
  return { ok: true, skipped: false, message, backup, prunedCount };
}

async function pruneBackups(db: Db): Promise<number> {
  const stale = await db
    .select({ id: eventStoreBackups.id })
    .from(eventStoreBackups)
    .orderBy(desc(eventStoreBackups.createdAt), desc(eventStoreBackups.id))
    .offset(BACKUPS_KEPT);
  if (stale.length === 0) return 0;
  await db.delete(eventStoreBackups).where(inArray(eventStoreBackups.id, stale.map((s) => s.id)));
  return stale.length;
}

/** The newest backup's CSV, for the read chain's second source. */
export async function findNewestBackupCsv(db: Db): Promise<{ csv: string; createdAt: Date } | undefined> {
  const [row] = await db
    .select({ csv: eventStoreBackups.csvContent, createdAt: eventStoreBackups.createdAt })
    .from(eventStoreBackups)
    .where(sql`${eventStoreBackups.rowCount} > 0`)
    .orderBy(desc(eventStoreBackups.createdAt), desc(eventStoreBackups.id))
    .limit(1);
  return row;
}

export type RestoreResult = { ok: true; backupId: string; rowCount: number; preRestoreBackupId?: string } | { ok: false; error: string };

/**
 * Restores the latest backup or a chosen one: a pre-restore snapshot first (when there is data),
 * then the store and both schedules are replaced. Warm-up and revalidation are the caller's.
 */
export async function restoreBackup(db: Db, options: { id?: string; now: Date }): Promise<RestoreResult> {
  if (options.id !== undefined && !UUID.test(options.id)) return { ok: false, error: "No matching event store backup exists." };
  const query = db.select().from(eventStoreBackups);
  const [backup] = options.id
    ? await query.where(eq(eventStoreBackups.id, options.id)).limit(1)
    : await query.orderBy(desc(eventStoreBackups.createdAt), desc(eventStoreBackups.id)).limit(1);
  if (!backup) return { ok: false, error: "No matching event store backup exists." };

  const pre = await createBackup(db, { createdBy: "admin-panel", trigger: "pre-restore", now: options.now });
  if (backup.csvContent.trim()) {
    const saved = await saveStoreSheet(db, backup.csvContent, { updatedBy: "restore", origin: "restore", trigger: "restore", now: options.now });
    if (!saved.ok) return { ok: false, error: `Backup could not be restored: ${saved.error}` };
  } else {
    await clearStore(db, { updatedBy: "restore", now: options.now });
  }
  const spotlight = (backup.featuredEntries ?? []).map(scheduleFromJson).filter((e): e is ScheduleRow => e !== undefined);
  const promoted = (backup.promotedEntries ?? []).map(scheduleFromJson).filter((e): e is ScheduleRow => e !== undefined);
  await db.transaction(async (tx) => {
    await tx.delete(spotlightSchedule);
    await tx.delete(promotedSchedule);
    if (spotlight.length) await tx.insert(spotlightSchedule).values(spotlight);
    if (promoted.length) await tx.insert(promotedSchedule).values(promoted);
  });
  return { ok: true, backupId: backup.id, rowCount: backup.rowCount, preRestoreBackupId: pre.skipped ? undefined : pre.backup.id };
}
