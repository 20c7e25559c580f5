// Engagement and discovery figures of the insights dashboard (see docs/insights.md, "Figures"),
// one function per block: summary, per-event table, daily series and discovery. Each reads the
// raw tracking rows of the window [start, end) in one statement, plus the daily rollups of whole
// Paris days whose raw rows the retention job has already removed (see retention.ts).

import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { GENRES } from "../sheet/genres.ts";
import { clusterQueries, type ClusterMode, type QueryCount, type SearchCluster } from "./clustering.ts";
import { parisDate } from "../paris-time.ts";
import { parisDaysOf, percent, type InsightsWindow } from "./window.ts";

/** What the metric functions need: a way to run SQL. */
export type MetricsDb = Pick<Database, "query">;

/** A repeat view closer than this to the same session's previous view of the event is not counted again. */
export const DEDUPE_SECONDS = 600;

export interface InsightsSummary {
  clickCount: number;
  dedupedViewCount: number;
  outboundClickCount: number;
  calendarSyncCount: number;
  uniqueSessionCount: number;
  uniqueViewSessionCount: number;
  uniqueOutboundSessionCount: number;
  uniqueCalendarSessionCount: number;
  outboundSessionRate: number;
  calendarSessionRate: number;
  outboundInteractionRate: number;
  calendarInteractionRate: number;
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

/**
 * Where a window's figures come from: raw rows from `rawStart` (the later of the window start and
 * the archive boundary) to the end, and the archived days `archive` (inclusive Paris dates) when
 * the window reaches back before the boundary.
 */
export interface MetricsScope {
  window: InsightsWindow;
  rawStart: Date;
  archive?: { from: string; to: string };
}

/** Reads the archive boundary and splits the window between archive and raw rows. */
export async function scopeOf(db: MetricsDb, window: InsightsWindow): Promise<MetricsScope> {
  const [row] = await db.query<{ archived_before: string | Date | null }>(sql`select archived_before from insights_archive_state where id = 1`);
  const boundary = row?.archived_before ? new Date(row.archived_before) : undefined;
  if (!boundary || boundary.getTime() <= window.start.getTime()) return { window, rawStart: window.start };
  const lastArchivedDay = parisDate(new Date(boundary.getTime() - 1));
  const rawStart = new Date(Math.min(boundary.getTime(), window.end.getTime()));
  return { window, rawStart, archive: { from: parisDate(window.start), to: lastArchivedDay } };
}

function rawRows(scope: MetricsScope): SQL {
  return sql`recorded_at >= ${scope.rawStart.toISOString()}::timestamptz and recorded_at < ${scope.window.end.toISOString()}::timestamptz`;
}

function archivedDays(scope: MetricsScope): SQL {
  return scope.archive ? sql`day between ${scope.archive.from}::date and ${scope.archive.to}::date` : sql`false`;
}

/**
 * Click rows of the raw part with a `counted` flag: a view counts when it has no session, is the
 * session's first view of that event inside the window, or comes at least 600 s after that
 * session's previous view of the event (counted or not). When the window reaches into archived
 * days, the raw rows kept for the 600 s before the boundary serve as previous views only.
 */
function dedupedClicks(scope: MetricsScope): SQL {
  const lookback = scope.archive ? new Date(scope.rawStart.getTime() - DEDUPE_SECONDS * 1000) : scope.rawStart;
  return sql`select event_key, recorded_at,
      (session_id is null
        or prev_at is null
        or recorded_at - prev_at >= make_interval(secs => ${DEDUPE_SECONDS})) as counted
    from (
      select event_key, session_id, recorded_at,
        lag(recorded_at) over (partition by session_id, event_key order by recorded_at, id) as prev_at
      from engagement_interactions
      where action_type = 'click'
        and recorded_at >= ${lookback.toISOString()}::timestamptz and recorded_at < ${scope.window.end.toISOString()}::timestamptz
    ) c
    where recorded_at >= ${scope.rawStart.toISOString()}::timestamptz`;
}

/** (session, kind) pairs of the scope, kind being the action type; from raw rows and archived days. */
function sessionKinds(scope: MetricsScope, perEvent: boolean): SQL {
  const ev = perEvent ? sql`event_key, ` : sql``;
  return sql`
    select ${ev}session_id, action_type as kind from engagement_interactions where session_id is not null and ${rawRows(scope)}
    union all select ${ev}session_id, 'click' from insights_archive_sessions where clicked and ${archivedDays(scope)}
    union all select ${ev}session_id, 'outbound_click' from insights_archive_sessions where outbound and ${archivedDays(scope)}
    union all select ${ev}session_id, 'calendar_sync' from insights_archive_sessions where calendar and ${archivedDays(scope)}`;
}

/** Counts per action from raw rows and archived days, grouped by `group` (an expression of both). */
function actionCounts(scope: MetricsScope, rawGroup: SQL, archiveGroup: SQL): SQL {
  return sql`
    select g, sum(click_count) as click_count, sum(outbound_count) as outbound_count, sum(calendar_count) as calendar_count, sum(deduped) as deduped from (
      select ${rawGroup} as g,
        count(*) filter (where action_type = 'click') as click_count,
        count(*) filter (where action_type = 'outbound_click') as outbound_count,
        count(*) filter (where action_type = 'calendar_sync') as calendar_count,
        0::bigint as deduped
      from engagement_interactions where ${rawRows(scope)} group by 1
      union all
      select ${archiveGroup}, sum(click_count), sum(outbound_count), sum(calendar_count), sum(deduped_count)
      from insights_archive_engagement where ${archivedDays(scope)} group by 1
    ) x group by g`;
}

/** The twelve summary figures of the window. */
export async function readSummary(db: MetricsDb, scope: MetricsScope): Promise<InsightsSummary> {
  const [row] = await db.query<Record<string, unknown>>(sql`
    with counts as (${actionCounts(scope, sql`1`, sql`1`)}),
    sessions as (
      select count(distinct session_id) as sessions,
        count(distinct session_id) filter (where kind = 'click') as view_sessions,
        count(distinct session_id) filter (where kind = 'outbound_click') as outbound_sessions,
        count(distinct session_id) filter (where kind = 'calendar_sync') as calendar_sessions
      from (${sessionKinds(scope, false)}) s
    )
    select counts.click_count, counts.outbound_count, counts.calendar_count, sessions.*,
      coalesce(counts.deduped, 0) + (select count(*) from (${dedupedClicks(scope)}) d where d.counted) as deduped
    from sessions left join counts on true`);
  return summaryFrom(row ?? {});
}

function summaryFrom(row: Record<string, unknown>): InsightsSummary {
  const clickCount = n(row.click_count);
  const outboundClickCount = n(row.outbound_count);
  const calendarSyncCount = n(row.calendar_count);
  const uniqueViewSessionCount = n(row.view_sessions);
  const uniqueOutboundSessionCount = n(row.outbound_sessions);
  const uniqueCalendarSessionCount = n(row.calendar_sessions);
  return {
    clickCount,
    dedupedViewCount: n(row.deduped),
    outboundClickCount,
    calendarSyncCount,
    uniqueSessionCount: n(row.sessions),
    uniqueViewSessionCount,
    uniqueOutboundSessionCount,
    uniqueCalendarSessionCount,
    outboundSessionRate: percent(uniqueOutboundSessionCount, uniqueViewSessionCount),
    calendarSessionRate: percent(uniqueCalendarSessionCount, uniqueViewSessionCount),
    outboundInteractionRate: percent(outboundClickCount, clickCount),
    calendarInteractionRate: percent(calendarSyncCount, clickCount),
  };
}

/**
 * Every event with activity in the window, ordered by views, outbound clicks, calendar syncs (all
 * descending, then key); `names` maps lower-cased keys to live names (the key stands in otherwise).
 */
export async function listEventInsights(db: MetricsDb, scope: MetricsScope, names: ReadonlyMap<string, string>): Promise<EventInsights[]> {
  const rows = await db.query<Record<string, unknown>>(sql`
    with counts as (${actionCounts(scope, sql`event_key`, sql`event_key`)}),
    sessions as (select event_key, count(distinct session_id) as sessions from (${sessionKinds(scope, true)}) s group by event_key),
    deduped as (select event_key, count(*) filter (where counted) as deduped from (${dedupedClicks(scope)}) d group by event_key)
    select c.g as event_key, c.click_count, c.outbound_count, c.calendar_count, coalesce(s.sessions, 0) as sessions,
      coalesce(c.deduped, 0) + coalesce(d.deduped, 0) as deduped
    from counts c left join sessions s on s.event_key = c.g left join deduped d on d.event_key = c.g
    order by c.click_count desc, c.outbound_count desc, c.calendar_count desc, c.g`);
  return rows.map((row) => {
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
  });
}

/** One entry per Paris calendar day the window touches, oldest first, zero-filled. */
export async function listDailyInsights(db: MetricsDb, scope: MetricsScope): Promise<DailyInsights[]> {
  const parisDay = sql`(recorded_at at time zone 'Europe/Paris')::date::text`;
  const rows = await db.query<Record<string, unknown>>(sql`
    with counts as (${actionCounts(scope, parisDay, sql`day::text`)}),
    deduped as (select ${parisDay} as day, count(*) filter (where counted) as deduped from (${dedupedClicks(scope)}) d group by 1)
    select c.g as day, c.click_count, c.outbound_count, c.calendar_count, coalesce(c.deduped, 0) + coalesce(d.deduped, 0) as deduped
    from counts c left join deduped d on d.day = c.g`);
  const byDay = new Map(rows.map((row) => [String(row.day), row]));
  return parisDaysOf(scope.window).map((day) => {
    const row = byDay.get(day);
    return {
      day,
      clickCount: n(row?.click_count),
      dedupedViewCount: n(row?.deduped),
      outboundClickCount: n(row?.outbound_count),
      calendarSyncCount: n(row?.calendar_count),
    };
  });
}

/** How many stored queries feed the clustering. */
export const CLUSTERED_QUERY_LIMIT = 250;

/** The discovery block: counts, top 30 filters, top 20 search clusters, top 10 genres (all time). */
export async function readDiscoveryInsights(db: MetricsDb, scope: MetricsScope, mode: ClusterMode): Promise<DiscoveryInsights> {
  const raw = rawRows(scope);
  const archived = archivedDays(scope);
  const [counts, filters, queries, genres] = await Promise.all([
    db.query<Record<string, unknown>>(sql`
      select
        (select coalesce(sum(n), 0) from (
          select count(*) as n from discovery_interactions where action_type = 'search' and ${raw}
          union all select sum(count) from insights_archive_discovery where action_type = 'search' and ${archived}) x) as searches,
        (select coalesce(sum(n), 0) from (
          select count(*) as n from discovery_interactions where action_type = 'filter_apply' and ${raw}
          union all select sum(count) from insights_archive_discovery where action_type = 'filter_apply' and ${archived}) x) as applies,
        (select coalesce(sum(n), 0) from (
          select count(*) as n from discovery_interactions where action_type = 'filter_clear' and ${raw}
          union all select sum(count) from insights_archive_discovery where action_type = 'filter_clear' and ${archived}) x) as clears,
        (select count(distinct session_id) from (
          select session_id from discovery_interactions where session_id is not null and ${raw}
          union all select session_id from insights_archive_discovery_sessions where ${archived}) s) as sessions`),
    db.query<Record<string, unknown>>(sql`
      select filter_group, filter_value, sum(n) as n from (
        select filter_group, filter_value, count(*) as n from discovery_interactions
        where action_type = 'filter_apply' and filter_group is not null and filter_value is not null and ${raw} group by 1, 2
        union all
        select filter_group, filter_value, sum(count) from insights_archive_discovery
        where action_type = 'filter_apply' and filter_group is not null and filter_value is not null and ${archived} group by 1, 2
      ) x group by 1, 2 order by n desc, filter_group, filter_value limit 30`),
    db.query<Record<string, unknown>>(sql`
      select search_query, sum(n) as n from (
        select search_query, count(*) as n from discovery_interactions
        where action_type = 'search' and search_query is not null and ${raw} group by 1
        union all
        select search_query, sum(count) from insights_archive_discovery
        where action_type = 'search' and search_query is not null and ${archived} group by 1
      ) x group by 1 order by n desc, search_query limit ${CLUSTERED_QUERY_LIMIT}`),
    listTopGenres(db),
  ]);
  const c = counts[0] ?? {};
  const queryCounts: QueryCount[] = queries.map((row) => ({ query: String(row.search_query), count: n(row.n) }));
  return {
    searchCount: n(c.searches),
    filterApplyCount: n(c.applies),
    filterClearCount: n(c.clears),
    uniqueDiscoverySessionCount: n(c.sessions),
    topFilters: filters.map((row) => ({ filterGroup: String(row.filter_group), filterValue: String(row.filter_value), count: n(row.n) })),
    topSearches: clusterQueries(queryCounts, mode, 20),
    topGenres: genres,
  };
}

const GENRE_LABELS = new Map(GENRES.map((g) => [g.key, g.label]));

/** The 10 genres with the highest total preference score over every signed-in visitor. */
export async function listTopGenres(db: MetricsDb): Promise<TopGenre[]> {
  const rows = await db.query<Record<string, unknown>>(sql`
    select genre, sum(score) as total, count(distinct email) as users from genre_preferences
    group by genre order by total desc, genre limit 10`);
  return rows.map((row) => ({ genre: String(row.genre), label: GENRE_LABELS.get(String(row.genre)) ?? String(row.genre), totalScore: n(row.total), uniqueUsers: n(row.users) }));
}

/** The whole dashboard body of the JSON API. */
export interface InsightsReport {
  windowDays: number;
  cluster: ClusterMode;
  range: { startAt: string; endAt: string };
  summary: InsightsSummary;
  events: EventInsights[];
  daily: DailyInsights[];
  discovery: DiscoveryInsights;
}

/** Every block for one window, read side by side. */
export async function readInsights(db: MetricsDb, window: InsightsWindow, mode: ClusterMode, names: ReadonlyMap<string, string>): Promise<InsightsReport> {
  const scope = await scopeOf(db, window);
  const [summary, events, daily, discovery] = await Promise.all([
    readSummary(db, scope),
    listEventInsights(db, scope, names),
    listDailyInsights(db, scope),
    readDiscoveryInsights(db, scope, mode),
  ]);
  return { windowDays: window.windowDays, cluster: mode, range: { startAt: window.start.toISOString(), endAt: window.end.toISOString() }, summary, events, daily, discovery };
}
