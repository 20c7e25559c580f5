// Engagement and discovery figures of the insights dashboard (see docs/insights.md, "Figures"),
// one function per block: summary, per-event table, daily series and discovery. They read the
// rollups kept by the tracking triggers (docs/insights.md, "Rollups") for whole Paris days and
// the raw rows only for the start of the window, so a 30-day window over millions of rows reads a
// few thousand rollup rows. The result equals the raw-row definition in reference.ts exactly.

import { sql, type SQL } from "drizzle-orm";
import type { ClusterMode } from "./clustering.ts";
import { parisDate, parisDaySql } from "../paris-time.ts";
import { nextDate, parisDayStart, parisDaysOf, percent, type InsightsWindow } from "./window.ts";
import { CLUSTERED_QUERY_LIMIT, DEDUPE_SECONDS, listTopGenres, planned, summaryFrom, type DailyInsights, type DiscoveryInsights, type EventInsights, type InsightsSummary, type MetricsDb } from "./metrics-types.ts";
import { dailyFrom, discoveryFrom, eventFrom, rawDailyInsights, rawDiscoveryInsights, rawEventInsights, rawSummary } from "./reference.ts";

export * from "./metrics-types.ts";

const n = (value: unknown): number => Number(value ?? 0);

/**
 * Where a window's figures come from. The raw rows of [window.start, rawEnd) are read with the
 * window's own rules; from `rollupFrom` on, whole Paris days come from the rollups (every later
 * day, less the raw rows recorded at or after window.end, which a clock running behind another
 * instance's can leave). Without `rollupFrom` the raw rows cover the window.
 *
 * rawEnd is the first Paris midnight at least 600 s after the window start: a view later than
 * that cannot have its previous view before the window, so the rollups' flag (previous view at
 * any time) is the window's flag. Once the retention task has archived the window's first day, the
 * raw rows are gone and the window counts from that day's start, from the rollups alone.
 */
export interface MetricsScope {
  window: InsightsWindow;
  rawEnd: Date;
  rollupFrom?: string;
  /** Where "active in the window" starts when correcting for rows after the window end. */
  activeFrom: Date;
  /**
   * Set when the window starts early in its Paris day: the engagement counts then read that whole
   * day from the rollups, less its raw rows before the start (fewer than after it).
   */
  firstDay?: string;
}

type RollupScope = MetricsScope & { rollupFrom: string };

/** Reads the archive boundary and splits the window between raw rows and rollups. */
export async function scopeOf(db: MetricsDb, window: InsightsWindow): Promise<MetricsScope> {
  const [row] = await db.query<{ archived_before: string | Date | null }>(sql`select archived_before from insights_archive_state where id = 1`);
  const boundary = row?.archived_before ? new Date(row.archived_before) : undefined;
  if (boundary && boundary.getTime() > window.start.getTime()) {
    const day = parisDate(window.start);
    return { window, rawEnd: window.start, rollupFrom: day, activeFrom: parisDayStart(day) };
  }
  const rollupFrom = nextDate(parisDate(new Date(window.start.getTime() + DEDUPE_SECONDS * 1000)));
  const rawEnd = parisDayStart(rollupFrom);
  if (rawEnd.getTime() >= window.end.getTime()) return { window, rawEnd: window.end, activeFrom: window.start };
  const day = parisDate(window.start);
  const before = window.start.getTime() - parisDayStart(day).getTime();
  const firstDay = nextDate(day) === rollupFrom && before < rawEnd.getTime() - window.start.getTime() ? day : undefined;
  return { window, rawEnd, rollupFrom, activeFrom: window.start, ...(firstDay ? { firstDay } : {}) };
}

const at = (d: Date): SQL => sql`${d.toISOString()}::timestamptz`;
const parisDay = parisDaySql(sql.raw("recorded_at"));
const DEDUPE = sql`make_interval(secs => ${DEDUPE_SECONDS})`;

