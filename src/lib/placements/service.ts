// Placement and order actions with their input checks, shared by the admin JSON API and the
// console: every change revalidates `/` and `/feature-event` (see docs/placements.md).

import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { invalid, type Invalid } from "../outcome.ts";
import { isPlainObject } from "../http/responses.ts";
import { LIVE_EVENTS_TAG, type InvalidationBus } from "../serving/invalidation.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { formatParisDisplay, INVALID_DURATION, INVALID_SCHEDULE_TIME, parseDurationHours, parseRequestedStart } from "./schedule-input.ts";
import { parisInstant } from "../paris-time.ts";
import { cancelEntry, clearHistory, clearQueue, isTier, listSchedule, rescheduleEntry, scheduleEntry, type EntryActionResult, type ScheduleEntry, type ScheduleListing, type SchedulerDeps, type Tier } from "./scheduler.ts";
import { createTestOrder, fulfilOrder, type OrderRecord, type OrderResult } from "./orders.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { recordActivity } from "../admin/activity.ts";
import { orderMessages } from "./order-mail.ts";
import { partnerTokenHashOf } from "../partners/tokens.ts";

/**
 * The raw live read placements look events up in (the process event reader fits). Declared here
 * rather than imported: the read pipeline completes ended placements, so events/ imports
 * placements/ and not the other way round.
 */
export interface RawLiveReads {
  load(options: { includeFeaturedProjection: false; includeEngagementProjection: false }): Promise<{ events: readonly PlacementEvent[] }>;
}

/** What placements need to know of a live event: to find it by key, title or venue, name it, and check its dates. */
export type PlacementEvent = Pick<LiveEvent, "eventKey" | "eventName"> & Partial<Pick<LiveEvent, "location" | "date" | "dateRangeEnd" | "occurrenceIndex">>;

export interface PlacementDeps {
  config: Pick<Config, "spotlightSlots" | "siteUrl" | "basePath" | "defaultLanguage" | "authSecret">;
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
  const found = await resolveLiveEvent(deps, raw);
  return found.kind === "found" ? { eventKey: found.event.eventKey, eventName: found.event.eventName } : undefined;
}

/** Lowercase without accents or repeated spaces, for matching what an admin typed. */
function folded(text: string | undefined): string {
  return (text ?? "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/** How many candidates an ambiguous name lists. */
const LISTED_MATCHES = 5;

/**
 * The live event an admin named: by its key (case-insensitive), else by its title, else by a
 * title or venue containing the text. A name several events match is ambiguous (the first of a
 * multi-day event's days stands for it).
 */
export async function resolveLiveEvent(
  deps: Pick<PlacementDeps, "events">,
  raw: string,
): Promise<{ kind: "found"; event: PlacementEvent } | { kind: "none" } | { kind: "ambiguous"; matches: PlacementEvent[] }> {
  const text = raw.trim();
  if (text === "" || text.length > 220) return { kind: "none" };
  const { events } = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
  const byKey = events.find((e) => e.eventKey.toLowerCase() === text.toLowerCase());
  if (byKey) return { kind: "found", event: byKey };
  const q = folded(text);
  const firsts = events.filter((e) => (e.occurrenceIndex ?? 1) === 1);
  const exact = firsts.filter((e) => folded(e.eventName) === q);
  const matches = exact.length ? exact : firsts.filter((e) => folded(e.eventName).includes(q) || folded(e.location).includes(q));
  if (matches.length === 1) return { kind: "found", event: matches[0] };
  return matches.length ? { kind: "ambiguous", matches } : { kind: "none" };
}

/** How an event is named in notices: its title and key. */
export function eventLabel(event: Pick<LiveEvent, "eventKey" | "eventName">): string {
  return `\u201c${event.eventName || "(untitled)"}\u201d (${event.eventKey})`;
}

/** The first instant after an event's last day (Paris), or null when it has no valid date. */
function eventEndsAt(event: PlacementEvent): Date | null {
  const last = event.dateRangeEnd || event.date;
  const match = last ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(last) : null;
  if (!match) return null;
  const next = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1)).toISOString().slice(0, 10);
  return parisInstant(next);
}

