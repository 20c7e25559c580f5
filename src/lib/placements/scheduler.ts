// The spotlight and promoted schedulers (see docs/placements.md): schedule, cancel, reschedule,
// clear the queue, clear the history, list with derived state. Every call runs in one transaction
// that holds the scheduler's advisory lock, first completes ended entries and (spotlight) recomputes
// the slot allocation, so two instances or two admins never double-book a slot.

import { and, asc, eq, inArray, isNull, lte, or, gt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { promotedSchedule, spotlightSchedule } from "../db/schema/index.ts";
import { allocateSpotlight, type AllocationInput } from "./allocation.ts";
import { holdTransactionLock, SCHEDULER_LOCK_KEYS } from "../db/locks.ts";

export const TIERS = ["spotlight", "promoted"] as const;
export type Tier = (typeof TIERS)[number];

/** True for a known tier name. */
export function isTier(value: unknown): value is Tier {
  return value === "spotlight" || value === "promoted";
}


/** Hours after its end during which an entry shows as "recently ended". */
export const RECENTLY_ENDED_HOURS = 48;

export type EntryStatus = "scheduled" | "cancelled" | "completed";
export type EntryState = "active" | "upcoming" | "recent-ended" | "completed" | "cancelled";

type Row = typeof spotlightSchedule.$inferSelect;
/** A transaction or the database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

/** One entry as the console and the admin API show it. */
export interface ScheduleEntry {
  id: string;
  eventKey: string;
  requestedStartAt: string;
  effectiveStartAt: string | null;
  effectiveEndAt: string | null;
  durationHours: number;
  status: EntryStatus;
  state: EntryState;
  queuePosition: number | null;
  slot: number | null;
  createdBy: string;
  createdAt: string;
}

/** A listing of one scheduler. */
export interface ScheduleListing {
  tier: Tier;
  entries: ScheduleEntry[];
  activeCount: number;
  /** Concurrent slots (spotlight), or null (promoted: unlimited). */
  slots: number | null;
  upcomingCount: number;
  recentlyEndedCount: number;
  scheduledCount: number;
}

export interface SchedulerDeps {
  db: Db;
  now: () => Date;
  /** SPOTLIGHT_SLOTS. */
  slots: number;
}

const HOUR_MS = 3_600_000;

function tableOf(tier: Tier) {
  return tier === "spotlight" ? spotlightSchedule : promotedSchedule;
}

/** Runs `work` in a transaction holding the tier's advisory lock (released at commit or rollback). */
export async function withSchedulerLock<T>(db: Db, tier: Tier, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await lockScheduler(tx, tier);
    return work(tx);
  });
}

/** Moves scheduled entries whose effective end has passed to completed. */
export async function completeEndedEntries(tx: Tx, tier: Tier, now: Date): Promise<number> {
  const table = tableOf(tier);
  const done = await tx
    .update(table)
    .set({ status: "completed", updatedAt: now })
    .where(and(eq(table.status, "scheduled"), lte(table.effectiveEndAt, now)))
    .returning({ id: table.id });
  return done.length;
}

/** Completes ended entries, then gives every scheduled entry its window (spotlight: the slot allocation). */
async function recompute(tx: Tx, tier: Tier, deps: SchedulerDeps, now: Date): Promise<void> {
  await completeEndedEntries(tx, tier, now);
  const table = tableOf(tier);
  const scheduled: Row[] = await tx.select().from(table).where(eq(table.status, "scheduled"));
  if (tier === "promoted") {
    // No slot limit: the window is the requested start plus the duration.
    for (const row of scheduled) {
      if (row.effectiveStartAt !== null) continue;
      const start = row.requestedStartAt;
      await tx
        .update(table)
        .set({ effectiveStartAt: start, effectiveEndAt: new Date(start.getTime() + row.durationHours * HOUR_MS), updatedAt: now })
        .where(eq(table.id, row.id));
    }
    return;
  }
  const allocation = allocateSpotlight(scheduled as AllocationInput[], deps.slots, now);
  for (const row of scheduled) {
    const next = allocation.get(row.id);
    if (!next) continue;
    const same = row.slot === next.slot && row.effectiveStartAt?.getTime() === next.effectiveStartAt.getTime() && row.effectiveEndAt?.getTime() === next.effectiveEndAt.getTime();
    if (same) continue;
    await tx.update(table).set({ effectiveStartAt: next.effectiveStartAt, effectiveEndAt: next.effectiveEndAt, slot: next.slot, updatedAt: now }).where(eq(table.id, row.id));
  }
}

function deriveState(row: Row, now: Date): EntryState {
  if (row.status === "cancelled") return "cancelled";
  const start = row.effectiveStartAt?.getTime();
  const end = row.effectiveEndAt?.getTime();
  const t = now.getTime();
  if (row.status === "scheduled" && start !== undefined && end !== undefined) {
    if (start <= t && t < end) return "active";
    if (t < start) return "upcoming";
  }
  if (end !== undefined && end <= t && t - end < RECENTLY_ENDED_HOURS * HOUR_MS) return "recent-ended";
  return "completed";
}

