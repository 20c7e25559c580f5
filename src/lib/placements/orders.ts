// Paid orders and partner activations (see docs/placements.md, "Orders"): created pending by the
// payment webhook (once per provider event) or as test activations, moved by the admin team, and
// fulfilled by scheduling the event in the tier's scheduler and minting the partner statistics token.

import { randomUUID } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import { recordActivity } from "../admin/activity.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import { paidOrders } from "../db/schema/index.ts";
import { isPlainObject } from "../http/responses.ts";
import { toStorableText } from "../storable-text.ts";
import { partnerStatsUrl } from "../partners/tokens.ts";
import { cancelQueuedMessages } from "../mail/outbox.ts";
import { findNewestWindow, lockScheduler, scheduleLocked, type SchedulerDeps, type Tier } from "./scheduler.ts";

export const ORDER_STATUSES = ["pending", "processing", "activated", "dismissed"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** True for a known order status. */
export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** The package keys on sale; both spotlight packages share the spotlight slots. */
export const PACKAGE_KEYS = ["spotlight-standard", "spotlight-takeover", "promoted-listing", "addon-whatsapp", "addon-newsletter"] as const;

export type OrderRecord = typeof paidOrders.$inferSelect;
type NewOrder = typeof paidOrders.$inferInsert;

const TEXT_MAX = 2000;

function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = toStorableText(value).trim().slice(0, TEXT_MAX);
  return trimmed === "" ? null : trimmed;
}

/** The value of a checkout custom field: text, dropdown or numeric. */
function customFieldValue(field: Record<string, unknown>): string | null {
  for (const kind of ["text", "dropdown", "numeric"]) {
    const holder = field[kind];
    if (isPlainObject(holder)) {
      const value = holder.value;
      if (typeof value === "string") return text(value);
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
    }
  }
  return null;
}

const NAME_KEYS: ReadonlySet<string> = new Set(["event_name", "eventname"]);
const URL_KEYS: ReadonlySet<string> = new Set(["event_url", "event_link", "ticket_link", "eventurl"]);

/** The customer's language from the checkout (`fr`, `fr-FR`, `en-GB` …); null when neither French nor English. */
function checkoutLanguage(raw: unknown): "fr" | "en" | null {
  const primary = typeof raw === "string" ? raw.trim().toLowerCase().split(/[-_]/)[0] : "";
  return primary === "fr" || primary === "en" ? primary : null;
}

/** Reads the order fields from a completed checkout session (the webhook's `data.object`). */
export function orderFromCheckoutSession(eventId: string, type: string, session: Record<string, unknown>, linkPackages: Record<string, string>): NewOrder {
  const metadata = isPlainObject(session.metadata) ? session.metadata : {};
  const paymentLink = text(session.payment_link);
  const paymentLinkId = paymentLink ? (paymentLink.split("/").filter(Boolean).pop() ?? null) : null;
  let eventName: string | null = null;
  let eventUrl: string | null = null;
  if (Array.isArray(session.custom_fields)) {
    for (const field of session.custom_fields) {
      if (!isPlainObject(field) || typeof field.key !== "string") continue;
      const key = field.key.toLowerCase();
      if (NAME_KEYS.has(key)) eventName ??= customFieldValue(field);
      else if (URL_KEYS.has(key)) eventUrl ??= customFieldValue(field);
    }
  }
  const details = isPlainObject(session.customer_details) ? session.customer_details : {};
  const amount = session.amount_total;
  return {
    source: "payment",
    sourceEventId: eventId,
    status: "pending",
    packageKey: text(metadata.package_key) ?? (paymentLinkId ? (text(linkPackages[paymentLinkId]) ?? null) : null),
    paymentLinkId,
    checkoutSessionId: text(session.id),
    customerEmail: text(session.customer_email) ?? text(details.email),
    customerName: text(details.name) ?? text(session.customer_name),
    language: checkoutLanguage(metadata.language ?? session.locale),
    eventName: eventName ?? text(metadata.event_name),
    eventUrl: eventUrl ?? text(metadata.event_url),
    amountTotalCents: typeof amount === "number" && Number.isSafeInteger(amount) && Math.abs(amount) <= 2_147_483_647 ? amount : null,
    currency: text(session.currency),
    metadata: metadata as Record<string, unknown>,
    rawPayload: { type, session },
  };
}

