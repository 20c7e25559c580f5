// Visitor accounts (email sign-in), the verification log and genre preferences (see
// docs/auth-and-admin.md and docs/tracking.md).

import { bigserial, boolean, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/** One row per normalised email. */
export const users = pgTable(
  "users",
  {
    email: text("email").primaryKey(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    consent: boolean("consent"),
    source: text("source"),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    verificationCount: integer("verification_count").notNull().default(1),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("users_last_seen_idx").on(t.lastSeenAt.desc())],
);

/** One row per successful verify call. */
export const userVerifications = pgTable(
  "user_verifications",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    consent: boolean("consent"),
    source: text("source"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("user_verifications_submitted_idx").on(t.submittedAt.desc())],
);

/** Score per (email, genre), incremented atomically. */
export const genrePreferences = pgTable(
  "genre_preferences",
  {
    email: text("email").notNull(),
    genre: text("genre").notNull(),
    score: integer("score").notNull().default(1),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.email, t.genre] }), index("genre_preferences_genre_idx").on(t.genre)],
);

/**
 * Genre scores per browser session (the user token's sid): what /account/genres shows, so a
 * visitor only ever sees the preferences their own session recorded, never those stored under the
 * same email by someone else. The email is kept for erasure by address.
 */
export const sessionGenrePreferences = pgTable(
  "session_genre_preferences",
  {
    sessionId: text("session_id").notNull(),
    genre: text("genre").notNull(),
    email: text("email").notNull(),
    score: integer("score").notNull().default(1),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.genre] }), index("session_genre_preferences_email_idx").on(t.email), index("session_genre_preferences_seen_idx").on(t.lastSeenAt)],
);
