// Projections applied to live events: featured (active spotlight) and promoted (active promoted
// placement) from one statement, engagement (all-time calendar_sync count and My-night saved count
// per key) from another.

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { engagementInteractions, promotedSchedule, spotlightSchedule } from "../db/schema/index.ts";
import type { LiveEvent } from "../sheet/types.ts";

// Copies of one built event (coordinates placed, projections applied) keep that event as their
// origin: what depends only on its text (the search index) is worked out once per built event,
// not once per projection state.
const origins = new WeakMap<LiveEvent, LiveEvent>();

/** Records `copies[i]` as copies of `events[i]` (same order). */
export function recordCopies(events: readonly LiveEvent[], copies: readonly LiveEvent[]): void {
  copies.forEach((copy, i) => {
    const event = events[i];
    if (event && copy !== event) origins.set(copy, origins.get(event) ?? event);
  });
}

/** The built event a copy was made from (the event itself when it is no copy). */
export function originOf(event: LiveEvent): LiveEvent {
  return origins.get(event) ?? event;
}

/** An active placement window for one event key. */
export interface ActiveWindow {
  startAt: Date;
  endAt: Date;
}

type ScheduleTable = typeof spotlightSchedule | typeof promotedSchedule;

/**
 * The placement projection's database work in one round trip (a live read runs it on every render
 * miss): completes the ended entries of both schedulers, as every listing must first (the rule of
 * completeEndedEntries in placements/scheduler.ts, written here as SQL), and reads the
 * active windows of both. The select sees the rows as they were before the updates (one statement,
 * one snapshot), which changes nothing: an entry the updates complete has ended, and only windows
 * that have not ended are read. Times come back as epoch milliseconds, a number on both drivers.
 */
export async function settleActiveWindows(db: Db, now: Date): Promise<{ spotlights: Map<string, ActiveWindow>; promotions: Map<string, ActiveWindow> }> {
  const at = now.toISOString();
  const active = (table: ScheduleTable, tier: string) => sql`
    select ${tier} as tier, event_key, (extract(epoch from effective_start_at) * 1000)::float8 as start_ms, (extract(epoch from effective_end_at) * 1000)::float8 as end_ms
    from ${table}
    where status = 'scheduled' and effective_start_at <= ${at}::timestamptz and effective_end_at > ${at}::timestamptz`;
  const settle = (table: ScheduleTable) => sql`
    update ${table} set status = 'completed', updated_at = ${at}::timestamptz
    where status = 'scheduled' and effective_end_at <= ${at}::timestamptz returning id`;
  const rows = rowsOf<{ tier: string; event_key: string; start_ms: number; end_ms: number }>(
    await db.execute(sql`
      with ended_spotlights as (${settle(spotlightSchedule)}), ended_promotions as (${settle(promotedSchedule)})
      ${active(spotlightSchedule, "spotlight")}
      union all
      ${active(promotedSchedule, "promoted")}`),
  );
  const spotlights = new Map<string, ActiveWindow>();
  const promotions = new Map<string, ActiveWindow>();
  for (const row of rows) {
    const windows = row.tier === "spotlight" ? spotlights : promotions;
    const key = row.event_key.toLowerCase();
    const window = { startAt: new Date(Number(row.start_ms)), endAt: new Date(Number(row.end_ms)) };
    const existing = windows.get(key);
    // Overlapping entries for one key: show the one that ends last.
    if (!existing || window.endAt > existing.endAt) windows.set(key, window);
  }
  return { spotlights, promotions };
}

/** The engagement counts of one event key. */
export interface EngagementCounts {
  /** calendar_sync rows: calendar files downloaded. */
  calendar: number;
  /** night_save rows less night_unsave rows, never below 0: the My-night saved count. */
  saved: number;
}

/**
 * All-time engagement counts by event key, in one statement: calendar_sync rows (an index-only scan
 * of their partial index, as before) and the My-night saves (night_save less night_unsave, floored
 * at 0) through the action/time index.
 */
export async function engagementCounts(db: Db): Promise<Map<string, EngagementCounts>> {
  // The actions written into the statement, not as parameters: a generic plan of a parameter
  // could not use the partial index on calendar_sync rows (db/schema/tracking.ts).
  const rows = rowsOf<{ event_key: string; action_type: string; n: number | string }>(
    await db.execute(sql`
      select ${engagementInteractions.eventKey} as event_key, 'calendar_sync' as action_type, count(*) as n
      from ${engagementInteractions} where ${engagementInteractions.actionType} = 'calendar_sync' group by 1
      union all
      select ${engagementInteractions.eventKey}, ${engagementInteractions.actionType}, count(*)
      from ${engagementInteractions} where ${engagementInteractions.actionType} in ('night_save', 'night_unsave') group by 1, 2`),
  );
  const counts = new Map<string, EngagementCounts & { unsaved: number }>();
  for (const row of rows) {
    let entry = counts.get(row.event_key);
    if (!entry) counts.set(row.event_key, (entry = { calendar: 0, saved: 0, unsaved: 0 }));
    const n = Number(row.n);
    if (row.action_type === "calendar_sync") entry.calendar += n;
    else if (row.action_type === "night_save") entry.saved += n;
    else entry.unsaved += n;
  }
  return new Map([...counts].map(([key, c]) => [key, { calendar: c.calendar, saved: Math.max(0, c.saved - c.unsaved) }]));
}