/**
 * (day, event_key, click_count, outbound_count, calendar_count, deduped) parts that add up to the
 * window's figures: rollup days, the raw start of the window (a view counts unless an earlier view
 * of its session and event inside the window is less than 600 s before it), and, subtracted, raw
 * rows at or after the end (a view there was counted in the rollups unless any earlier view of
 * its session and event is less than 600 s before it).
 */
function engagementParts(scope: RollupScope): SQL {
  const firstPart = scope.firstDay ? trimmedFirstDay(scope, scope.firstDay) : rawFirstDay(scope);
  return sql`
    select day, event_key, click_count, outbound_count, calendar_count, deduped_count as deduped
    from insights_daily_engagement where day >= ${scope.firstDay ?? scope.rollupFrom}::date and day <= ${endDayOf(scope)}::date
    union all
    ${firstPart}
    union all
    select ${parisDay}, event_key,
      -count(*) filter (where action_type = 'click'),
      -count(*) filter (where action_type = 'outbound_click'),
      -count(*) filter (where action_type = 'calendar_sync'),
      -count(*) filter (where action_type = 'click' and (session_id is null or not exists (${earlierView(sql`f`)})))
    from engagement_interactions f where recorded_at >= ${at(scope.window.end)} and recorded_at < ${at(afterEndDay(scope))} group by 1, 2`;
}

/**
 * The Paris day of the window end, the last rollup day the counts read: a later day holds only rows
 * at or after the end, which would be added from the rollups and taken away again from the raw rows.
 * Bounding both sides there keeps a window that ended long ago (an edition, docs/insights.md,
 * "Editions") from reading every raw row recorded since.
 */
const endDayOf = (scope: RollupScope): string => parisDate(scope.window.end);
/** The Paris midnight after the window end's day: rows at or after the end are taken away up to it. */
const afterEndDay = (scope: RollupScope): Date => parisDayStart(nextDate(endDayOf(scope)));

/** An earlier view of the same session and event (time, then id order) less than 600 s before the row `f`. */
function earlierView(f: SQL): SQL {
  return sql`
    select 1 from engagement_interactions p
    where p.session_id = ${f}.session_id and p.event_key = ${f}.event_key and p.action_type = 'click'
      and p.recorded_at > ${f}.recorded_at - ${DEDUPE} and (p.recorded_at, p.id) < (${f}.recorded_at, ${f}.id)`;
}

/** The raw rows of [start, rawEnd) with the window's rule. */
function rawFirstDay(scope: RollupScope): SQL {
  return sql`
    select ${parisDay}, event_key,
      count(*) filter (where action_type = 'click'),
      count(*) filter (where action_type = 'outbound_click'),
      count(*) filter (where action_type = 'calendar_sync'),
      count(*) filter (where action_type = 'click' and (session_id is null or gap is null or gap >= ${DEDUPE}))
    from (
      select event_key, action_type, session_id, recorded_at,
        recorded_at - lag(recorded_at) over (partition by session_id, event_key, action_type order by recorded_at, id) as gap
      from engagement_interactions where recorded_at >= ${at(scope.window.start)} and recorded_at < ${at(scope.rawEnd)}
    ) r group by 1, 2`;
}

/**
 * The first day read from its rollup: less its raw rows before the start (with the rollup's flag),
 * plus the views of the window's first 600 s that the window counts and the rollup did not: an
 * earlier view less than 600 s before them, all before the start.
 */
function trimmedFirstDay(scope: RollupScope, day: string): SQL {
  const { start } = scope.window;
  const firstSeconds = new Date(start.getTime() + DEDUPE_SECONDS * 1000);
  return sql`
    select ${parisDay}, event_key,
      -count(*) filter (where action_type = 'click'),
      -count(*) filter (where action_type = 'outbound_click'),
      -count(*) filter (where action_type = 'calendar_sync'),
      -count(*) filter (where action_type = 'click' and (session_id is null or not exists (${earlierView(sql`f`)})))
    from engagement_interactions f where recorded_at >= ${at(parisDayStart(day))} and recorded_at < ${at(start)} group by 1, 2
    union all
    select ${parisDay}, event_key, 0, 0, 0, count(*)
    from engagement_interactions v
    where action_type = 'click' and session_id is not null and recorded_at >= ${at(start)} and recorded_at < ${at(firstSeconds)}
      and exists (${earlierView(sql`v`)} and p.recorded_at < ${at(start)})
      and not exists (${earlierView(sql`v`)} and p.recorded_at >= ${at(start)})
    group by 1, 2`;
}

