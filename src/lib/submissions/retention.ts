// How long host submissions are kept (see docs/public-pages.md, "/privacy", and docs/operations.md,
// "Scheduled tasks"): the privacy page states this period and the purge-submissions task applies it. Outbox
// messages (they hold the recipient's email) are kept for the same period.

import { lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventSubmissions, outboxMessages } from "../db/schema/index.ts";

/** Months a submission (any status) and an outbox message are kept after they were created. */
export const SUBMISSION_RETENTION_MONTHS = 12;

/** The oldest creation time kept at `now`: the same day and time, SUBMISSION_RETENTION_MONTHS earlier. */
export function submissionCutoff(now: Date): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - SUBMISSION_RETENTION_MONTHS);
  return cutoff;
}

/** Deletes submissions and outbox messages created before the cutoff (queued and sending messages stay). */
export async function purgeOldSubmissions(db: Db, now: Date): Promise<{ deletedSubmissions: number; deletedMessages: number; cutoff: string }> {
  const cutoff = submissionCutoff(now);
  const submissions = await db.delete(eventSubmissions).where(lt(eventSubmissions.createdAt, cutoff)).returning({ id: eventSubmissions.id });
  const messages = await db
    .delete(outboxMessages)
    .where(sql`${outboxMessages.createdAt} < ${cutoff.toISOString()}::timestamptz and ${outboxMessages.status} in ('sent', 'failed', 'cancelled')`)
    .returning({ id: outboxMessages.id });
  return { deletedSubmissions: submissions.length, deletedMessages: messages.length, cutoff: cutoff.toISOString() };
}
