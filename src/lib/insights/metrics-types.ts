// The shapes of the dashboard blocks (see docs/insights.md, "Figures") and what both ways of
// computing them share: the summary from its counts, and the top genres.

import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "../db/client.ts";
import { genreLabel } from "../sheet/genres.ts";
import type { SearchCluster } from "./clustering.ts";
import { percent } from "./window.ts";

/** What the metric functions need: a way to run SQL, and transactions. */
export type MetricsDb = Pick<Database, "query" | "db">;

/**
 * Runs one dashboard statement planned for its actual window. The driver prepares statements, and
 * after a few runs Postgres may switch to a generic plan that ignores the bound times: it then
 * guesses a third of the table for "recorded_at >= $1" and scans millions of raw rows instead of
 * the window's first day. `force_custom_plan` for this read-only transaction avoids that.
 */
export async function planned<T>(db: MetricsDb, statement: SQL): Promise<T[]> {
  return db.db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_custom_plan`);
    const result = await tx.execute(statement);
    return rowsOf<T>(result);
  });
}

/** A repeat view closer than this to the same session's previous view of the event is not counted again. */
export const DEDUPE_SECONDS = 600;

/** How many stored queries feed the clustering. */
export const CLUSTERED_QUERY_LIMIT = 250;

/** The counts every engagement figure is derived from (dashboard summary and partner statistics). */
export interface EngagementCounts {
  clickCount: number;
  outboundClickCount: number;
  calendarSyncCount: number;
  uniqueSessionCount: number;
  uniqueViewSessionCount: number;
  uniqueOutboundSessionCount: number;
  uniqueCalendarSessionCount: number;
}

/** The counts and the four rates derived from them: what a partner's statistics show. */
export interface EngagementMetrics extends EngagementCounts {
  outboundSessionRate: number;
  calendarSessionRate: number;
  outboundInteractionRate: number;
  calendarInteractionRate: number;
}

/** The dashboard summary: the engagement metrics and the de-duplicated views. */
export interface InsightsSummary extends EngagementMetrics {
  dedupedViewCount: number;
}

export interface EventInsights {
  eventKey: string;
  eventName: string;
  clickCount: number;
  dedupedViewCount: number;
  outboundClickCount: number;
  calendarSyncCount: number;
  uniqueSessionCount: number;
  conversionRate: number;
}

export interface DailyInsights {
  day: string;
  clickCount: number;
  dedupedViewCount: number;
  outboundClickCount: number;
  calendarSyncCount: number;
}

export interface TopFilter {
  filterGroup: string;
  filterValue: string;
  count: number;
}

export interface TopGenre {
  genre: string;
  label: string;
  totalScore: number;
  uniqueUsers: number;
}

export interface DiscoveryInsights {
  searchCount: number;
  filterApplyCount: number;
  filterClearCount: number;
  uniqueDiscoverySessionCount: number;
  topFilters: TopFilter[];
  topSearches: SearchCluster[];
  topGenres: TopGenre[];
}

const n = (value: unknown): number => Number(value ?? 0);

/** The counts with their rates: sessions over viewing sessions, interactions over clicks. */
export function engagementMetrics(counts: EngagementCounts): EngagementMetrics {
  return {
    ...counts,
    outboundSessionRate: percent(counts.uniqueOutboundSessionCount, counts.uniqueViewSessionCount),
    calendarSessionRate: percent(counts.uniqueCalendarSessionCount, counts.uniqueViewSessionCount),
    outboundInteractionRate: percent(counts.outboundClickCount, counts.clickCount),
    calendarInteractionRate: percent(counts.calendarSyncCount, counts.clickCount),
  };
}

/** The twelve figures from a row of counts (click_count, outbound_count, calendar_count, deduped, sessions, view/outbound/calendar_sessions). */
export function summaryFrom(row: Record<string, unknown>): InsightsSummary {
  const { clickCount, ...rest } = engagementMetrics({
    clickCount: n(row.click_count),
    outboundClickCount: n(row.outbound_count),
    calendarSyncCount: n(row.calendar_count),
    uniqueSessionCount: n(row.sessions),
    uniqueViewSessionCount: n(row.view_sessions),
    uniqueOutboundSessionCount: n(row.outbound_sessions),
    uniqueCalendarSessionCount: n(row.calendar_sessions),
  });
  // The answer keeps its documented key order: clicks, de-duplicated views, then the rest.
  return { clickCount, dedupedViewCount: n(row.deduped), ...rest };
}

/** The 10 genres with the highest total preference score over every signed-in visitor. */
export async function listTopGenres(db: MetricsDb): Promise<TopGenre[]> {
  const rows = await db.query<Record<string, unknown>>(sql`
    select genre, sum(score) as total, count(distinct email) as users from genre_preferences
    group by genre order by total desc, genre limit 10`);
  return rows.map((row) => ({ genre: String(row.genre), label: genreLabel(String(row.genre)), totalScore: n(row.total), uniqueUsers: n(row.users) }));
}
