// Spotlight and promoted schedules, paid orders / partner activations, processed webhook events
// (see docs/placements.md).

import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

function scheduleColumns() {
  return {
    id: uuid("id").primaryKey().defaultRandom(),
    eventKey: text("event_key").notNull(),
    requestedStartAt: timestamp("requested_start_at", { withTimezone: true }).notNull(),
    effectiveStartAt: timestamp("effective_start_at", { withTimezone: true }),
    effectiveEndAt: timestamp("effective_end_at", { withTimezone: true }),
    durationHours: integer("duration_hours").notNull().default(48),
    /** Spotlight slot (1-based) once allocated; null while unallocated. Unused for promoted. */
    slot: integer("slot"),
    status: text("status").notNull().default("scheduled"),
    createdBy: text("created_by").notNull().default("system"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  };
}

/** Spotlight placements (limited concurrent slots). */
export const spotlightSchedule = pgTable("spotlight_schedule", scheduleColumns(), (t) => [
  index("spotlight_status_start_idx").on(t.status, t.effectiveStartAt),
  index("spotlight_event_idx").on(t.eventKey),
]);

/** Promoted placements (no slot limit). */
export const promotedSchedule = pgTable("promoted_schedule", scheduleColumns(), (t) => [
  index("promoted_status_start_idx").on(t.status, t.effectiveStartAt),
  index("promoted_event_idx").on(t.eventKey),
]);

/** Paid orders from the payment webhook (or manual test links) and their partner activation. */
export const paidOrders = pgTable(
  "paid_orders",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    source: text("source").notNull(),
    sourceEventId: text("source_event_id").notNull(),
    status: text("status").notNull().default("pending"),
    packageKey: text("package_key"),
    paymentLinkId: text("payment_link_id"),
    checkoutSessionId: text("checkout_session_id"),
    customerEmail: text("customer_email"),
    customerName: text("customer_name"),
    /** The customer's language (`fr` or `en`) when the checkout told it; their emails are written in it. */
    language: text("language"),
    eventName: text("event_name"),
    eventUrl: text("event_url"),
    amountTotalCents: integer("amount_total_cents"),
    currency: text("currency"),
    notes: text("notes"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    rawPayload: jsonb("raw_payload").$type<Record<string, unknown>>(),
    fulfilledEventKey: text("fulfilled_event_key"),
    fulfilledTier: text("fulfilled_tier"),
    fulfilledStartAt: timestamp("fulfilled_start_at", { withTimezone: true }),
    fulfilledEndAt: timestamp("fulfilled_end_at", { withTimezone: true }),
    /** SHA-256 (hex) of the partner statistics token; the token itself is never stored (docs/placements.md, "Partner statistics"). */
    partnerStatsTokenHash: text("partner_stats_token_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    activatedAt: timestamp("activated_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("paid_orders_source_event_idx").on(t.sourceEventId),
    uniqueIndex("paid_orders_token_hash_idx").on(t.partnerStatsTokenHash),
    index("paid_orders_status_created_idx").on(t.status, t.createdAt.desc()),
  ],
);

/** Every verified webhook delivery, for audit and idempotency across event types. */
export const webhookEvents = pgTable("webhook_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});