/** The parts summed per `group` (SQL over day and event_key), keeping groups with any row. */
function engagementGrid(scope: RollupScope, group: SQL): SQL {
  return sql`
    select ${group} as g, sum(click_count) as click_count, sum(outbound_count) as outbound_count, sum(calendar_count) as calendar_count, sum(deduped) as deduped
    from (${engagementParts(scope)}) x group by 1
    having sum(click_count) <> 0 or sum(outbound_count) <> 0 or sum(calendar_count) <> 0`;
}

/**
 * Where the distinct-session counts of a window's partial first day come from. The rollup days
 * from `daysFrom` on count the sessions whose latest row falls on them; the sessions whose latest
 * row falls in [from, to) are added (`sign` "") or, when the window starts early in its first day
 * (the days then start with that whole day), taken away (`sign` "-"): the side with fewer raw rows.
 * Those are found through the raw rows of [from, to) and looked up by key in the latest-row table
 * (a session with a row there has its latest row there exactly when that latest row is before
 * `to`), so the latest-row tables need no index on their times, which every insert would pay for.
 */
interface LatestPart {
  daysFrom: string;
  raw: SQL;
  to: SQL;
  sign: SQL;
}

function latestPart(scope: RollupScope): LatestPart {
  if (scope.firstDay) {
    const from = parisDayStart(scope.firstDay);
    return { daysFrom: scope.firstDay, raw: sql`recorded_at >= ${at(from)} and recorded_at < ${at(scope.window.start)} and session_id is not null`, to: at(scope.window.start), sign: sql.raw("-") };
  }
  return { daysFrom: scope.rollupFrom, raw: sql`recorded_at >= ${at(scope.window.start)} and recorded_at < ${at(scope.rawEnd)} and session_id is not null`, to: at(scope.rawEnd), sign: sql.raw("") };
}

/**
 * The row of a per-session table for the session `r.session_id`, read through its primary key for
 * each session (OFFSET 0 keeps the subquery apart): a join planned as a scan of the whole table
 * reads all its sessions to find the few thousand of a partial day.
 */
const byKey = (table: SQL): SQL => sql`select * from ${table} t where t.session_id = r.session_id offset 0`;

/**
 * Distinct sessions per kind (`any` or an action) active in the window. A session was active in
 * [start, end) when its latest row of that kind is at or after start (rollup days: how many
 * sessions have their latest row on each day; the partial first day: latestPart), less the
 * sessions whose rows from start on all lie at or after the end.
 */
async function sessionCounts(db: MetricsDb, scope: RollupScope): Promise<Record<string, number>> {
  const { end } = scope.window;
  const part = latestPart(scope);
  const rows = await planned<{ kind: string; n: string }>(db, sql`
    select kind, sum(c) as n from (
      select kind, sessions as c from insights_session_days where day >= ${part.daysFrom}::date
      union all
      select k.kind, ${part.sign}count(*) from (
        select session_id, bool_or(action_type = 'click') as click, bool_or(action_type = 'outbound_click') as outbound, bool_or(action_type = 'calendar_sync') as calendar
        from engagement_interactions where ${part.raw} group by session_id
      ) r
      cross join lateral (${byKey(sql`insights_engagement_sessions`)}) s
      cross join lateral (values ('any', true, s.last_any_at), ('click', r.click, s.last_click_at),
        ('outbound_click', r.outbound, s.last_outbound_at), ('calendar_sync', r.calendar, s.last_calendar_at)) as k(kind, seen, last)
      where k.seen and k.last < ${part.to}
      group by k.kind
      union all
      select f.kind, -count(*) from (
        select session_id, action_type as kind from engagement_interactions where recorded_at >= ${at(end)} and session_id is not null
        union select session_id, 'any' from engagement_interactions where recorded_at >= ${at(end)} and session_id is not null
      ) f
      where not exists (
        select 1 from engagement_interactions e
        where e.session_id = f.session_id and (f.kind = 'any' or e.action_type = f.kind)
          and e.recorded_at >= ${at(scope.activeFrom)} and e.recorded_at < ${at(end)})
      group by f.kind
    ) x group by kind`);
  const byKind = new Map(rows.map((row) => [row.kind, n(row.n)]));
  return {
    sessions: byKind.get("any") ?? 0,
    view_sessions: byKind.get("click") ?? 0,
    outbound_sessions: byKind.get("outbound_click") ?? 0,
    calendar_sessions: byKind.get("calendar_sync") ?? 0,
  };
}

