// Retention of raw tracking rows (see docs/insights.md, "Retention"): whole Paris days older than
// the retention period are deleted from the raw tables. The rollups already hold those days (the
// tracking triggers keep them up to date on every insert) and never lose them, so the dashboard's
// figures do not change. Engagement rows of the last 600 s before the boundary stay one run
// longer: a rebuild of the rollups reads them as the "previous view" of the first views after it.

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { parisDate } from "../paris-time.ts";
import { DEDUPE_SECONDS } from "./metrics-types.ts";
import { parisDayStart } from "./window.ts";

/** What one run did. */
export interface RetentionOutcome {
  /** Every row before this instant (a Paris midnight) now lives in the rollups. */
  archivedBefore: string | null;
  archivedEngagementRows: number;
  archivedDiscoveryRows: number;
  deletedEngagementRows: number;
  deletedDiscoveryRows: number;
}

const countOf = async (tx: { execute: (q: ReturnType<typeof sql>) => Promise<unknown> }, q: ReturnType<typeof sql>): Promise<number> =>
  Number(rowsOf(await tx.execute(sql`with d as (${q} returning 1) select count(*) as n from d`))[0]?.n ?? 0);

/** The archive boundary for a run at `now`: the Paris midnight starting the day `retentionDays` ago. */
export function retentionBoundary(now: Date, retentionDays: number): Date {
  return parisDayStart(parisDate(new Date(now.getTime() - retentionDays * 86_400_000)));
}

/** Deletes rows older than the retention period (the rollups keep their days) and moves the boundary. */
export async function applyTrackingRetention(deps: { db: Db; log: Logger }, now: Date, retentionDays: number): Promise<RetentionOutcome> {
  const boundary = retentionBoundary(now, retentionDays);
  const outcome = await deps.db.transaction(async (tx) => {
    // One run at a time even without the schedule's lock (a manual call beside the cron).
    await tx.execute(sql`lock table insights_archive_state in exclusive mode`);
    const [state] = rowsOf(await tx.execute(sql`select archived_before from insights_archive_state where id = 1`));
    const previous = state?.archived_before ? new Date(state.archived_before as string) : undefined;
    if (previous && previous.getTime() >= boundary.getTime()) {
      return { archivedBefore: previous.toISOString(), archivedEngagementRows: 0, archivedDiscoveryRows: 0, deletedEngagementRows: 0, deletedDiscoveryRows: 0 };
    }
    const from = previous ? sql`recorded_at >= ${previous.toISOString()}::timestamptz` : sql`true`;
    const before = sql`recorded_at < ${boundary.toISOString()}::timestamptz`;
    const [counts] = rowsOf(
      await tx.execute(sql`select
        (select count(*) from engagement_interactions where ${from} and ${before}) as engagement,
        (select count(*) from discovery_interactions where ${from} and ${before}) as discovery`),
    );
    const keepFrom = new Date(boundary.getTime() - DEDUPE_SECONDS * 1000).toISOString();
    const deletedEngagementRows = await countOf(tx, sql`delete from engagement_interactions where recorded_at < ${keepFrom}::timestamptz`);
    const deletedDiscoveryRows = await countOf(tx, sql`delete from discovery_interactions where ${before}`);
    await tx.execute(sql`
      insert into insights_archive_state (id, archived_before) values (1, ${boundary.toISOString()}::timestamptz)
      on conflict (id) do update set archived_before = excluded.archived_before`);
    return { archivedBefore: boundary.toISOString(), archivedEngagementRows: Number(counts?.engagement ?? 0), archivedDiscoveryRows: Number(counts?.discovery ?? 0), deletedEngagementRows, deletedDiscoveryRows };
  });
  deps.log.info("tasks", "Tracking retention", { retentionDays, ...outcome });
  return outcome;
}
