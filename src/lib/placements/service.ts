// Placement and order actions with their input checks, shared by the admin JSON API and the
// console: every change revalidates `/` and `/feature-event` (see docs/placements.md).

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { ValidationError } from "../errors.ts";
import { isPlainObject } from "../http.ts";
import { LIVE_EVENTS_TAG, type InvalidationBus } from "../invalidation.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { INVALID_DURATION, INVALID_SCHEDULE_TIME, parseDurationHours, parseRequestedStart } from "./schedule-input.ts";
import { cancelEntry, clearHistory, clearQueue, isTier, listSchedule, rescheduleEntry, scheduleEntry, type EntryActionResult, type ScheduleEntry, type ScheduleListing, type SchedulerDeps, type Tier } from "./scheduler.ts";
import { createTestOrder, fulfilOrder, type OrderRecord, type OrderResult } from "./orders.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { recordActivity } from "../activity/activity.ts";
import { orderMessages } from "./order-mail.ts";

/**
 * The raw live read placements look events up in (the process event reader fits). Declared here
 * rather than imported: the read pipeline completes ended placements, so events/ imports
 * placements/ and not the other way round.
 */
export interface RawLiveReads {
  load(options: { includeFeaturedProjection: false; includeEngagementProjection: false }): Promise<{ events: readonly Pick<LiveEvent, "eventKey" | "eventName">[] }>;
}

export interface PlacementDeps {
  config: Pick<Config, "spotlightSlots" | "siteUrl" | "basePath" | "defaultLanguage">;
  db: Db;
  events: RawLiveReads;
  invalidation: InvalidationBus;
  log: Logger;
  now: () => Date;
}

/** What placement changes drop: the homepage, the partner page and everything built from live events. */
export const PLACEMENT_PAGES = { paths: ["/", "/feature-event"], tags: [LIVE_EVENTS_TAG] } as const;

function schedulerDeps(deps: PlacementDeps): SchedulerDeps {
  return { db: deps.db, now: deps.now, slots: deps.config.spotlightSlots };
}

/** Announces a placement change (every instance drops the pages; boundary timers re-arm). */
export async function placementsChanged(deps: Pick<PlacementDeps, "invalidation">): Promise<void> {
  await deps.invalidation.invalidate(PLACEMENT_PAGES);
}

/** The live event named by a key (case-insensitive), from a raw live read. */
export async function findLiveEvent(deps: Pick<PlacementDeps, "events">, raw: string): Promise<{ eventKey: string; eventName: string } | undefined> {
  const key = raw.trim().toLowerCase();
  if (key === "" || key.length > 220) return undefined;
  const { events } = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
  const event = events.find((e) => e.eventKey.toLowerCase() === key);
  return event ? { eventKey: event.eventKey, eventName: event.eventName } : undefined;
}

/** A parsed placement request. */
interface PlacementInput {
  eventKey: string;
  eventName: string;
  requestedStartAt: Date;
  durationHours: number;
}

/** Checks tier. */
export function parseTier(raw: unknown): Tier {
  if (!isTier(raw)) throw new ValidationError("Tier must be spotlight or promoted", [{ field: "tier", message: "Use spotlight or promoted" }]);
  return raw;
}

function parseStart(raw: unknown, now: Date, required: boolean): Date {
  if (required && (raw === undefined || raw === null || raw === "")) throw new ValidationError(INVALID_SCHEDULE_TIME, [{ field: "startAt", message: INVALID_SCHEDULE_TIME }]);
  const start = parseRequestedStart(raw, now);
  if (!start) throw new ValidationError(INVALID_SCHEDULE_TIME, [{ field: "startAt", message: INVALID_SCHEDULE_TIME }]);
  return start;
}

function parseDuration(raw: unknown): number {
  const hours = parseDurationHours(raw);
  if (hours === undefined) throw new ValidationError(INVALID_DURATION, [{ field: "durationHours", message: INVALID_DURATION }]);
  return hours;
}

async function parsePlacement(deps: PlacementDeps, body: unknown): Promise<PlacementInput> {
  if (!isPlainObject(body)) throw new ValidationError("Invalid request payload", [{ field: "body", message: "Expected a JSON object" }]);
  if (typeof body.eventKey !== "string" || body.eventKey.trim() === "") throw new ValidationError("Event key is required", [{ field: "eventKey", message: "Pick an event" }]);
  const requestedStartAt = parseStart(body.startAt, deps.now(), false);
  const durationHours = parseDuration(body.durationHours);
  const event = await findLiveEvent(deps, body.eventKey);
  if (!event) throw new ValidationError("Unknown event key", [{ field: "eventKey", message: "No live event has this key" }]);
  return { ...event, requestedStartAt, durationHours };
}

