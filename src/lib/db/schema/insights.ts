// Rollups of the tracking tables for the insights dashboard (see docs/insights.md, "Rollups"). The
// raw engagement and discovery rows stay the source of truth; these tables are kept equal to them
// by statement triggers on every insert (same transaction as the rows), and rebuilt from them by
// `insights_rebuild_rollups()`. None of them holds an email.

import { date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** Per Paris day and event: counts per action and the views that pass the 600 s rule. */
export const insightsDailyEngagement = pgTable(
  "insights_daily_engagement",
  {
    day: date("day", { mode: "string" }).notNull(),
    eventKey: text("event_key").notNull(),
    clickCount: integer("click_count").notNull().default(0),
    dedupedCount: integer("deduped_count").notNull().default(0),
    outboundCount: integer("outbound_count").notNull().default(0),
    calendarCount: integer("calendar_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.eventKey] })],
);

/**
 * Per engagement session: the time of its latest row, of any action and per action. `prev_*`
 * hold the values an update replaced, so the trigger's upsert can return them and move the
 * session between days in insights_session_days. Only the primary key is indexed: every insert
 * batch upserts its sessions here, and with no index on the times an update of an existing
 * session is a heap-only (HOT) update that writes no index entry. Readers find a window's
 * sessions through the raw rows and look them up by key (docs/insights.md, "Rollups").
 */
export const insightsEngagementSessions = pgTable(
  "insights_engagement_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    lastAnyAt: timestamp("last_any_at", { withTimezone: true }),
    lastClickAt: timestamp("last_click_at", { withTimezone: true }),
    lastOutboundAt: timestamp("last_outbound_at", { withTimezone: true }),
    lastCalendarAt: timestamp("last_calendar_at", { withTimezone: true }),
    prevAnyAt: timestamp("prev_any_at", { withTimezone: true }),
    prevClickAt: timestamp("prev_click_at", { withTimezone: true }),
    prevOutboundAt: timestamp("prev_outbound_at", { withTimezone: true }),
    prevCalendarAt: timestamp("prev_calendar_at", { withTimezone: true }),
  },
);

/** Per Paris day and kind (`any` or an action): how many sessions have their latest such row that day. */
export const insightsSessionDays = pgTable(
  "insights_session_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    kind: text("kind").notNull(),
    sessions: integer("sessions").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

/**
 * Per session and event: the time of the latest row (any action); `prev_at` as above. Indexed by
 * (last_at, event_key) too: the per-event count of a window's partial first day reads that index
 * alone, where looking its pairs up by key would read pages all over this large table (the 7-day
 * dashboard took three times as long); a new pair pays one more index entry.
 */
export const insightsEventSessions = pgTable(
  "insights_event_sessions",
  {
    sessionId: text("session_id").notNull(),
    eventKey: text("event_key").notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
    prevAt: timestamp("prev_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.eventKey] }), index("insights_event_sessions_last_event_idx").on(t.lastAt, t.eventKey)],
);

/** Per Paris day and event: how many sessions have their latest row for the event that day. */
export const insightsEventSessionDays = pgTable(
  "insights_event_session_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    eventKey: text("event_key").notNull(),
    sessions: integer("sessions").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.eventKey] })],
);

/** Per Paris day and discovery action: a count. */
export const insightsDailyDiscovery = pgTable(
  "insights_daily_discovery",
  {
    day: date("day", { mode: "string" }).notNull(),
    actionType: text("action_type").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.actionType] })],
);

/** Per Paris day, filter group and value: how many times it was applied. */
export const insightsDailyFilters = pgTable(
  "insights_daily_filters",
  {
    day: date("day", { mode: "string" }).notNull(),
    filterGroup: text("filter_group").notNull(),
    filterValue: text("filter_value").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.filterGroup, t.filterValue] })],
);

/** Per Paris day and stored search query: how many searches. */
export const insightsDailySearches = pgTable(
  "insights_daily_searches",
  {
    day: date("day", { mode: "string" }).notNull(),
    searchQuery: text("search_query").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.searchQuery] })],
);

/** Per discovery session: the time of its latest row; `prev_at` and the key alone indexed, as above. */
export const insightsDiscoverySessions = pgTable(
  "insights_discovery_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
    prevAt: timestamp("prev_at", { withTimezone: true }),
  },
);

/** Per Paris day: how many discovery sessions have their latest row that day. */
export const insightsDiscoverySessionDays = pgTable("insights_discovery_session_days", {
  day: date("day", { mode: "string" }).primaryKey(),
  sessions: integer("sessions").notNull(),
});

/**
 * One row: every tracking row recorded before `archivedBefore` (a Paris midnight) has been deleted
 * by the retention task; the rollups still hold those days.
 */
export const insightsArchiveState = pgTable("insights_archive_state", {
  id: integer("id").primaryKey(),
  archivedBefore: timestamp("archived_before", { withTimezone: true }).notNull(),
});
