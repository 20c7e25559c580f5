// The console's activity timeline (see docs/console.md, "Activity"): one row per admin action.

import { bigserial, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Who did what to which target, when, and how it ended (`ok` or `failed`). */
export const adminActivity = pgTable(
  "admin_activity",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    outcome: text("outcome").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>(),
  },
  (t) => [index("admin_activity_at_idx").on(t.at.desc()), index("admin_activity_action_at_idx").on(t.action, t.at.desc()), index("admin_activity_target_idx").on(t.targetType, t.targetId)],
);