/** Inserts an order unless one exists for its provider event id; true when a row was created. */
export async function insertPaymentOrder(db: Db, order: NewOrder, now: Date): Promise<boolean> {
  const rows = await db
    .insert(paidOrders)
    .values({ ...order, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: paidOrders.sourceEventId })
    .returning({ id: paidOrders.id });
  return rows.length > 0;
}

/** Order counts per status plus the total. */
export type OrderCounts = Record<OrderStatus, number> & { total: number };

/** Orders (optionally of one status), newest first, with the counts of every status. */
export async function listOrders(db: Db, status?: OrderStatus, limit = 200): Promise<{ orders: OrderRecord[]; counts: OrderCounts }> {
  const [orders, grouped] = await Promise.all([
    db
      .select()
      .from(paidOrders)
      .where(status ? eq(paidOrders.status, status) : undefined)
      .orderBy(desc(paidOrders.createdAt), desc(paidOrders.id))
      .limit(limit),
    db.select({ status: paidOrders.status, n: count() }).from(paidOrders).groupBy(paidOrders.status),
  ]);
  const counts: OrderCounts = { total: 0, pending: 0, processing: 0, activated: 0, dismissed: 0 };
  for (const row of grouped) {
    if (isOrderStatus(row.status)) counts[row.status] = Number(row.n);
    counts.total += Number(row.n);
  }
  return { orders, counts };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One order by id; undefined for an unknown or malformed id. */
export async function findOrder(db: Db, id: string): Promise<OrderRecord | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await db.select().from(paidOrders).where(eq(paidOrders.id, id));
  return row;
}

/** An order action's outcome. */
export type OrderResult = { ok: true; order: OrderRecord } | { ok: false; reason: "invalid" | "not_found" | "conflict"; error: string };

/**
 * Moves an order to pending, processing or dismissed. Only fulfilment activates; leaving
 * activated clears activated_at and keeps the fulfilment and the token.
 */
export async function setOrderStatus(db: Db, id: string, status: unknown, now: Date, actor = "unknown"): Promise<OrderResult> {
  if (status === "activated") return { ok: false, reason: "invalid", error: "Orders are activated by fulfilling them" };
  if (status !== "pending" && status !== "processing" && status !== "dismissed") return { ok: false, reason: "invalid", error: "Status must be pending, processing or dismissed" };
  if (!UUID.test(id)) return { ok: false, reason: "not_found", error: "Order not found" };
  return db.transaction(async (tx): Promise<OrderResult> => {
    const [row] = await tx.update(paidOrders).set({ status, activatedAt: null, updatedAt: now }).where(eq(paidOrders.id, id)).returning();
    if (!row) return { ok: false, reason: "not_found", error: "Order not found" };
    // Leaving activated revokes the placement's coming emails (the worker would cancel them too).
    await cancelQueuedMessages(tx, `order:${id}:`, now);
    await recordActivity({ db: tx, now: () => now }, { actor, action: "order.status", targetType: "order", targetId: id, outcome: "ok", detail: { status } });
    return { ok: true, order: row };
  });
}

/** Deletes a dismissed order (its statistics link then answers 404). */
export async function deleteOrder(db: Db, id: string): Promise<{ ok: true } | { ok: false; reason: "not_found" | "conflict"; error: string }> {
  const order = await findOrder(db, id);
  if (!order) return { ok: false, reason: "not_found", error: "Order not found" };
  const deleted = await db.delete(paidOrders).where(and(eq(paidOrders.id, id), eq(paidOrders.status, "dismissed"))).returning({ id: paidOrders.id });
  return deleted.length > 0 ? { ok: true } : { ok: false, reason: "conflict", error: "Only dismissed orders can be deleted" };
}