/**
 * Distinct sessions per event active in the window, the same way as sessionCounts, except that the
 * partial first day is an index range on the latest-row time (insights_event_sessions keeps that
 * index: its pairs are many, and looking the first day's pairs up by key read pages all over it).
 */
function eventSessions(scope: RollupScope): SQL {
  const { start, end } = scope.window;
  return sql`
    select event_key, sum(c) as sessions from (
      select event_key, sessions as c from insights_event_session_days where day >= ${scope.rollupFrom}::date
      union all
      select event_key, count(*) from insights_event_sessions where last_at >= ${at(start)} and last_at < ${at(scope.rawEnd)} group by 1
      union all
      select f.event_key, -count(*) from (
        select distinct session_id, event_key from engagement_interactions where recorded_at >= ${at(end)} and session_id is not null
      ) f
      where not exists (
        select 1 from engagement_interactions e
        where e.session_id = f.session_id and e.event_key = f.event_key and e.recorded_at >= ${at(scope.activeFrom)} and e.recorded_at < ${at(end)})
      group by 1
    ) x group by 1`;
}

/** The twelve summary figures of the window. */
export async function readSummary(db: MetricsDb, scope: MetricsScope): Promise<InsightsSummary> {
  if (!scope.rollupFrom) return rawSummary(db, scope.window);
  const s = scope as RollupScope;
  const [[counts], sessions] = await Promise.all([
    planned<Record<string, unknown>>(db, sql`
      select sum(click_count) as click_count, sum(outbound_count) as outbound_count, sum(calendar_count) as calendar_count, sum(deduped) as deduped
      from (${engagementParts(s)}) x`),
    sessionCounts(db, s),
  ]);
  return summaryFrom({ ...(counts ?? {}), ...sessions });
}

/**
 * Every event with activity in the window, ordered by views, outbound clicks, calendar syncs (all
 * descending, then key); `names` maps lower-cased keys to live names (the key stands in otherwise).
 */
export async function listEventInsights(db: MetricsDb, scope: MetricsScope, names: ReadonlyMap<string, string>): Promise<EventInsights[]> {
  if (!scope.rollupFrom) return rawEventInsights(db, scope.window, names);
  const s = scope as RollupScope;
  const rows = await planned<Record<string, unknown>>(db, sql`
    with counts as (${engagementGrid(s, sql`event_key`)}),
    sessions as (${eventSessions(s)})
    select c.g as event_key, c.click_count, c.outbound_count, c.calendar_count, c.deduped, coalesce(x.sessions, 0) as sessions
    from counts c left join sessions x on x.event_key = c.g
    order by c.click_count desc, c.outbound_count desc, c.calendar_count desc, c.g`);
  return rows.map((row) => eventFrom(row, names));
}

/** One entry per Paris calendar day the window touches, oldest first, zero-filled. */
export async function listDailyInsights(db: MetricsDb, scope: MetricsScope): Promise<DailyInsights[]> {
  if (!scope.rollupFrom) return rawDailyInsights(db, scope.window);
  const rows = await planned<Record<string, unknown>>(db, sql`
    select g::text as day, click_count, outbound_count, calendar_count, deduped from (${engagementGrid(scope as RollupScope, sql`day`)}) x`);
  return dailyFrom(scope.window, rows);
}

