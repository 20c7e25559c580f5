// Projections applied to live events: featured (active spotlight), promoted (active promoted
// placement) and engagement (all-time calendar_sync count per key), each in one query.

import { and, count, eq, gt, lte } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { engagementInteractions, promotedSchedule, spotlightSchedule } from "../db/schema/index.ts";
import type { LiveEvent } from "../sheet/types.ts";

/** An active placement window for one event key. */
export interface ActiveWindow {
  startAt: Date;
  endAt: Date;
}

type ScheduleTable = typeof spotlightSchedule | typeof promotedSchedule;

async function activeWindows(db: Db, table: ScheduleTable, now: Date): Promise<Map<string, ActiveWindow>> {
  const rows = await db
    .select({ eventKey: table.eventKey, startAt: table.effectiveStartAt, endAt: table.effectiveEndAt })
    .from(table)
    .where(and(eq(table.status, "scheduled"), lte(table.effectiveStartAt, now), gt(table.effectiveEndAt, now)));
  const windows = new Map<string, ActiveWindow>();
  for (const row of rows) {
    if (!row.startAt || !row.endAt) continue;
    const key = row.eventKey.toLowerCase();
    const existing = windows.get(key);
    // Overlapping entries for one key: show the one that ends last.
    if (!existing || row.endAt > existing.endAt) windows.set(key, { startAt: row.startAt, endAt: row.endAt });
  }
  return windows;
}

/** Active spotlight windows by lower-cased event key. */
export function activeSpotlights(db: Db, now: Date): Promise<Map<string, ActiveWindow>> {
  return activeWindows(db, spotlightSchedule, now);
}

/** Active promoted windows by lower-cased event key. */
export function activePromotions(db: Db, now: Date): Promise<Map<string, ActiveWindow>> {
  return activeWindows(db, promotedSchedule, now);
}

/** All-time calendar_sync counts by event key, in one grouped query. */
export async function calendarSyncCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ eventKey: engagementInteractions.eventKey, n: count() })
    .from(engagementInteractions)
    .where(eq(engagementInteractions.actionType, "calendar_sync"))
    .groupBy(engagementInteractions.eventKey);
  return new Map(rows.map((r) => [r.eventKey, Number(r.n)]));
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

/** Sets calendarSyncCount (0 when none). */
export function applyEngagement(events: LiveEvent[], counts: Map<string, number>): void {
  for (const event of events) event.calendarSyncCount = counts.get(event.eventKey) ?? 0;
}

/**
 * Homepage order (§4): active spotlight first, then active promoted, then the rest, each group
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
