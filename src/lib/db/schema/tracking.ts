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
    // Partner statistics read one key over a window with index-only scans (docs/placements.md,
    // "Partner statistics"): by time for narrow windows and the daily chart, by session when the
    // window holds most of the key's rows (the per-session counts then stream in index order
    // instead of hashing every session). The trailing columns only make the scans index-only.
    index("engagement_event_time_cover_idx").on(t.eventKey, t.recordedAt, t.actionType, t.sessionId),
    index("engagement_event_session_idx").on(t.eventKey, t.sessionId, t.recordedAt, t.actionType),
    index("engagement_action_time_idx").on(t.actionType, t.recordedAt.desc()),
    index("engagement_time_idx").on(t.recordedAt.desc()),
    index("engagement_session_event_time_idx").on(t.sessionId, t.eventKey, t.recordedAt),
    // Every live read counts calendar_sync rows per event (the cards' saved line): an index-only
    // scan of these rows alone. Over 2 M records with 100 k of them calendar_sync, the count took
    // 125-150 ms through the action/time index and 6.5-9 ms with this one; the write path gains
    // one index entry per calendar_sync row only.
    index("engagement_calendar_event_idx").on(t.eventKey).where(sql`${t.actionType} = 'calendar_sync'`),
    // The newest calendar_sync row's id is the version of those counts: a live read recounts only
    // when it moved (one index probe), not on every render miss.
    index("engagement_calendar_id_idx").on(t.id).where(sql`${t.actionType} = 'calendar_sync'`),
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