/** Discovery parts (rollup days, the raw start, less the raw rows at or after the end) of `columns`. */
function discoveryParts(scope: RollupScope, rollup: SQL, columns: SQL, where: SQL): SQL {
  const { start, end } = scope.window;
  return sql`
    select ${columns}, count as c from ${rollup} where day >= ${scope.rollupFrom}::date and day <= ${endDayOf(scope)}::date
    union all
    select ${columns}, count(*) from discovery_interactions where ${where} and recorded_at >= ${at(start)} and recorded_at < ${at(scope.rawEnd)} group by ${columns}
    union all
    select ${columns}, -count(*) from discovery_interactions where ${where} and recorded_at >= ${at(end)} and recorded_at < ${at(afterEndDay(scope))} group by ${columns}`;
}

/** The discovery block: counts, top 30 filters, top 20 search clusters, top 10 genres (all time). */
export async function readDiscoveryInsights(db: MetricsDb, scope: MetricsScope, mode: ClusterMode): Promise<DiscoveryInsights> {
  if (!scope.rollupFrom) return rawDiscoveryInsights(db, scope.window, mode);
  const s = scope as RollupScope;
  const { end } = s.window;
  const latest = latestPart(s);
  const [actions, sessions, filters, queries, genres] = await Promise.all([
    planned<{ action_type: string; n: string }>(db, sql`
      select action_type, sum(c) as n from (${discoveryParts(s, sql`insights_daily_discovery`, sql`action_type`, sql`true`)}) x group by 1`),
    planned<{ n: string }>(db, sql`
      select sum(c) as n from (
        select sessions as c from insights_discovery_session_days where day >= ${latest.daysFrom}::date
        union all
        select ${latest.sign}count(*) from (select distinct session_id from discovery_interactions where ${latest.raw}) r
        cross join lateral (${byKey(sql`insights_discovery_sessions`)}) x where x.last_at < ${latest.to}
        union all
        select -count(*) from (select distinct session_id from discovery_interactions where recorded_at >= ${at(end)} and session_id is not null) f
        where not exists (
          select 1 from discovery_interactions d
          where d.session_id = f.session_id and d.recorded_at >= ${at(s.activeFrom)} and d.recorded_at < ${at(end)})
      ) x`),
    planned<Record<string, unknown>>(db, sql`
      select filter_group, filter_value, sum(c) as n from (${discoveryParts(
        s,
        sql`insights_daily_filters`,
        sql`filter_group, filter_value`,
        sql`action_type = 'filter_apply' and filter_group is not null and filter_value is not null`,
      )}) x
      group by 1, 2 having sum(c) > 0 order by n desc, filter_group, filter_value limit 30`),
    planned<Record<string, unknown>>(db, sql`
      select search_query, sum(c) as n from (${discoveryParts(s, sql`insights_daily_searches`, sql`search_query`, sql`action_type = 'search' and search_query is not null`)}) x
      group by 1 having sum(c) > 0 order by n desc, search_query limit ${CLUSTERED_QUERY_LIMIT}`),
    listTopGenres(db),
  ]);
  const byAction = new Map(actions.map((row) => [row.action_type, n(row.n)]));
  const counts = { searches: byAction.get("search"), applies: byAction.get("filter_apply"), clears: byAction.get("filter_clear"), sessions: sessions[0]?.n };
  return discoveryFrom(counts, filters, queries, genres, mode);
}

/**
 * Summary, per-event table and daily series together, reading the parts once per (Paris day,
 * event) for the counts and the deduplicated views, once for the distinct sessions of the summary
 * and once for those of each event. Gives exactly what readSummary, listEventInsights and
 * listDailyInsights give (events tied on every count in key order by code point).
 */
