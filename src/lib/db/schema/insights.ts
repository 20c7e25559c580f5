// Daily rollups of tracking rows removed by the retention job (see docs/insights.md, "Retention"):
// whole Paris days of engagement and discovery, kept without emails so the dashboard's figures
// for those days stay the same after the raw rows are deleted.

import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** Per Paris day and event: the engagement counts (views deduplicated as the dashboard does). */
export const insightsArchiveEngagement = pgTable(
  "insights_archive_engagement",
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

/** Per Paris day, event and session: which actions the session took (distinct-session figures). */
export const insightsArchiveSessions = pgTable(
  "insights_archive_sessions",
  {
    day: date("day", { mode: "string" }).notNull(),
    eventKey: text("event_key").notNull(),
    sessionId: text("session_id").notNull(),
    clicked: boolean("clicked").notNull().default(false),
    outbound: boolean("outbound").notNull().default(false),
    calendar: boolean("calendar").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.day, t.eventKey, t.sessionId] })],
);

/** Per Paris day: discovery counts by action, filter and query. */
export const insightsArchiveDiscovery = pgTable(
  "insights_archive_discovery",
  {
    day: date("day", { mode: "string" }).notNull(),
    actionType: text("action_type").notNull(),
    filterGroup: text("filter_group"),
    filterValue: text("filter_value"),
    searchQuery: text("search_query"),
    count: integer("count").notNull(),
  },
  (t) => [index("insights_archive_discovery_day_idx").on(t.day)],
);

/** Per Paris day: the sessions with any discovery action. */
export const insightsArchiveDiscoverySessions = pgTable(
  "insights_archive_discovery_sessions",
  {
    day: date("day", { mode: "string" }).notNull(),
    sessionId: text("session_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.sessionId] })],
);

/** One row: every tracking row recorded before `archivedBefore` (a Paris midnight) is counted in the archive. */
export const insightsArchiveState = pgTable("insights_archive_state", {
  id: integer("id").primaryKey(),
  archivedBefore: timestamp("archived_before", { withTimezone: true }).notNull(),
});
