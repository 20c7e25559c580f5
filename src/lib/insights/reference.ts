// The dashboard figures computed straight from the raw tracking rows of a window [start, end):
// the definition the rollup-based reads in metrics.ts must equal (a test compares both on random
// data), and what metrics.ts itself uses for a window too short to reach a whole rollup day.

import { sql, type SQL } from "drizzle-orm";
import type { ClusterMode } from "./clustering.ts";
import { clusterQueries } from "./clustering.ts";
import { parisDaysOf, percent, type InsightsWindow } from "./window.ts";
import { CLUSTERED_QUERY_LIMIT, DEDUPE_SECONDS, listTopGenres, planned, summaryFrom, type DailyInsights, type DiscoveryInsights, type EventInsights, type InsightsSummary, type MetricsDb } from "./metrics-types.ts";
import { parisDaySql } from "../paris-time.ts";

const n = (value: unknown): number => Number(value ?? 0);

function rawRows(window: InsightsWindow): SQL {
  return sql`recorded_at >= ${window.start.toISOString()}::timestamptz and recorded_at < ${window.end.toISOString()}::timestamptz`;
}

/**
 * Click rows of the window with a `counted` flag: a view counts when it has no session, is the
 * session's first view of that event inside the window, or comes at least 600 s after that
 * session's previous view of the event (counted or not).
 */
function dedupedClicks(window: InsightsWindow): SQL {
  return sql`select event_key, recorded_at,
      (session_id is null
        or prev_at is null
        or recorded_at - prev_at >= make_interval(secs => ${DEDUPE_SECONDS})) as counted
    from (
      select event_key, session_id, recorded_at,
        lag(recorded_at) over (partition by session_id, event_key order by recorded_at, id) as prev_at
      from engagement_interactions
      where action_type = 'click' and ${rawRows(window)}
    ) c`;
}

function actionCounts(window: InsightsWindow, group: SQL): SQL {
  return sql`
    select ${group} as g,
      count(*) filter (where action_type = 'click') as click_count,
      count(*) filter (where action_type = 'outbound_click') as outbound_count,
      count(*) filter (where action_type = 'calendar_sync') as calendar_count
    from engagement_interactions where ${rawRows(window)} group by 1`;
}

/** The twelve summary figures. */
export async function rawSummary(db: MetricsDb, window: InsightsWindow): Promise<InsightsSummary> {
  const [row] = await planned<Record<string, unknown>>(db, sql`
    with counts as (${actionCounts(window, sql`1`)}),
    sessions as (
      select count(distinct session_id) as sessions,
        count(distinct session_id) filter (where action_type = 'click') as view_sessions,
        count(distinct session_id) filter (where action_type = 'outbound_click') as outbound_sessions,
        count(distinct session_id) filter (where action_type = 'calendar_sync') as calendar_sessions
      from engagement_interactions where session_id is not null and ${rawRows(window)}
    )
    select counts.click_count, counts.outbound_count, counts.calendar_count, sessions.*,
      (select count(*) from (${dedupedClicks(window)}) d where d.counted) as deduped
    from sessions left join counts on true`);
  return summaryFrom(row ?? {});
}

/** Every event with activity, by views, outbound, calendar (descending), then key. */
export async function rawEventInsights(db: MetricsDb, window: InsightsWindow, names: ReadonlyMap<string, string>): Promise<EventInsights[]> {
  const rows = await planned<Record<string, unknown>>(db, sql`
    with counts as (${actionCounts(window, sql`event_key`)}),
    sessions as (select event_key, count(distinct session_id) as sessions from engagement_interactions where session_id is not null and ${rawRows(window)} group by event_key),
    deduped as (select event_key, count(*) filter (where counted) as deduped from (${dedupedClicks(window)}) d group by event_key)
    select c.g as event_key, c.click_count, c.outbound_count, c.calendar_count, coalesce(s.sessions, 0) as sessions, coalesce(d.deduped, 0) as deduped
    from counts c left join sessions s on s.event_key = c.g left join deduped d on d.event_key = c.g
    order by c.click_count desc, c.outbound_count desc, c.calendar_count desc, c.g`);
  return rows.map((row) => eventFrom(row, names));
}