/** Sets the featured fields from active spotlight windows (false/null elsewhere). */
export function applyFeatured(events: LiveEvent[], windows: Map<string, ActiveWindow>): void {
  for (const event of events) {
    const window = windows.get(event.eventKey);
    event.isFeatured = Boolean(window);
    event.featuredAt = window ? window.startAt.toISOString() : null;
    event.featuredEndsAt = window ? window.endAt.toISOString() : null;
  }
}

/** Sets the promoted fields from active promoted windows (false/null elsewhere). */
export function applyPromoted(events: LiveEvent[], windows: Map<string, ActiveWindow>): void {
  for (const event of events) {
    const window = windows.get(event.eventKey);
    event.isPromoted = Boolean(window);
    event.promotedAt = window ? window.startAt.toISOString() : null;
    event.promotedEndsAt = window ? window.endAt.toISOString() : null;
  }
}

/** Sets calendarSyncCount and savedCount (0 when none). */
export function applyEngagement(events: LiveEvent[], counts: Map<string, EngagementCounts>): void {
  for (const event of events) {
    const c = counts.get(event.eventKey);
    event.calendarSyncCount = c?.calendar ?? 0;
    event.savedCount = c?.saved ?? 0;
  }
}

/**
 * Homepage order: active spotlight first, then active promoted, then the rest, each group
 * in sheet order (the input order). Occurrences of a series already sit together in the input.
 */
export function orderForHomepage(events: readonly LiveEvent[]): LiveEvent[] {
  const spotlight: LiveEvent[] = [];
  const promoted: LiveEvent[] = [];
  const rest: LiveEvent[] = [];
  for (const event of events) {
    if (event.isFeatured) spotlight.push(event);
    else if (event.isPromoted) promoted.push(event);
    else rest.push(event);
  }
  return [...spotlight, ...promoted, ...rest];
}

/**
 * What the projections of a live read depend on, in one small round trip: the coordinate cache's
 * last write, a version of each placement schedule (row count and newest change) and the next
 * instant an active window starts or ends. A reader keeps its projections while these are the
 * same and that instant has not come (docs/live-events.md, "What a read costs").
 */
export interface ProjectionState {
  coordinates: string;
  schedules: string;
  /**
   * The version of the engagement counts: the newest calendar_sync row's id, then the newest
   * My-night row's time and the highest id of My-night rows of the last 10 minutes.
   */
  calendarSyncs: string;
  /** Epoch ms of the next start or end of a scheduled window, or null when none is ahead. */
  nextBoundaryMs: number | null;
}

/**
 * The version of the My-night counts without an index of their own: the newest row's time of each
 * action (the first entry of the action/time index) and the highest id among the rows of the last
 * 10 minutes (a short range of that index), so a row written after a newer one (concurrent
 * batches) still moves it. Only a backlog older than 10 minutes written out of order (after an
 * outage) waits for the next save to be counted.
 */
function nightVersion(at: string) {
  return sql`(select coalesce((extract(epoch from max(recorded_at)) * 1000)::bigint::text, '') from engagement_interactions where action_type = 'night_save')
    || ':' || (select coalesce((extract(epoch from max(recorded_at)) * 1000)::bigint::text, '') from engagement_interactions where action_type = 'night_unsave')
    || ':' || (select coalesce(max(id)::text, '') from engagement_interactions where action_type in ('night_save', 'night_unsave') and recorded_at >= ${at}::timestamptz - interval '10 minutes')`;
}

export async function readProjectionState(db: Db, coordinatesKey: string, now: Date): Promise<ProjectionState> {
  const at = now.toISOString();
  const ahead = (table: ScheduleTable) => sql`
    select least(min(effective_start_at) filter (where effective_start_at > ${at}::timestamptz), min(effective_end_at) filter (where effective_end_at > ${at}::timestamptz)) as b
    from ${table} where status = 'scheduled'`;
  const [row] = rowsOf<{ coordinates: string | null; spotlight: string; promoted: string; next_ms: number | null; calendar_syncs: string | null; night_saves: string | null }>(
    await db.execute(sql`select
      (select (extract(epoch from updated_at) * 1000)::bigint::text from kv_store where key = ${coordinatesKey}) as coordinates,
      (select count(*) || ':' || coalesce((extract(epoch from max(updated_at)) * 1000)::bigint::text, '') from spotlight_schedule) as spotlight,
      (select count(*) || ':' || coalesce((extract(epoch from max(updated_at)) * 1000)::bigint::text, '') from promoted_schedule) as promoted,
      (select (extract(epoch from min(b)) * 1000)::float8 from (${ahead(spotlightSchedule)} union all ${ahead(promotedSchedule)}) boundaries) as next_ms,
      (select max(id)::text from engagement_interactions where action_type = 'calendar_sync') as calendar_syncs,
      ${nightVersion(at)} as night_saves`),
  );
  return {
    coordinates: row?.coordinates ?? "",
    schedules: `${row?.spotlight ?? ""}|${row?.promoted ?? ""}`,
    calendarSyncs: `${row?.calendar_syncs ?? ""}|${row?.night_saves ?? ""}`,
    nextBoundaryMs: row?.next_ms === null || row?.next_ms === undefined ? null : Number(row.next_ms),
  };
}