export async function readEngagementBlocks(db: MetricsDb, scope: MetricsScope, names: ReadonlyMap<string, string>): Promise<{ summary: InsightsSummary; events: EventInsights[]; daily: DailyInsights[] }> {
  if (!scope.rollupFrom) {
    const [summary, events, daily] = await Promise.all([rawSummary(db, scope.window), rawEventInsights(db, scope.window, names), rawDailyInsights(db, scope.window)]);
    return { summary, events: sortEvents(events), daily };
  }
  const s = scope as RollupScope;
  // One pass over the parts, summed per day, per event and in all (grouping() tells which).
  const [grid, sessions, perEvent] = await Promise.all([
    planned<Record<string, unknown>>(db, sql`
      select grouping(day, event_key) as level, day::text as day, event_key,
        sum(click_count) as click_count, sum(outbound_count) as outbound_count, sum(calendar_count) as calendar_count, sum(deduped) as deduped
      from (${engagementParts(s)}) x group by grouping sets ((day), (event_key), ())`),
    sessionCounts(db, s),
    planned<Record<string, unknown>>(db, eventSessions(s)),
  ]);
  type Sums = { click: number; outbound: number; calendar: number; deduped: number };
  const sums = (row: Record<string, unknown>): Sums => ({ click: n(row.click_count), outbound: n(row.outbound_count), calendar: n(row.calendar_count), deduped: n(row.deduped) });
  const byDay = new Map<string, Sums>();
  const byEvent = new Map<string, Sums>();
  let total: Sums = { click: 0, outbound: 0, calendar: 0, deduped: 0 };
  for (const row of grid) {
    const level = n(row.level);
    if (level === 1) byDay.set(String(row.day), sums(row));
    else if (level === 2) byEvent.set(String(row.event_key), sums(row));
    else total = sums(row);
  }
  const summary = summaryFrom({ ...sessions, click_count: total.click, outbound_count: total.outbound, calendar_count: total.calendar, deduped: total.deduped });
  const sessionsByEvent = new Map(perEvent.map((row) => [String(row.event_key), n(row.sessions)]));
  const events = sortEvents(
    [...byEvent.entries()]
      .filter(([, e]) => e.click !== 0 || e.outbound !== 0 || e.calendar !== 0)
      .map(([eventKey, e]) => ({
        eventKey,
        eventName: names.get(eventKey) ?? eventKey,
        clickCount: e.click,
        dedupedViewCount: e.deduped,
        outboundClickCount: e.outbound,
        calendarSyncCount: e.calendar,
        uniqueSessionCount: sessionsByEvent.get(eventKey) ?? 0,
        conversionRate: percent(e.calendar, e.deduped),
      })),
  );
  const daily = parisDaysOf(s.window).map((day) => {
    const d = byDay.get(day);
    return { day, clickCount: d?.click ?? 0, dedupedViewCount: d?.deduped ?? 0, outboundClickCount: d?.outbound ?? 0, calendarSyncCount: d?.calendar ?? 0 };
  });
  return { summary, events, daily };
}

/**
 * The summary and the daily series together (the stats block): one pass over the engagement parts
 * summed per day and in all, and the distinct sessions. Equals readSummary and listDailyInsights.
 */
export async function readSummaryAndDaily(db: MetricsDb, scope: MetricsScope): Promise<{ summary: InsightsSummary; daily: DailyInsights[] }> {
  if (!scope.rollupFrom) {
    const [summary, daily] = await Promise.all([rawSummary(db, scope.window), rawDailyInsights(db, scope.window)]);
    return { summary, daily };
  }
  const s = scope as RollupScope;
  const [grid, sessions] = await Promise.all([
    planned<Record<string, unknown>>(db, sql`
      select grouping(day) as level, day::text as day,
        sum(click_count) as click_count, sum(outbound_count) as outbound_count, sum(calendar_count) as calendar_count, sum(deduped) as deduped
      from (${engagementParts(s)}) x group by grouping sets ((day), ())`),
    sessionCounts(db, s),
  ]);
  const total = grid.find((row) => n(row.level) === 1) ?? {};
  return { summary: summaryFrom({ ...total, ...sessions }), daily: dailyFrom(s.window, grid.filter((row) => n(row.level) === 0)) };
}