function toListing(tier: Tier, rows: Row[], now: Date, slots: number): ScheduleListing {
  const states = new Map(rows.map((r) => [r.id, deriveState(r, now)]));
  const upcoming = rows
    .filter((r) => states.get(r.id) === "upcoming")
    .sort((a, b) => a.effectiveStartAt!.getTime() - b.effectiveStartAt!.getTime() || (a.id < b.id ? -1 : 1));
  const positions = new Map(upcoming.map((r, i) => [r.id, i + 1]));
  const entries = rows
    .map(
      (row): ScheduleEntry => ({
        id: row.id,
        eventKey: row.eventKey,
        requestedStartAt: row.requestedStartAt.toISOString(),
        effectiveStartAt: row.effectiveStartAt?.toISOString() ?? null,
        effectiveEndAt: row.effectiveEndAt?.toISOString() ?? null,
        durationHours: row.durationHours,
        status: row.status as EntryStatus,
        state: states.get(row.id)!,
        queuePosition: positions.get(row.id) ?? null,
        slot: tier === "spotlight" ? row.slot : null,
        createdBy: row.createdBy,
        createdAt: row.createdAt.toISOString(),
      }),
    )
    .sort((a, b) => (a.effectiveStartAt ?? a.requestedStartAt).localeCompare(b.effectiveStartAt ?? b.requestedStartAt) || a.id.localeCompare(b.id));
  const count = (state: EntryState) => entries.filter((e) => e.state === state).length;
  return {
    tier,
    entries,
    activeCount: count("active"),
    slots: tier === "spotlight" ? slots : null,
    upcomingCount: count("upcoming"),
    recentlyEndedCount: count("recent-ended"),
    scheduledCount: entries.filter((e) => e.status === "scheduled").length,
  };
}

async function listInside(tx: Tx, tier: Tier, deps: SchedulerDeps, now: Date): Promise<ScheduleListing> {
  await recompute(tx, tier, deps, now);
  const table = tableOf(tier);
  const rows: Row[] = await tx.select().from(table).orderBy(asc(table.effectiveStartAt), asc(table.id));
  return toListing(tier, rows, now, deps.slots);
}

/** Every entry of a scheduler with its derived state, after completing and recomputing. */
export function listSchedule(deps: SchedulerDeps, tier: Tier): Promise<ScheduleListing> {
  const now = deps.now();
  return withSchedulerLock(deps.db, tier, (tx) => listInside(tx, tier, deps, now));
}

/** What scheduling an entry needs; the start and duration are already parsed. */
export interface NewEntry {
  eventKey: string;
  requestedStartAt: Date;
  durationHours: number;
  createdBy: string;
}

/** Takes the tier's advisory lock inside an open transaction (fulfilment schedules inside its own). */
export async function lockScheduler(tx: Tx, tier: Tier): Promise<void> {
  await holdTransactionLock(tx, SCHEDULER_LOCK_KEYS[tier]);
}

/** Inserts and allocates an entry inside a transaction that already holds the tier's lock. */
export async function scheduleLocked(tx: Tx, deps: SchedulerDeps, tier: Tier, entry: NewEntry, now: Date): Promise<{ entry: ScheduleEntry; listing: ScheduleListing }> {
  const table = tableOf(tier);
  const [row] = await tx
    .insert(table)
    .values({ eventKey: entry.eventKey, requestedStartAt: entry.requestedStartAt, durationHours: entry.durationHours, createdBy: entry.createdBy, status: "scheduled", createdAt: now, updatedAt: now })
    .returning({ id: table.id });
  const listing = await listInside(tx, tier, deps, now);
  return { entry: listing.entries.find((e) => e.id === row!.id)!, listing };
}

/** Schedules an entry and returns it with the listing after the recompute. */
export function scheduleEntry(deps: SchedulerDeps, tier: Tier, entry: NewEntry): Promise<{ entry: ScheduleEntry; listing: ScheduleListing }> {
  const now = deps.now();
  return withSchedulerLock(deps.db, tier, (tx) => scheduleLocked(tx, deps, tier, entry, now));
}

