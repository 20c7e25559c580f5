// Partner statistics of one activation (see docs/placements.md, "Partner statistics"): the checks
// in their fixed order, the window, the metrics (read from the activation's rollup, kept equal to
// the raw engagement records by the database; the raw computation stays as the reference and the
// fallback), the CSV, and a daily series for the partner page.

import { and, eq, gte, lt, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { engagementInteractions, paidOrders } from "../db/schema/index.ts";
import { partnerTokenMatches } from "./tokens.ts";
import { csvLine } from "../sheet/csv.ts";
import type { EventReader } from "../events/pipeline.ts";
import { parisDate, parisDaySql, parisWallClockSql } from "../paris-time.ts";
import { NO_STORE_HEADERS } from "../http/responses.ts";
import { engagementMetrics, type EngagementMetrics } from "../insights/metrics-types.ts";

/** The one rounding of every rate (re-exported for the partner tests and callers of this module). */
export { percent } from "../insights/window.ts";

/**
 * Headers of every partner statistics answer, page or API: never cached, and no Referer, so the
 * token in the URL cannot leak to linked sites. Set per route; a global security-header layer may
 * add to them but should keep this Referrer-Policy.
 */
export const PARTNER_STATS_HEADERS: Readonly<Record<string, string>> = { ...NO_STORE_HEADERS, "referrer-policy": "no-referrer" };

export interface PartnerStatsDeps {
  db: Db;
  events: Pick<EventReader, "load">;
  log: Logger;
  now: () => Date;
}

/**
 * A partner sees the dashboard's engagement figures for its event (without the de-duplicated
 * views), and its My-night saves of the window: saves less removals, never below 0 (the card's
 * "N people saved this", distinct from calendarSyncCount, the calendar files downloaded).
 */
export type PartnerMetrics = EngagementMetrics & { myNightSaveCount: number };

/** The `data` of a successful answer. */
export interface PartnerStats {
  activationId: string;
  eventKey: string;
  eventName: string;
  tier: "spotlight" | "promoted";
  range: { startAt: string; endAt: string };
  metrics: PartnerMetrics;
}

export type PartnerStatsResult = { ok: true; stats: PartnerStats } | { ok: false; reason: "invalid" | "forbidden" | "not_found" | "conflict" | "unavailable"; error: string };

export const PARTNER_STATS_ERRORS = {
  tokenRequired: "Token required",
  notFound: "Partner stats record not found",
  invalidToken: "Invalid partner stats token",
  notFulfilled: "Activation not fulfilled yet",
  unavailable: "Stats service unavailable",
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Order = typeof paidOrders.$inferSelect;

/** The stats window of an activation: fulfilled start (else activated_at, else created_at) to fulfilled end (else now). */
export function statsWindow(order: Pick<Order, "fulfilledStartAt" | "fulfilledEndAt" | "activatedAt" | "createdAt">, now: Date): { startAt: Date; endAt: Date } {
  const startAt = order.fulfilledStartAt ?? order.activatedAt ?? order.createdAt;
  let endAt = order.fulfilledEndAt ?? now;
  if (endAt.getTime() < startAt.getTime()) endAt = now;
  return { startAt, endAt };
}

/** The order behind a statistics link, after the token and state checks, in the documented order. */
async function authorisedActivation(deps: PartnerStatsDeps, id: string, token: unknown): Promise<{ ok: true; order: Order } | { ok: false; reason: "invalid" | "forbidden" | "not_found" | "conflict" | "unavailable"; error: string }> {
  if (typeof token !== "string" || token.trim() === "") return { ok: false, reason: "invalid", error: PARTNER_STATS_ERRORS.tokenRequired };
  let order: Order | undefined;
  try {
    order = UUID.test(id) ? (await deps.db.select().from(paidOrders).where(eq(paidOrders.id, id)))[0] : undefined;
  } catch (error) {
    deps.log.error("partner-stats", "Order store unavailable", undefined, error);
    return { ok: false, reason: "unavailable", error: PARTNER_STATS_ERRORS.unavailable };
  }
  if (!order) return { ok: false, reason: "not_found", error: PARTNER_STATS_ERRORS.notFound };
  if (!partnerTokenMatches(token, order.partnerStatsTokenHash)) return { ok: false, reason: "forbidden", error: PARTNER_STATS_ERRORS.invalidToken };
  if (order.status !== "activated" || !order.fulfilledEventKey || (order.fulfilledTier !== "spotlight" && order.fulfilledTier !== "promoted")) {
    return { ok: false, reason: "conflict", error: PARTNER_STATS_ERRORS.notFulfilled };
  }
  return { ok: true, order };
}

function windowFilter(eventKey: string, startAt: Date, endAt: Date) {
  return and(eq(engagementInteractions.eventKey, eventKey.toLowerCase()), gte(engagementInteractions.recordedAt, startAt), lt(engagementInteractions.recordedAt, endAt));
}

/**
 * The metrics of one key over [startAt, endAt), in one query over the raw records: rows are first
 * grouped per session, then summed, instead of four distinct-count sorts. The bounds are plain
 * comparisons on the indexed columns, so the scan is index-only on one of the two (event_key, …)
 * indexes: by session when the window holds most of the key's rows (groups stream in index order),
 * by time when it is narrow. Which one depends on the key and the window, so the query is planned
 * for its actual values (`plan_cache_mode`): a reused generic plan of the prepared statement
 * guesses a few rows and hashes a hundred thousand sessions, spilling to disk (several times
 * slower).
 */
export async function readMetrics(db: Db, eventKey: string, startAt: Date, endAt: Date): Promise<PartnerMetrics> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_custom_plan`);
    return { ...(await metricsQuery(tx, eventKey, startAt, endAt)), myNightSaveCount: await readNightSaves(tx, eventKey, startAt, endAt) };
  });
}

/**
 * The My-night saves of one key over [startAt, endAt): night_save less night_unsave records, never
 * below 0. Not in the rollup (its rows carry no session): a range of the (event_key, recorded_at,
 * action_type, …) index, read index-only.
 */
export async function readNightSaves(db: Db, eventKey: string, startAt: Date, endAt: Date): Promise<number> {
  const e = engagementInteractions;
  const [row] = await db
    .select({
      saves: sql<number>`count(*) filter (where ${e.actionType} = 'night_save')`,
      unsaves: sql<number>`count(*) filter (where ${e.actionType} = 'night_unsave')`,
    })
    .from(e)
    .where(and(windowFilter(eventKey, startAt, endAt), sql`${e.actionType} in ('night_save', 'night_unsave')`));
  return Math.max(0, Number(row?.saves ?? 0) - Number(row?.unsaves ?? 0));
}

async function metricsQuery(db: Db, eventKey: string, startAt: Date, endAt: Date): Promise<EngagementMetrics> {
  const e = engagementInteractions;
  const perSession = db
    .select({
      sessionId: e.sessionId,
      clicks: sql<number>`count(*) filter (where ${e.actionType} = 'click')`.as("clicks"),
      outbound: sql<number>`count(*) filter (where ${e.actionType} = 'outbound_click')`.as("outbound"),
      calendar: sql<number>`count(*) filter (where ${e.actionType} = 'calendar_sync')`.as("calendar"),
    })
    .from(e)
    .where(windowFilter(eventKey, startAt, endAt))
    .groupBy(e.sessionId)
    .as("per_session");
  const [row] = await db
    .select({
      clicks: sql<number>`coalesce(sum(${perSession.clicks}), 0)`,
      outbound: sql<number>`coalesce(sum(${perSession.outbound}), 0)`,
      calendar: sql<number>`coalesce(sum(${perSession.calendar}), 0)`,
      sessions: sql<number>`count(${perSession.sessionId})`,
      viewSessions: sql<number>`count(${perSession.sessionId}) filter (where ${perSession.clicks} > 0)`,
      outboundSessions: sql<number>`count(${perSession.sessionId}) filter (where ${perSession.outbound} > 0)`,
      calendarSessions: sql<number>`count(${perSession.sessionId}) filter (where ${perSession.calendar} > 0)`,
    })
    .from(perSession);
  return metricsOf(row ?? {});
}

/** The counts as numbers, and the rates derived from them. */
function metricsOf(row: { clicks?: unknown; outbound?: unknown; calendar?: unknown; sessions?: unknown; viewSessions?: unknown; outboundSessions?: unknown; calendarSessions?: unknown }): EngagementMetrics {
  const n = (v: unknown) => Number(v ?? 0);
  return engagementMetrics({
    clickCount: n(row.clicks),
    outboundClickCount: n(row.outbound),
    calendarSyncCount: n(row.calendar),
    uniqueSessionCount: n(row.sessions),
    uniqueViewSessionCount: n(row.viewSessions),
    uniqueOutboundSessionCount: n(row.outboundSessions),
    uniqueCalendarSessionCount: n(row.calendarSessions),
  });
}

/**
 * The part of an activation's rollup that the read does not cover, as a `late` CTE: a rollup
 * with no end holds every record from its start on, while the read stops at its end (now), so the
 * records at or after that instant are taken away again. Records carry the server time at which
 * they were accepted, so there are none in practice (a skew between instances' clocks, a test's
 * clock); the range scan on (event_key, recorded_at) finds that out at the cost of one index
 * probe. A rollup with an end covers exactly the read's window and nothing is taken away.
 */
function lateRecords(orderId: string, endAt: Date, groupBy: "session" | "day") {
  const key = groupBy === "session" ? sql.raw("e.session_id") : parisDaySql(sql.raw("e.recorded_at"));
  return sql`
    s as (select * from partner_stats where order_id = ${orderId}::uuid),
    late as (
      select ${key} as k, count(*)::integer as n,
        count(*) filter (where e.action_type = 'click')::integer as clicks,
        count(*) filter (where e.action_type = 'outbound_click')::integer as outbound,
        count(*) filter (where e.action_type = 'calendar_sync')::integer as calendar
      from s join engagement_interactions e
        on s.end_at is null and e.event_key = s.event_key and e.recorded_at >= greatest(s.start_at, ${endAt.toISOString()}::timestamptz)
      group by 1
    )`;
}

/** True when a rollup row covers the window the order's statistics read: same key, start, and end (or none for an open window). */
function coversWindow(row: Record<string, unknown>, eventKey: string, startAt: Date, endAt: Date | null): boolean {
  const end = row.end_ms === null || row.end_ms === undefined ? null : Number(row.end_ms);
  return row.event_key === eventKey.toLowerCase() && Number(row.start_ms) === startAt.getTime() && end === (endAt?.getTime() ?? null);
}

/** The end a rollup has for an order: the fulfilled end, or none (open-ended) when missing or before the start. */
function rollupEnd(order: Pick<Order, "fulfilledEndAt">, startAt: Date): Date | null {
  return order.fulfilledEndAt && order.fulfilledEndAt.getTime() >= startAt.getTime() ? order.fulfilledEndAt : null;
}

/**
 * The metrics of an activation from its rollup (one indexed row; see docs/placements.md, "Partner
 * statistics"), for the window [startAt, endAt) that `statsWindow` gives; undefined when there is
 * no rollup for that window (then the raw records must be read). One statement, so the row and the
 * correction for late records come from one snapshot.
 */
export async function readStoredMetrics(db: Db, order: Pick<Order, "id" | "fulfilledEventKey" | "fulfilledEndAt">, startAt: Date, endAt: Date): Promise<EngagementMetrics | undefined> {
  const result = await db.execute(sql`
    with ${lateRecords(order.id, endAt, "session")},
    gone as (
      select coalesce(sum(l.clicks), 0)::integer as clicks, coalesce(sum(l.outbound), 0)::integer as outbound, coalesce(sum(l.calendar), 0)::integer as calendar,
        count(*) filter (where p.row_count = l.n)::integer as sessions,
        count(*) filter (where p.click_count > 0 and p.click_count = l.clicks)::integer as views,
        count(*) filter (where p.outbound_count > 0 and p.outbound_count = l.outbound)::integer as outbound_sessions,
        count(*) filter (where p.calendar_count > 0 and p.calendar_count = l.calendar)::integer as calendar_sessions
      from late l left join partner_stats_sessions p on p.order_id = ${order.id}::uuid and p.session_id = l.k
    )
    select s.event_key, floor(extract(epoch from s.start_at) * 1000)::float8 as start_ms, floor(extract(epoch from s.end_at) * 1000)::float8 as end_ms,
      s.click_count - g.clicks as clicks, s.outbound_count - g.outbound as outbound, s.calendar_count - g.calendar as calendar,
      s.sessions - g.sessions as sessions, s.view_sessions - g.views as view_sessions,
      s.outbound_sessions - g.outbound_sessions as outbound_sessions, s.calendar_sessions - g.calendar_sessions as calendar_sessions
    from s cross join gone g`);
  const [row] = rowsOf(result);
  if (!row || !order.fulfilledEventKey || !coversWindow(row, order.fulfilledEventKey, startAt, rollupEnd(order, startAt))) return undefined;
  return metricsOf({
    clicks: row.clicks,
    outbound: row.outbound,
    calendar: row.calendar,
    sessions: row.sessions,
    viewSessions: row.view_sessions,
    outboundSessions: row.outbound_sessions,
    calendarSessions: row.calendar_sessions,
  });
}

async function liveEventName(deps: PartnerStatsDeps, eventKey: string): Promise<string | undefined> {
  try {
    const { events } = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
    return events.find((e) => e.eventKey.toLowerCase() === eventKey.toLowerCase())?.eventName;
  } catch {
    // The figures stand on their own: the order's name (or the key) is shown instead.
    return undefined;
  }
}

/** GET /api/partner-stats/<id>?token=: checks, window, metrics. */
export async function readPartnerStats(deps: PartnerStatsDeps, id: string, token: unknown): Promise<PartnerStatsResult & { order?: Order }> {
  const access = await authorisedActivation(deps, id, token);
  if (!access.ok) return access;
  const { order } = access;
  const eventKey = order.fulfilledEventKey!;
  const { startAt, endAt } = statsWindow(order, deps.now());
  let metrics: PartnerMetrics;
  try {
    const stored = await readStoredMetrics(deps.db, order, startAt, endAt);
    if (stored) metrics = { ...stored, myNightSaveCount: await readNightSaves(deps.db, eventKey, startAt, endAt) };
    else {
      // Not expected: the triggers keep a rollup for every activation. The raw records still give
      // the exact figures, only slower; `npm run partners:rebuild` puts the rollups back.
      deps.log.warn("partner-stats", "Partner statistics rollup missing or out of step; reading the raw records");
      metrics = await readMetrics(deps.db, eventKey, startAt, endAt);
    }
  } catch (error) {
    deps.log.error("partner-stats", "Engagement store unavailable", undefined, error);
    return { ok: false, reason: "unavailable", error: PARTNER_STATS_ERRORS.unavailable };
  }
  const eventName = (await liveEventName(deps, eventKey)) ?? order.eventName ?? eventKey;
  return {
    ok: true,
    order,
    stats: { activationId: order.id, eventKey, eventName, tier: order.fulfilledTier as "spotlight" | "promoted", range: { startAt: startAt.toISOString(), endAt: endAt.toISOString() }, metrics },
  };
}

/** The 18 CSV columns, in order (my_night_saves last: the columns before it never move). */
export const PARTNER_CSV_COLUMNS = [
  "activation_id",
  "event_key",
  "event_name",
  "tier",
  "start_at",
  "end_at",
  "views",
  "outbound_clicks",
  "calendar_syncs",
  "unique_sessions",
  "unique_view_sessions",
  "unique_outbound_sessions",
  "unique_calendar_sessions",
  "outbound_session_rate",
  "calendar_session_rate",
  "outbound_interaction_rate",
  "calendar_interaction_rate",
  "my_night_saves",
] as const;

/** A text cell that a spreadsheet would run as a formula gets a leading apostrophe. */
function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** The CSV: the header and one data row, each ending `\n`; rates with exactly one decimal. */
export function partnerStatsCsv(stats: PartnerStats): string {
  const m = stats.metrics;
  const rate = (value: number) => value.toFixed(1);
  return (
    csvLine(PARTNER_CSV_COLUMNS) +
    "\n" +
    csvLine([
      stats.activationId,
      neutralised(stats.eventKey),
      neutralised(stats.eventName),
      stats.tier,
      stats.range.startAt,
      stats.range.endAt,
      m.clickCount,
      m.outboundClickCount,
      m.calendarSyncCount,
      m.uniqueSessionCount,
      m.uniqueViewSessionCount,
      m.uniqueOutboundSessionCount,
      m.uniqueCalendarSessionCount,
      rate(m.outboundSessionRate),
      rate(m.calendarSessionRate),
      rate(m.outboundInteractionRate),
      rate(m.calendarInteractionRate),
      m.myNightSaveCount,
    ]) +
    "\n"
  );
}

/** One Paris day of the partner page's chart. */
export interface PartnerDay {
  day: string;
  views: number;
  outbound: number;
  calendar: number;
}

type DayCounts = { day: string; views: unknown; outbound: unknown; calendar: unknown };

/** Zero-filled days of the window from per-day counts (at most 60 days shown). */
function dailySeries(rows: readonly DayCounts[], startAt: Date, endAt: Date): PartnerDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const days: PartnerDay[] = [];
  const last = parisDate(new Date(Math.max(startAt.getTime(), endAt.getTime() - 1)));
  // Calendar arithmetic on the date itself (UTC noon), so DST changes never skip or repeat a day.
  for (let d = parisDate(startAt); d <= last && days.length < 60; d = new Date(Date.parse(`${d}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
    const row = byDay.get(d);
    days.push({ day: d, views: Number(row?.views ?? 0), outbound: Number(row?.outbound ?? 0), calendar: Number(row?.calendar ?? 0) });
  }
  return days;
}

