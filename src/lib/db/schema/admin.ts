// Admin sessions and the global admin token version (see docs/auth-and-admin.md, "Admin login and sessions").

import { bigint, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** One record per minted admin token; status is derived when read. */
export const adminSessions = pgTable(
  "admin_sessions",
  {
    jti: uuid("jti").primaryKey(),
    tv: integer("tv").notNull(),
    iat: bigint("iat", { mode: "number" }).notNull(),
    exp: bigint("exp", { mode: "number" }).notNull(),
    ip: text("ip").notNull().default("unknown"),
    ua: text("ua").notNull().default(""),
    revokedUntil: timestamp("revoked_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("admin_sessions_exp_idx").on(t.exp), index("admin_sessions_iat_idx").on(t.iat.desc())],
);

/** Single-row admin metadata: the global token version (starts at 1, only increases). */
export const adminMeta = pgTable("admin_meta", {
  id: integer("id").primaryKey().default(1),
  tokenVersion: integer("token_version").notNull().default(1),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