/** A fulfilment request, already validated (event key resolved against the live events). */
export interface Fulfilment {
  eventKey: string;
  tier: Tier;
  requestedStartAt: Date;
  durationHours: number;
  createdBy: string;
  /** The digest of the order's statistics token (lib/partners/tokens.ts), stored at the first activation. */
  partnerTokenHash: string;
}

/**
 * Fulfils an order in one transaction: the order row is locked (a concurrent fulfil waits and then
 * sees it activated: 409), the event is scheduled under the scheduler's lock, the effective window
 * of the newest entry for the key is read back, and the order is activated with its token (kept
 * when one exists).
 */
export async function fulfilOrder(deps: SchedulerDeps, id: string, fulfilment: Fulfilment, inTransaction?: (tx: Db, order: OrderRecord) => Promise<void>): Promise<OrderResult> {
  if (!UUID.test(id)) return { ok: false, reason: "not_found", error: "Order not found" };
  const now = deps.now();
  return deps.db.transaction(async (tx): Promise<OrderResult> => {
    const [order] = await tx.select().from(paidOrders).where(eq(paidOrders.id, id)).for("update");
    if (!order) return { ok: false, reason: "not_found", error: "Order not found" };
    if (order.status === "activated") return { ok: false, reason: "conflict", error: "Order is already activated" };
    await lockScheduler(tx, fulfilment.tier);
    await scheduleLocked(tx, deps, fulfilment.tier, fulfilment, now);
    const window = (await findNewestWindow(tx, fulfilment.tier, fulfilment.eventKey)) ?? {
      startAt: fulfilment.requestedStartAt,
      endAt: new Date(fulfilment.requestedStartAt.getTime() + fulfilment.durationHours * 3_600_000),
    };
    const [updated] = await tx
      .update(paidOrders)
      .set({
        status: "activated",
        fulfilledEventKey: fulfilment.eventKey,
        fulfilledTier: fulfilment.tier,
        fulfilledStartAt: window.startAt,
        fulfilledEndAt: window.endAt,
        notes: `Activated as ${fulfilment.tier} (${fulfilment.eventKey})`,
        partnerStatsTokenHash: order.partnerStatsTokenHash ?? fulfilment.partnerTokenHash,
        activatedAt: now,
        updatedAt: now,
      })
      .where(eq(paidOrders.id, id))
      .returning();
    // What the activation causes (the partner's emails, the timeline entry) commits with it.
    if (inTransaction) await inTransaction(tx, updated!);
    return { ok: true, order: updated! };
  });
}

/** Creates a test activation order (`manual-test-<uuid>`, package manual-test-<tier>), pending. */
export async function createTestOrder(db: Db, input: { eventKey: string; eventName: string | null; tier: Tier }, now: Date): Promise<OrderRecord> {
  const [row] = await db
    .insert(paidOrders)
    .values({
      source: "manual-test",
      sourceEventId: `manual-test-${randomUUID()}`,
      status: "pending",
      packageKey: `manual-test-${input.tier}`,
      eventName: input.eventName,
      notes: "Test activation",
      metadata: { eventKey: input.eventKey },
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
}

/**
 * The order as the admin API shows it: stored fields (the token digest left out), whether it has a
 * statistics link, and the link itself only when `reveal` (the answer to the activation: shown once).
 */
export function orderJson(config: Pick<Config, "siteUrl" | "basePath" | "authSecret">, order: OrderRecord, reveal = false) {
  const { partnerStatsTokenHash, ...shown } = order;
  return { ...shown, statsLinkIssued: partnerStatsTokenHash !== null, statsUrl: reveal ? partnerStatsUrl(config, order) : null };
}
