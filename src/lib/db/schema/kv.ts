// Key-value table: coordinates cache, sliding banner, submission settings (JSON values).

import { jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** One JSON document per key. */
export const kvStore = pgTable("kv_store", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