/** The form field that confirms a placement for an ended event, or one running past its dates. */
export const CONFIRM_FIELD = "confirm";
/** A parsed placement request. */
interface PlacementInput {
  eventKey: string;
  eventName: string;
  requestedStartAt: Date;
  durationHours: number;
}

/** Checks tier: the tier, or the refusal naming the field. */
export function parseTier(raw: unknown): Tier | Invalid {
  if (!isTier(raw)) return invalid("Tier must be spotlight or promoted", [{ field: "tier", message: "Use spotlight or promoted" }]);
  return raw;
}

function parseStart(raw: unknown, now: Date, required: boolean): Date | Invalid {
  if (required && (raw === undefined || raw === null || raw === "")) return invalid(INVALID_SCHEDULE_TIME, [{ field: "startAt", message: INVALID_SCHEDULE_TIME }]);
  const start = parseRequestedStart(raw, now);
  if (!start) return invalid(INVALID_SCHEDULE_TIME, [{ field: "startAt", message: INVALID_SCHEDULE_TIME }]);
  return start;
}

function parseDuration(raw: unknown): number | Invalid {
  const hours = parseDurationHours(raw);
  if (hours === undefined) return invalid(INVALID_DURATION, [{ field: "durationHours", message: INVALID_DURATION }]);
  return hours;
}

/** True for a refusal among parsed values (a refusal is the only object with `ok: false`). */
function isRefusal(value: unknown): value is Invalid {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
}

async function parsePlacement(deps: PlacementDeps, body: unknown): Promise<PlacementInput | Invalid> {
  if (!isPlainObject(body)) return invalid("Invalid request payload", [{ field: "body", message: "Expected a JSON object" }]);
  if (typeof body.eventKey !== "string" || body.eventKey.trim() === "") return invalid("Event key is required", [{ field: "eventKey", message: "Pick an event" }]);
  const requestedStartAt = parseStart(body.startAt, deps.now(), false);
  if (isRefusal(requestedStartAt)) return requestedStartAt;
  const durationHours = parseDuration(body.durationHours);
  if (isRefusal(durationHours)) return durationHours;
  const found = await resolveLiveEvent(deps, body.eventKey);
  if (found.kind === "none") return invalid("Unknown event", [{ field: "eventKey", message: "No live event has this key, title or venue" }]);
  if (found.kind === "ambiguous") {
    const listed = found.matches.slice(0, LISTED_MATCHES).map(eventLabel).join(", ");
    const more = found.matches.length > LISTED_MATCHES ? `, and ${found.matches.length - LISTED_MATCHES} more` : "";
    const message = `${found.matches.length} events match \u201c${body.eventKey.trim()}\u201d: ${listed}${more}. Pick one from the suggestions.`;
    return invalid(message, [{ field: "eventKey", message }]);
  }
  const event = found.event;
  // An ended event, or a placement running past the event's last day, needs an explicit yes.
  const confirmed = body[CONFIRM_FIELD] === true || body[CONFIRM_FIELD] === "1" || body[CONFIRM_FIELD] === "on";
  const endsAt = eventEndsAt(event);
  const start = requestedStartAt.getTime() > deps.now().getTime() ? requestedStartAt : deps.now();
  const runsUntil = new Date(start.getTime() + durationHours * 3_600_000);
  if (!confirmed && endsAt) {
    const lastDay = event.dateRangeEnd || event.date;
    let message: string | undefined;
    if (endsAt.getTime() <= deps.now().getTime()) message = `${eventLabel(event)} ended on ${lastDay}: confirm to schedule it anyway.`;
    else if (runsUntil.getTime() > endsAt.getTime()) message = `The placement would run until ${formatParisDisplay(runsUntil)}, after ${eventLabel(event)} ends (${lastDay}): confirm to schedule it anyway.`;
    if (message) return invalid(message, [{ field: CONFIRM_FIELD, message }]);
  }
  return { eventKey: event.eventKey, eventName: event.eventName, requestedStartAt, durationHours };
}

