// The email outbox (see docs/email.md): one row per message to a host or a partner, written in the
// transaction of the action that causes it and sent by the outbox worker.

import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * A message and its delivery state: `queued` (waiting for `next_attempt_at`), `sending` (claimed by
 * a worker until `lease_until`), `sent`, `failed` (given up, or interrupted during a send that may
 * have arrived) or `cancelled` (no longer true, e.g. a revoked placement). `dedupe_key` names the
 * cause, so one action never queues the same message twice.
 */
export const outboxMessages = pgTable(
  "outbox_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dedupeKey: text("dedupe_key").notNull(),
    kind: text("kind").notNull(),
    language: text("language").notNull(),
    recipient: text("recipient").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    status: text("status").notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("outbox_messages_dedupe_idx").on(t.dedupeKey),
    index("outbox_messages_due_idx").on(t.status, t.nextAttemptAt),
    index("outbox_messages_created_idx").on(t.createdAt.desc()),
    index("outbox_messages_recipient_idx").on(t.recipient),
  ],
);
