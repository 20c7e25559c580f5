// Problems visitors report on a published event (see docs/public-pages.md, "Report a problem",
// and docs/console.md, "Reports from visitors"). No email and no raw IP is stored: the reporter is
// known only by the rate limiter's HMAC key hashes.

import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** One report and its moderation state (open, dismissed, resolved). */
export const eventReports = pgTable(
  "event_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    eventKey: text("event_key").notNull(),
    /** The event's title when it was reported (the console's name for an event since removed). */
    eventTitle: text("event_title").notNull().default(""),
    kind: text("kind").notNull(),
    text: text("text").notNull().default(""),
    status: text("status").notNull().default("open"),
    resolvedBy: text("resolved_by"),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /** Limiter key hashes only (per IP, per IP and event). */
    sourceIpHash: text("source_ip_hash"),
    eventIpHash: text("event_ip_hash"),
    spam: boolean("spam").notNull().default(false),
    spamSignals: jsonb("spam_signals").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The Idempotency-Key the report came with (src/lib/http/idempotency.ts): a retry with it answers this row. */
    idempotencyKey: text("idempotency_key"),
    /** Digest of the request the key came with: the same key with another body is refused. */
    requestDigest: text("request_digest"),
  },
  (t) => [
    index("event_reports_status_event_idx").on(t.status, t.eventKey),
    index("event_reports_created_idx").on(t.createdAt),
    uniqueIndex("event_reports_idempotency_key_idx").on(t.idempotencyKey),
  ],
);
