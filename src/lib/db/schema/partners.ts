// Rollups of partner statistics (see docs/placements.md, "Partner statistics"): one row per
// activation with its figures, kept equal to the raw engagement records of its window by triggers
// on engagement_interactions (insert, delete, update, truncate: same transaction as the change)
// and on paid_orders (an activation made, moved or ended recomputes or removes its rollup). The
// raw records stay the source of truth; `partner_stats_rebuild()` recomputes every rollup.

import { date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Per activation (an activated order with a fulfilled key and tier): the window the figures cover,
 * the totals and the distinct-session counts. `event_key` is the fulfilled key lower-cased (as
 * engagement records store it); `end_at` null means open-ended (the order has no fulfilled end, or
 * one before its start: read as "until now").
 */
export const partnerStats = pgTable(
  "partner_stats",
  {
    orderId: uuid("order_id").primaryKey(),
    eventKey: text("event_key").notNull(),
    startAt: timestamp("start_at", { withTimezone: true }).notNull(),
    endAt: timestamp("end_at", { withTimezone: true }),
    clickCount: integer("click_count").notNull().default(0),
    outboundCount: integer("outbound_count").notNull().default(0),
    calendarCount: integer("calendar_count").notNull().default(0),
    sessions: integer("sessions").notNull().default(0),
    viewSessions: integer("view_sessions").notNull().default(0),
    outboundSessions: integer("outbound_sessions").notNull().default(0),
    calendarSessions: integer("calendar_sessions").notNull().default(0),
  },
  // The engagement triggers find the activations of a batch's keys.
  (t) => [index("partner_stats_event_idx").on(t.eventKey, t.startAt)],
);

/**
 * Per activation and session (non-null): how many of its records fall in the window, in all and
 * per action. A distinct-session count moves when one of these goes from 0 to more or back; a
 * session with no record left is deleted.
 */
export const partnerStatsSessions = pgTable(
  "partner_stats_sessions",
  {
    orderId: uuid("order_id").notNull(),
    sessionId: text("session_id").notNull(),
    rowCount: integer("row_count").notNull(),
    clickCount: integer("click_count").notNull(),
    outboundCount: integer("outbound_count").notNull(),
    calendarCount: integer("calendar_count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.sessionId] })],
);

/** Per activation and Paris day of the window: the partner page's chart. Days with no record are absent. */
export const partnerStatsDays = pgTable(
  "partner_stats_days",
  {
    orderId: uuid("order_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    rowCount: integer("row_count").notNull(),
    clickCount: integer("click_count").notNull(),
    outboundCount: integer("outbound_count").notNull(),
    calendarCount: integer("calendar_count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.day] })],
);
