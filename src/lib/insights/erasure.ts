// Erasing a person's data by email (see docs/insights.md, "Erasure"): the user record, the
// verification log and genre preferences are deleted; the email is removed from engagement and
// discovery rows, which stay as anonymous counts so every dashboard figure is unchanged; the
// host's submissions and the messages to that address are deleted; paid orders, kept for the
// accounts, lose the name, the email and the provider's payload that repeats them. The log line
// carries counts only, never the email. ERASED_EMAIL_COLUMNS names every column of the schema
// that holds an email: a test fails when a table gains one that is not in it.

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { invalid, type Invalid } from "../outcome.ts";
import { normaliseEmail } from "../auth/users.ts";
import { recordActivity } from "../admin/activity.ts";

/** What one erasure removed or anonymised. */
export interface ErasureCounts {
  users: number;
  verifications: number;
  genrePreferences: number;
  engagementRows: number;
  discoveryRows: number;
  submissions: number;
  orders: number;
  messages: number;
}

/** Every column that holds an email, and what erasure does to its rows. */
export const ERASED_EMAIL_COLUMNS: Readonly<Record<string, "delete" | "anonymise">> = {
  "users.email": "delete",
  "user_verifications.email": "delete",
  "genre_preferences.email": "delete",
  "session_genre_preferences.email": "delete",
  "engagement_interactions.user_email": "anonymise",
  "discovery_interactions.user_email": "anonymise",
  "event_submissions.host_email": "delete",
  "paid_orders.customer_email": "anonymise",
  "outbox_messages.recipient": "delete",
};

const count = (result: unknown): number => rowsOf(result).length;

/** Erases one email in one transaction; an invalid email is refused and changes nothing. */
export async function eraseByEmail(deps: { db: Db; log: Logger; now: () => Date }, raw: unknown, actor = "unknown"): Promise<({ ok: true } & ErasureCounts) | Invalid> {
  const email = normaliseEmail(raw);
  if (!email) return invalid("Enter a valid email address", [{ field: "email", message: "A valid email address is required" }]);
  const counts = await deps.db.transaction(async (tx) => ({
    users: count(await tx.execute(sql`delete from users where email = ${email} returning 1`)),
    verifications: count(await tx.execute(sql`delete from user_verifications where email = ${email} returning 1`)),
    // Per-email scores and the same scores kept per browser session (docs/tracking.md, "Tables").
    genrePreferences:
      count(await tx.execute(sql`delete from genre_preferences where email = ${email} returning 1`)) +
      count(await tx.execute(sql`delete from session_genre_preferences where email = ${email} returning 1`)),
    engagementRows: count(await tx.execute(sql`update engagement_interactions set user_email = null where user_email = ${email} returning 1`)),
    discoveryRows: count(await tx.execute(sql`update discovery_interactions set user_email = null where user_email = ${email} returning 1`)),
    // The payload holds the email too; accepted events stay in the sheet, which never had it.
    submissions: count(await tx.execute(sql`delete from event_submissions where lower(host_email) = ${email} returning 1`)),
    // Orders stay for the accounts: amount, package and event; the person goes.
    orders: count(
      await tx.execute(
        sql`update paid_orders set customer_email = null, customer_name = null, raw_payload = null, updated_at = now() where lower(customer_email) = ${email} or position(${email} in lower(coalesce(raw_payload::text, ''))) > 0 returning 1`,
      ),
    ),
    messages: count(await tx.execute(sql`delete from outbox_messages where lower(recipient) = ${email} returning 1`)),
  }));
  // The timeline keeps that an erasure happened and its counts, never whose.
  await recordActivity({ ...deps }, { actor, action: "privacy.erase", targetType: "person", outcome: "ok", detail: { ...counts } });
  deps.log.info("privacy", "Personal data erased on request", { ...counts });
  return { ok: true, ...counts };
}
