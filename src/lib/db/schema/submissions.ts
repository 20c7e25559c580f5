// Host event submissions held for review (see docs/public-pages.md, "/submit-event", and docs/console.md).

import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
  },
  (t) => [index("event_submissions_status_created_idx").on(t.status, t.createdAt.desc())],
);