/** Builds one per-event entry from a row of counts. */
export function eventFrom(row: Record<string, unknown>, names: ReadonlyMap<string, string>): EventInsights {
  const eventKey = String(row.event_key);
  const dedupedViewCount = n(row.deduped);
  const calendarSyncCount = n(row.calendar_count);
  return {
    eventKey,
    eventName: names.get(eventKey) ?? eventKey,
    clickCount: n(row.click_count),
    dedupedViewCount,
    outboundClickCount: n(row.outbound_count),
    calendarSyncCount,
    uniqueSessionCount: n(row.sessions),
    conversionRate: percent(calendarSyncCount, dedupedViewCount),
  };
}

/** One entry per Paris day the window touches, zero-filled. */
export async function rawDailyInsights(db: MetricsDb, window: InsightsWindow): Promise<DailyInsights[]> {
  const parisDay = sql`${parisDaySql(sql.raw("recorded_at"))}::text`;
  const rows = await planned<Record<string, unknown>>(db, sql`
    with counts as (${actionCounts(window, parisDay)}),
    deduped as (select ${parisDay} as day, count(*) filter (where counted) as deduped from (${dedupedClicks(window)}) d group by 1)
    select c.g as day, c.click_count, c.outbound_count, c.calendar_count, coalesce(d.deduped, 0) as deduped
    from counts c left join deduped d on d.day = c.g`);
  return dailyFrom(window, rows);
}

/** Zero-fills rows keyed by `day` over the window's Paris days. */
export function dailyFrom(window: InsightsWindow, rows: Record<string, unknown>[]): DailyInsights[] {
  const byDay = new Map(rows.map((row) => [String(row.day), row]));
  return parisDaysOf(window).map((day) => {
    const row = byDay.get(day);
    return { day, clickCount: n(row?.click_count), dedupedViewCount: n(row?.deduped), outboundClickCount: n(row?.outbound_count), calendarSyncCount: n(row?.calendar_count) };
  });
}

/** The discovery block. */
export async function rawDiscoveryInsights(db: MetricsDb, window: InsightsWindow, mode: ClusterMode): Promise<DiscoveryInsights> {
  const raw = rawRows(window);
  const [counts, filters, queries, genres] = await Promise.all([
    planned<Record<string, unknown>>(db, sql`
      select count(*) filter (where action_type = 'search') as searches,
        count(*) filter (where action_type = 'filter_apply') as applies,
        count(*) filter (where action_type = 'filter_clear') as clears,
        count(distinct session_id) as sessions
      from discovery_interactions where ${raw}`),
    planned<Record<string, unknown>>(db, sql`
      select filter_group, filter_value, count(*) as n from discovery_interactions
      where action_type = 'filter_apply' and filter_group is not null and filter_value is not null and ${raw}
      group by 1, 2 order by n desc, filter_group, filter_value limit 30`),
    planned<Record<string, unknown>>(db, sql`
      select search_query, count(*) as n from discovery_interactions
      where action_type = 'search' and search_query is not null and ${raw}
      group by 1 order by n desc, search_query limit ${CLUSTERED_QUERY_LIMIT}`),
    listTopGenres(db),
  ]);
  return discoveryFrom(counts[0] ?? {}, filters, queries, genres, mode);
}

/** Builds the discovery block from its counts row, filter rows, query rows and genres. */
export function discoveryFrom(
  c: Record<string, unknown>,
  filters: Record<string, unknown>[],
  queries: Record<string, unknown>[],
  genres: DiscoveryInsights["topGenres"],
  mode: ClusterMode,
): DiscoveryInsights {
  return {
    searchCount: n(c.searches),
    filterApplyCount: n(c.applies),
    filterClearCount: n(c.clears),
    uniqueDiscoverySessionCount: n(c.sessions),
    topFilters: filters.map((row) => ({ filterGroup: String(row.filter_group), filterValue: String(row.filter_value), count: n(row.n) })),
    topSearches: clusterQueries(
      queries.map((row) => ({ query: String(row.search_query), count: n(row.n) })),
      mode,
      20,
    ),
    topGenres: genres,
  };
}
