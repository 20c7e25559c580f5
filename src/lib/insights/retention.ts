// Retention of raw tracking rows (see docs/insights.md, "Retention"): whole Paris days older than
// the retention period are rolled into the daily rollups (counts, deduplicated views, the sessions
// of each day without emails), then deleted, in one transaction. The dashboard reads the rollups
// for those days, so its figures do not change. Engagement rows of the last 600 s before the
// boundary stay one run longer: they are the "previous view" of the first views after it.

import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { parisDate } from "../paris-time.ts";
import { DEDUPE_SECONDS } from "./metrics.ts";
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

const rowsOf = (result: unknown): Record<string, unknown>[] => (Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []));
const affected = (result: unknown): number => rowsOf(result).length;

/** The archive boundary for a run at `now`: the Paris midnight starting the day `retentionDays` ago. */
export function retentionBoundary(now: Date, retentionDays: number): Date {
  return parisDayStart(parisDate(new Date(now.getTime() - retentionDays * 86_400_000)));
}

/** Rolls up and deletes rows older than the retention period. */
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
    const lookback = previous ? sql`recorded_at >= ${new Date(previous.getTime() - DEDUPE_SECONDS * 1000).toISOString()}::timestamptz` : sql`true`;
    const before = sql`recorded_at < ${boundary.toISOString()}::timestamptz`;
    const parisDay = sql`(recorded_at at time zone 'Europe/Paris')::date`;

    const engagement = rowsOf(
      await tx.execute(sql`
        insert into insights_archive_engagement (day, event_key, click_count, deduped_count, outbound_count, calendar_count)
        select ${parisDay}, event_key,
          count(*) filter (where action_type = 'click'),
          count(*) filter (where action_type = 'click' and (session_id is null or prev_at is null or recorded_at - prev_at >= make_interval(secs => ${DEDUPE_SECONDS}))),
          count(*) filter (where action_type = 'outbound_click'),
          count(*) filter (where action_type = 'calendar_sync')
        from (
          select event_key, action_type, session_id, recorded_at,
            case when action_type = 'click' then lag(recorded_at) over (partition by session_id, event_key, action_type = 'click' order by recorded_at, id) end as prev_at
          from engagement_interactions where ${lookback} and ${before}
        ) r
        where ${from}
        group by 1, 2
        on conflict (day, event_key) do update set
          click_count = insights_archive_engagement.click_count + excluded.click_count,
          deduped_count = insights_archive_engagement.deduped_count + excluded.deduped_count,
          outbound_count = insights_archive_engagement.outbound_count + excluded.outbound_count,
          calendar_count = insights_archive_engagement.calendar_count + excluded.calendar_count
        returning click_count + outbound_count + calendar_count as n`),
    ).reduce((sum, row) => sum + Number(row.n), 0);
    await tx.execute(sql`
      insert into insights_archive_sessions (day, event_key, session_id, clicked, outbound, calendar)
      select ${parisDay}, event_key, session_id, bool_or(action_type = 'click'), bool_or(action_type = 'outbound_click'), bool_or(action_type = 'calendar_sync')
      from engagement_interactions where session_id is not null and ${from} and ${before}
      group by 1, 2, 3
      on conflict (day, event_key, session_id) do update set
        clicked = insights_archive_sessions.clicked or excluded.clicked,
        outbound = insights_archive_sessions.outbound or excluded.outbound,
        calendar = insights_archive_sessions.calendar or excluded.calendar`);
    const discovery = rowsOf(
      await tx.execute(sql`
        insert into insights_archive_discovery (day, action_type, filter_group, filter_value, search_query, count)
        select ${parisDay}, action_type, filter_group, filter_value, search_query, count(*)
        from discovery_interactions where ${from} and ${before}
        group by 1, 2, 3, 4, 5
        returning count`),
    ).reduce((sum, row) => sum + Number(row.count), 0);
    await tx.execute(sql`
      insert into insights_archive_discovery_sessions (day, session_id)
      select distinct ${parisDay}, session_id from discovery_interactions where session_id is not null and ${from} and ${before}
      on conflict do nothing`);
    const keepFrom = new Date(boundary.getTime() - DEDUPE_SECONDS * 1000).toISOString();
    const deletedEngagementRows = affected(await tx.execute(sql`delete from engagement_interactions where recorded_at < ${keepFrom}::timestamptz returning 1`));
    const deletedDiscoveryRows = affected(await tx.execute(sql`delete from discovery_interactions where ${before} returning 1`));
    await tx.execute(sql`
      insert into insights_archive_state (id, archived_before) values (1, ${boundary.toISOString()}::timestamptz)
      on conflict (id) do update set archived_before = excluded.archived_before`);
    return { archivedBefore: boundary.toISOString(), archivedEngagementRows: engagement, archivedDiscoveryRows: discovery, deletedEngagementRows, deletedDiscoveryRows };
  });
  deps.log.info("jobs", "Tracking retention", { retentionDays, ...outcome });
  return outcome;
}
