// Fixed-window rate-limit counters keyed by HMAC hashes, never raw IPs or emails (see
// docs/auth-and-admin.md, "Rate limits").

import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** One counter per (scope, key hash, window). */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    scope: text("scope").notNull(),
    keyHash: text("key_hash").notNull(),
    windowSeconds: integer("window_seconds").notNull(),
    count: integer("count").notNull(),
    resetAt: timestamp("reset_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.keyHash, t.windowSeconds] }), index("rate_limit_counters_reset_idx").on(t.resetAt)],
);