/** Lists a scheduler. */
export function listPlacements(deps: PlacementDeps, tier: Tier): Promise<ScheduleListing> {
  return listSchedule(schedulerDeps(deps), tier);
}

/** Schedules an event from `{eventKey, startAt?, durationHours?}`. */
export async function schedulePlacement(deps: PlacementDeps, tier: Tier, body: unknown, createdBy: string): Promise<{ entry: ScheduleEntry; listing: ScheduleListing }> {
  const input = await parsePlacement(deps, body);
  const result = await scheduleEntry(schedulerDeps(deps), tier, { eventKey: input.eventKey, requestedStartAt: input.requestedStartAt, durationHours: input.durationHours, createdBy });
  deps.log.info("placements", "Placement scheduled", { tier, eventKey: input.eventKey, state: result.entry.state });
  await placementsChanged(deps);
  return result;
}

/** Reschedules from `{startAt, durationHours?}` (startAt required). */
export async function reschedulePlacement(deps: PlacementDeps, tier: Tier, id: string, body: unknown): Promise<EntryActionResult> {
  if (!isPlainObject(body)) throw new ValidationError("Invalid request payload", [{ field: "body", message: "Expected a JSON object" }]);
  const requestedStartAt = parseStart(body.startAt, deps.now(), true);
  const durationHours = body.durationHours === undefined || body.durationHours === "" ? undefined : parseDuration(body.durationHours);
  const result = await rescheduleEntry(schedulerDeps(deps), tier, id, { requestedStartAt, durationHours });
  if (result.ok) await placementsChanged(deps);
  return result;
}

/** Cancels an entry. */
export async function cancelPlacement(deps: PlacementDeps, tier: Tier, id: string): Promise<EntryActionResult> {
  const result = await cancelEntry(schedulerDeps(deps), tier, id);
  if (result.ok) await placementsChanged(deps);
  return result;
}

/** Deletes queued entries that have not started. */
export async function clearPlacementQueue(deps: PlacementDeps, tier: Tier) {
  const result = await clearQueue(schedulerDeps(deps), tier);
  await placementsChanged(deps);
  return result;
}

/** Deletes completed and cancelled entries. */
export async function clearPlacementHistory(deps: PlacementDeps, tier: Tier) {
  const result = await clearHistory(schedulerDeps(deps), tier);
  await placementsChanged(deps);
  return result;
}

/** What an activation writes in its own transaction: the partner's three emails and the timeline entry. */
function onActivated(deps: PlacementDeps, actor: string) {
  return async (tx: Db, order: OrderRecord) => {
    const now = deps.now();
    for (const message of orderMessages(deps.config, order)) await enqueueMessage(tx, message, now, deps.config.defaultLanguage);
    await recordActivity({ db: tx, now: deps.now }, { actor, action: "order.fulfil", targetType: "order", targetId: order.id, outcome: "ok", detail: { eventKey: order.fulfilledEventKey, tier: order.fulfilledTier } });
  };
}

/** Fulfils an order from `{eventKey, tier, startAt?, durationHours?}`. */
export async function fulfilFromInput(deps: PlacementDeps, orderId: string, body: unknown, createdBy: string): Promise<OrderResult> {
  const tier = parseTier(isPlainObject(body) ? body.tier : undefined);
  const input = await parsePlacement(deps, body);
  const result = await fulfilOrder(schedulerDeps(deps), orderId, { eventKey: input.eventKey, tier, requestedStartAt: input.requestedStartAt, durationHours: input.durationHours, createdBy }, onActivated(deps, createdBy));
  if (result.ok) {
    deps.log.info("orders", "Order fulfilled", { tier, eventKey: input.eventKey });
    await placementsChanged(deps);
  }
  return result;
}

/** Creates a test activation from `{eventKey, tier, fulfil?}` and fulfils it unless fulfil is false. */
export async function createTestActivation(deps: PlacementDeps, body: unknown, createdBy: string): Promise<OrderResult> {
  const tier = parseTier(isPlainObject(body) ? body.tier : undefined);
  const input = await parsePlacement(deps, body);
  const order: OrderRecord = await createTestOrder(deps.db, { eventKey: input.eventKey, eventName: input.eventName, tier }, deps.now());
  if (isPlainObject(body) && (body.fulfil === false || body.fulfil === "0" || body.fulfil === "false")) return { ok: true, order };
  const result = await fulfilOrder(schedulerDeps(deps), order.id, { eventKey: input.eventKey, tier, requestedStartAt: input.requestedStartAt, durationHours: input.durationHours, createdBy }, onActivated(deps, createdBy));
  if (result.ok) await placementsChanged(deps);
  return result;
}