/** Events by views, outbound, calendar (descending), then key by code point. */
function sortEvents(events: EventInsights[]): EventInsights[] {
  return [...events].sort(
    (a, b) =>
      b.clickCount - a.clickCount ||
      b.outboundClickCount - a.outboundClickCount ||
      b.calendarSyncCount - a.calendarSyncCount ||
      (a.eventKey < b.eventKey ? -1 : a.eventKey > b.eventKey ? 1 : 0),
  );
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
  const [{ summary, events, daily }, discovery] = await Promise.all([readEngagementBlocks(db, scope, names), readDiscoveryInsights(db, scope, mode)]);
  return { windowDays: window.windowDays, cluster: mode, range: { startAt: window.start.toISOString(), endAt: window.end.toISOString() }, summary, events, daily, discovery };
}

/** The figures an edition comparison reads for one range (docs/insights.md, "Editions"). */
export interface EditionFigures {
  /** Views: `click` rows. */
  clickCount: number;
  /** Saves: `calendar_sync` rows (a downloaded calendar file, what the cards' "saved" line counts). */
  calendarSyncCount: number;
  searchCount: number;
  /** Applied `genre` and `arrondissement` filters of the range, by value, most applied first. */
  filters: { filterGroup: "genre" | "arrondissement"; filterValue: string; count: number }[];
}

/** The groups of applied filters a comparison ranks: the genre and arrondissement filters. */
const COMPARED_FILTER_GROUPS = sql`('genre', 'arrondissement')`;

/** Views, saves, searches and the applied genre and arrondissement filters of a window (rollups, or raw rows for a short one). */
export async function readEditionFigures(db: MetricsDb, scope: MetricsScope): Promise<EditionFigures> {
  const { start, end } = scope.window;
  let engagement: Promise<Record<string, unknown>[]>;
  let searches: Promise<Record<string, unknown>[]>;
  let filters: Promise<Record<string, unknown>[]>;
  if (!scope.rollupFrom) {
    const range = sql`recorded_at >= ${at(start)} and recorded_at < ${at(end)}`;
    engagement = planned(db, sql`
      select count(*) filter (where action_type = 'click') as click_count, count(*) filter (where action_type = 'calendar_sync') as calendar_count
      from engagement_interactions where ${range}`);
    searches = planned(db, sql`select count(*) as n from discovery_interactions where action_type = 'search' and ${range}`);
    filters = planned(db, sql`
      select filter_group, filter_value, count(*) as n from discovery_interactions
      where action_type = 'filter_apply' and filter_group in ${COMPARED_FILTER_GROUPS} and filter_value is not null and ${range}
      group by 1, 2`);
  } else {
    const s = scope as RollupScope;
    engagement = planned(db, sql`select sum(click_count) as click_count, sum(calendar_count) as calendar_count from (${engagementParts(s)}) x`);
    searches = planned(db, sql`select sum(c) as n from (${discoveryParts(s, sql`insights_daily_discovery`, sql`action_type`, sql`true`)}) x where action_type = 'search'`);
    filters = planned(db, sql`
      select filter_group, filter_value, sum(c) as n from (${discoveryParts(
        s,
        sql`insights_daily_filters`,
        sql`filter_group, filter_value`,
        sql`action_type = 'filter_apply' and filter_group is not null and filter_value is not null`,
      )}) x
      where filter_group in ${COMPARED_FILTER_GROUPS} group by 1, 2`);
  }
  const [[counts], [search], applied] = await Promise.all([engagement, searches, filters]);
  return {
    clickCount: n(counts?.click_count),
    calendarSyncCount: n(counts?.calendar_count),
    searchCount: n(search?.n),
    filters: applied
      .map((row) => ({ filterGroup: String(row.filter_group) as "genre" | "arrondissement", filterValue: String(row.filter_value), count: n(row.n) }))
      .filter((row) => row.count > 0)
      .sort((a, b) => b.count - a.count || (a.filterValue < b.filterValue ? -1 : a.filterValue > b.filterValue ? 1 : 0)),
  };
}
