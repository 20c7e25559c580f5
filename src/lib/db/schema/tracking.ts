// Engagement (click, outbound_click, calendar_sync) and discovery (search, filters) records (see
// docs/tracking.md, "Tables").

import { sql } from "drizzle-orm";
import { bigserial, boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** One row per recorded interaction with an event. */
export const engagementInteractions = pgTable(
  "engagement_interactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventKey: text("event_key").notNull(),
    actionType: text("action_type").notNull(),
    sessionId: text("session_id"),
    source: text("source"),
    path: text("path"),
    isAuthenticated: boolean("is_authenticated").notNull().default(false),
    userEmail: text("user_email"),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("engagement_event_time_idx").on(t.eventKey, t.recordedAt.desc()),
    index("engagement_action_time_idx").on(t.actionType, t.recordedAt.desc()),
    index("engagement_time_idx").on(t.recordedAt.desc()),
    index("engagement_session_event_time_idx").on(t.sessionId, t.eventKey, t.recordedAt),
    // Erasure finds a person's rows by email; most rows have none.
    index("engagement_user_email_idx").on(t.userEmail).where(sql`${t.userEmail} is not null`),
  ],
);

/** One row per recorded search or filter action. */
export const discoveryInteractions = pgTable(
  "discovery_interactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actionType: text("action_type").notNull(),
    sessionId: text("session_id"),
    userEmail: text("user_email"),
    filterGroup: text("filter_group"),
    filterValue: text("filter_value"),
    searchQuery: text("search_query"),
    path: text("path"),
    isAuthenticated: boolean("is_authenticated").notNull().default(false),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("discovery_time_idx").on(t.recordedAt.desc()),
    index("discovery_action_time_idx").on(t.actionType, t.recordedAt.desc()),
    index("discovery_session_idx").on(t.sessionId, t.recordedAt),
    index("discovery_user_email_idx").on(t.userEmail).where(sql`${t.userEmail} is not null`),
  ],
);

/**
 * One marker per write-behind batch applied (engagement, discovery, genre preferences). The batch
 * insert and its marker commit together, so a batch retried after a lost acknowledgement is
 * skipped instead of recorded twice. Markers older than an hour are pruned by the recorder.
 */
export const writeBatches = pgTable(
  "write_batches",
  {
    id: uuid("id").primaryKey(),
    appliedAt: timestamp("applied_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("write_batches_applied_idx").on(t.appliedAt)],
);