/** Result of an action on one entry: the listing, or why it could not be done. */
export type EntryActionResult = { ok: true; listing: ScheduleListing } | { ok: false; reason: "not_found" | "conflict"; error: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function findEntry(tx: Tx, tier: Tier, id: string): Promise<Row | undefined> {
  if (!UUID.test(id)) return undefined;
  const table = tableOf(tier);
  const [row] = await tx.select().from(table).where(eq(table.id, id));
  return row;
}

/** Cancels a scheduled entry; its slot goes to the queue. */
export function cancelEntry(deps: SchedulerDeps, tier: Tier, id: string): Promise<EntryActionResult> {
  const now = deps.now();
  return withSchedulerLock(deps.db, tier, async (tx) => {
    await completeEndedEntries(tx, tier, now);
    const row = await findEntry(tx, tier, id);
    if (!row) return { ok: false, reason: "not_found", error: "Placement entry not found" };
    if (row.status !== "scheduled") return { ok: false, reason: "conflict", error: `Only scheduled entries can be cancelled (this one is ${row.status})` };
    const table = tableOf(tier);
    await tx.update(table).set({ status: "cancelled", updatedAt: now }).where(eq(table.id, id));
    return { ok: true, listing: await listInside(tx, tier, deps, now) };
  });
}

/** Reschedules an entry (scheduled again, unallocated) with a new requested start and optional duration. */
export function rescheduleEntry(deps: SchedulerDeps, tier: Tier, id: string, change: { requestedStartAt: Date; durationHours?: number }): Promise<EntryActionResult> {
  const now = deps.now();
  return withSchedulerLock(deps.db, tier, async (tx) => {
    const row = await findEntry(tx, tier, id);
    if (!row) return { ok: false, reason: "not_found", error: "Placement entry not found" };
    const table = tableOf(tier);
    await tx
      .update(table)
      .set({
        status: "scheduled",
        requestedStartAt: change.requestedStartAt,
        durationHours: change.durationHours ?? row.durationHours,
        effectiveStartAt: null,
        effectiveEndAt: null,
        slot: null,
        updatedAt: now,
      })
      .where(eq(table.id, id));
    return { ok: true, listing: await listInside(tx, tier, deps, now) };
  });
}

/** Deletes scheduled entries that have not started; returns how many. */
export function clearQueue(deps: SchedulerDeps, tier: Tier): Promise<{ deleted: number; listing: ScheduleListing }> {
  const now = deps.now();
  return withSchedulerLock(deps.db, tier, async (tx) => {
    await recompute(tx, tier, deps, now);
    const table = tableOf(tier);
    const deleted = await tx
      .delete(table)
      .where(and(eq(table.status, "scheduled"), or(isNull(table.effectiveStartAt), gt(table.effectiveStartAt, now))))
      .returning({ id: table.id });
    return { deleted: deleted.length, listing: await listInside(tx, tier, deps, now) };
  });
}

/** Deletes completed and cancelled entries; returns how many. */
export function clearHistory(deps: SchedulerDeps, tier: Tier): Promise<{ deleted: number; listing: ScheduleListing }> {
  const now = deps.now();
  return withSchedulerLock(deps.db, tier, async (tx) => {
    await completeEndedEntries(tx, tier, now);
    const table = tableOf(tier);
    const deleted = await tx.delete(table).where(inArray(table.status, ["completed", "cancelled"])).returning({ id: table.id });
    return { deleted: deleted.length, listing: await listInside(tx, tier, deps, now) };
  });
}

/**
 * The effective window of the newest entry for a key (fulfilment reads it back). Runs inside the
 * caller's transaction when given one.
 */
export async function findNewestWindow(tx: Tx, tier: Tier, eventKey: string): Promise<{ startAt: Date; endAt: Date } | undefined> {
  const table = tableOf(tier);
  const [row] = await tx
    .select({ startAt: table.effectiveStartAt, endAt: table.effectiveEndAt })
    .from(table)
    .where(eq(table.eventKey, eventKey))
    .orderBy(sql`${table.createdAt} desc`, sql`${table.id} desc`)
    .limit(1);
  return row?.startAt && row.endAt ? { startAt: row.startAt, endAt: row.endAt } : undefined;
}

/**
 * The next instant at which a placement starts or ends, after `now`, across both schedulers;
 * the boundary timer invalidates the pages then.
 */
export async function findNextBoundary(db: Db, now: Date): Promise<Date | undefined> {
  let next: number | undefined;
  for (const tier of TIERS) {
    const table = tableOf(tier);
    // The instant goes in as ISO text: raw parameters are not mapped through the column types.
    const at = sql`${now.toISOString()}::timestamptz`;
    const [row] = await db
      .select({
        start: sql<Date | string | null>`min(${table.effectiveStartAt}) filter (where ${table.effectiveStartAt} > ${at})`,
        end: sql<Date | string | null>`min(${table.effectiveEndAt}) filter (where ${table.effectiveEndAt} > ${at})`,
      })
      .from(table)
      .where(eq(table.status, "scheduled"));
    for (const value of [row?.start, row?.end]) {
      if (value === null || value === undefined) continue;
      const t = new Date(value).getTime();
      if (next === undefined || t < next) next = t;
    }
  }
  return next === undefined ? undefined : new Date(next);
}
