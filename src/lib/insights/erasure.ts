// Erasing a person's data by email (see docs/insights.md, "Erasure"): the user record, the
// verification log and genre preferences are deleted; the email is removed from engagement and
// discovery rows, which stay as anonymous counts so every dashboard figure is unchanged. The log
// line carries counts only, never the email.

import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { ValidationError } from "../errors.ts";
import { normaliseEmail } from "../auth/users.ts";

/** What one erasure removed or anonymised. */
export interface ErasureCounts {
  users: number;
  verifications: number;
  genrePreferences: number;
  engagementRows: number;
  discoveryRows: number;
}

const count = (result: unknown): number => rowsOf(result).length;

/** Erases one email in one transaction; an invalid email is a 400 and changes nothing. */
export async function eraseByEmail(deps: { db: Db; log: Logger }, raw: unknown): Promise<ErasureCounts> {
  const email = normaliseEmail(raw);
  if (!email) throw new ValidationError("Enter a valid email address", [{ field: "email", message: "A valid email address is required" }]);
  const counts = await deps.db.transaction(async (tx) => ({
    users: count(await tx.execute(sql`delete from users where email = ${email} returning 1`)),
    verifications: count(await tx.execute(sql`delete from user_verifications where email = ${email} returning 1`)),
    // Per-email scores and the same scores kept per browser session (docs/tracking.md, "Tables").
    genrePreferences:
      count(await tx.execute(sql`delete from genre_preferences where email = ${email} returning 1`)) +
      count(await tx.execute(sql`delete from session_genre_preferences where email = ${email} returning 1`)),
    engagementRows: count(await tx.execute(sql`update engagement_interactions set user_email = null where user_email = ${email} returning 1`)),
    discoveryRows: count(await tx.execute(sql`update discovery_interactions set user_email = null where user_email = ${email} returning 1`)),
  }));
  deps.log.info("privacy", "Personal data erased on request", { ...counts });
  return counts;
}