/** Lists a scheduler. */
export function listPlacements(deps: PlacementDeps, tier: Tier): Promise<ScheduleListing> {
  return listSchedule(schedulerDeps(deps), tier);
}

/** Schedules an event from `{eventKey, startAt?, durationHours?}`. */
export async function schedulePlacement(deps: PlacementDeps, tier: Tier, body: unknown, createdBy: string): Promise<{ ok: true; entry: ScheduleEntry; listing: ScheduleListing; eventName: string } | Invalid> {
  const input = await parsePlacement(deps, body);
  if (isRefusal(input)) return input;
  const result = await scheduleEntry(schedulerDeps(deps), tier, { eventKey: input.eventKey, requestedStartAt: input.requestedStartAt, durationHours: input.durationHours, createdBy });
  deps.log.info("placements", "Placement scheduled", { tier, eventKey: input.eventKey, state: result.entry.state });
  await placementsChanged(deps);
  return { ok: true, ...result, eventName: input.eventName };
}

/** Reschedules from `{startAt, durationHours?}` (startAt required). */
export async function reschedulePlacement(deps: PlacementDeps, tier: Tier, id: string, body: unknown): Promise<EntryActionResult | Invalid> {
  if (!isPlainObject(body)) return invalid("Invalid request payload", [{ field: "body", message: "Expected a JSON object" }]);
  const requestedStartAt = parseStart(body.startAt, deps.now(), true);
  if (isRefusal(requestedStartAt)) return requestedStartAt;
  const durationHours = body.durationHours === undefined || body.durationHours === "" ? undefined : parseDuration(body.durationHours);
  if (isRefusal(durationHours)) return durationHours;
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
    for (const message of orderMessages(order)) await enqueueMessage(tx, message, now, deps.config.defaultLanguage);
    await recordActivity({ db: tx, now: deps.now }, { actor, action: "order.fulfil", targetType: "order", targetId: order.id, outcome: "ok", detail: { eventKey: order.fulfilledEventKey, tier: order.fulfilledTier } });
  };
}

/** Fulfils an order from `{eventKey, tier, startAt?, durationHours?}`. */
export async function fulfilFromInput(deps: PlacementDeps, orderId: string, body: unknown, createdBy: string): Promise<OrderResult | Invalid> {
  const tier = parseTier(isPlainObject(body) ? body.tier : undefined);
  if (isRefusal(tier)) return tier;
  const input = await parsePlacement(deps, body);
  if (isRefusal(input)) return input;
  const result = await fulfilOrder(schedulerDeps(deps), orderId, { eventKey: input.eventKey, tier, requestedStartAt: input.requestedStartAt, durationHours: input.durationHours, createdBy, partnerTokenHash: partnerTokenHashOf(deps.config.authSecret, orderId) }, onActivated(deps, createdBy));
  if (result.ok) {
    deps.log.info("orders", "Order fulfilled", { tier, eventKey: input.eventKey });
    await placementsChanged(deps);
  }
  return result;
}

/** Creates a test activation from `{eventKey, tier, fulfil?}` and fulfils it unless fulfil is false. */
export async function createTestActivation(deps: PlacementDeps, body: unknown, createdBy: string): Promise<OrderResult | Invalid> {
  const tier = parseTier(isPlainObject(body) ? body.tier : undefined);
  if (isRefusal(tier)) return tier;
  const input = await parsePlacement(deps, body);
  if (isRefusal(input)) return input;
  const order: OrderRecord = await createTestOrder(deps.db, { eventKey: input.eventKey, eventName: input.eventName, tier }, deps.now());
  if (isPlainObject(body) && (body.fulfil === false || body.fulfil === "0" || body.fulfil === "false")) return { ok: true, order };
  const result = await fulfilOrder(schedulerDeps(deps), order.id, { eventKey: input.eventKey, tier, requestedStartAt: input.requestedStartAt, durationHours: input.durationHours, createdBy, partnerTokenHash: partnerTokenHashOf(deps.config.authSecret, order.id) }, onActivated(deps, createdBy));
  if (result.ok) await placementsChanged(deps);
  return result;
}