/** The daily series computed from the raw engagement records of [startAt, endAt) (the reference; the fallback). */
export async function readRawDailySeries(db: Db, eventKey: string, startAt: Date, endAt: Date): Promise<PartnerDay[]> {
  const e = engagementInteractions;
  const day = sql<string>`to_char(${parisWallClockSql(e.recordedAt)}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      views: sql<number>`count(*) filter (where ${e.actionType} = 'click')`,
      outbound: sql<number>`count(*) filter (where ${e.actionType} = 'outbound_click')`,
      calendar: sql<number>`count(*) filter (where ${e.actionType} = 'calendar_sync')`,
    })
    .from(e)
    .where(windowFilter(eventKey, startAt, endAt))
    .groupBy(day);
  return dailySeries(rows, startAt, endAt);
}

/**
 * Views, outbound clicks and calendar saves per Paris day of the window (zero-filled, at most 60
 * days shown), from the activation's per-day rollup (less late records, as for the metrics); from
 * the raw records when there is no rollup for the window.
 */
export async function readDailySeries(db: Db, stats: PartnerStats): Promise<PartnerDay[]> {
  const startAt = new Date(stats.range.startAt);
  const endAt = new Date(stats.range.endAt);
  const result = await db.execute(sql`
    with ${lateRecords(stats.activationId, endAt, "day")}
    select s.event_key, floor(extract(epoch from s.start_at) * 1000)::float8 as start_ms, floor(extract(epoch from s.end_at) * 1000)::float8 as end_ms,
      d.day::text as day, d.click_count - coalesce(l.clicks, 0) as views, d.outbound_count - coalesce(l.outbound, 0) as outbound,
      d.calendar_count - coalesce(l.calendar, 0) as calendar
    from s left join partner_stats_days d on d.order_id = s.order_id left join late l on l.k = d.day`);
  const rows = rowsOf(result);
  const open = rows[0]?.end_ms === null || rows[0]?.end_ms === undefined;
  // A rollup without an end reads as ending at the range's end (now); with one, the range ends there.
  if (!rows[0] || !coversWindow(rows[0], stats.eventKey, startAt, open ? null : endAt)) return readRawDailySeries(db, stats.eventKey, startAt, endAt);
  return dailySeries(rows.filter((r) => r.day !== null) as DayCounts[], startAt, endAt);
}
