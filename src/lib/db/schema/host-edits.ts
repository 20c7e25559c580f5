// The host's private edit link and the changes it proposes (see docs/host-edit-link.md). Neither
// table holds an email: the recipient of a moderation email is read from the submission.

import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { eventSubmissions } from "./submissions.ts";

/**
 * One edit link of an accepted submission's event. Only a keyed hash of the token is stored, so
 * the database never holds a working link; issuing a new link revokes the earlier ones. Deleted
 * with the submission (purge, erasure).
 */
export const hostEditLinks = pgTable(
  "host_edit_links",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => eventSubmissions.id, { onDelete: "cascade" }),
    eventKey: text("event_key").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: text("created_by").notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: text("revoked_by"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("host_edit_links_submission_idx").on(t.submissionId)],
);

/**
 * Changes a host proposed through their link, waiting for a moderator: `changes` maps each sheet
 * field to `{before, after}` (before = the published cell when proposed). Status `pending`,
 * `accepted`, `refused` or `superseded` (a newer proposal of the same event replaced it).
 */
export const hostChangeRequests = pgTable(
  "host_change_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => hostEditLinks.id, { onDelete: "cascade" }),
    submissionId: uuid("submission_id")
      .notNull()
      .references(() => eventSubmissions.id, { onDelete: "cascade" }),
    eventKey: text("event_key").notNull(),
    changes: jsonb("changes").$type<Record<string, { before: string; after: string }>>().notNull(),
    status: text("status").notNull().default("pending"),
    reviewReason: text("review_reason"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("host_change_requests_status_created_idx").on(t.status, t.createdAt),
    // At most one pending proposal per event: a new one supersedes the last.
    uniqueIndex("host_change_requests_pending_idx").on(t.eventKey).where(sql`status = 'pending'`),
  ],
);
