// Host event submissions held for review (see docs/public-pages.md, "/submit-event", and docs/console.md).

import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** A submission and its moderation state; no raw IP is stored, only limiter-key hashes. */
export const eventSubmissions = pgTable(
  "event_submissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    status: text("status").notNull().default("pending"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    hostEmail: text("host_email").notNull(),
    /** Language of the form the host used (`fr` or `en`): their emails are written in it. */
    language: text("language"),
    sourceIpHash: text("source_ip_hash"),
    emailIpHash: text("email_ip_hash"),
    fingerprintHash: text("fingerprint_hash"),
    spamSignals: jsonb("spam_signals").$type<Record<string, unknown>>(),
    reviewReason: text("review_reason"),
    reviewNote: text("review_note"),
    acceptedEventKey: text("accepted_event_key"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: text("reviewed_by"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The Idempotency-Key the submission came with (src/lib/http/idempotency.ts): a retry with it answers this row. */
    idempotencyKey: text("idempotency_key"),
    /** Digest of the request the key came with: the same key with another body is refused. */
    requestDigest: text("request_digest"),
  },
  (t) => [index("event_submissions_status_created_idx").on(t.status, t.createdAt.desc()), uniqueIndex("event_submissions_idempotency_key_idx").on(t.idempotencyKey)],
);
