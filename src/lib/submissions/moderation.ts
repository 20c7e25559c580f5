// Moderating host submissions (see docs/console.md) for the admin console: lists per status, dashboard
// counts, decline with a reason, and accept, which appends the event to the sheet. A review only
// starts from pending and is a conditional update, so two admins never both review one item.

import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import type { EventReader } from "../events/pipeline.ts";
import type { InvalidationBus } from "../serving/invalidation.ts";
import type { Logger } from "../logger.ts";
import { eventSubmissions } from "../db/schema/index.ts";
import { findFieldForHeader, SHEET_COLUMNS, type SheetField } from "../sheet/columns.ts";
import { appendStoreRows, patchStoreSheet } from "../store/patch.ts";
import { revalidateHomepage } from "../events/publish.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { isValidEventKey, normaliseEventKey } from "../sheet/keys.ts";
import type { Config } from "../config.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { submissionAcceptedMessage, submissionDeclinedMessage } from "../mail/messages.ts";
import { recordActivity } from "../admin/activity.ts";
import { issueEditLink } from "./host-links.ts";

export const SUBMISSION_STATUSES = ["pending", "accepted", "declined"] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const DECLINE_REASONS = ["not_enough_information", "duplicate_submission", "event_not_relevant", "unable_to_verify", "spam_signal", "other"] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** Items per status tab. */
export const SUBMISSIONS_PER_TAB = 120;
const NOTE_MAX = 500;

export const MODERATION_MESSAGES = {
  notFound: "Submission not found",
  alreadyReviewed: "Already reviewed by another admin",
  reasonRequired: "Choose a reason for declining",
  noteRequired: "Add a note explaining the reason",
  noteTooLong: `The note must be at most ${NOTE_MAX} characters`,
  saveFailed: "Could not add the event to the sheet; the submission is still pending",
  invalidEventKey: "An event key is evt_ followed by 12 to 20 lowercase letters or digits",
} as const;

/** A stored submission as the console shows it. */
export type SubmissionRecord = typeof eventSubmissions.$inferSelect;

/** Dashboard tiles: totals and the reviews of the last 7 days. */
export interface SubmissionDashboard {
  totalCount: number;
  pendingCount: number;
  acceptedLast7Days: number;
  declinedLast7Days: number;
}

export type ModerationResult =
  | { ok: true; submission: SubmissionRecord; acceptedEventKey?: string; warning?: string }
  | { ok: false; error: string; reason: "invalid" | "not_found" | "conflict" | "failed" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Submissions with one status, newest first, at most `limit` (120 per tab). */
export async function listSubmissions(db: Db, status: SubmissionStatus, limit = SUBMISSIONS_PER_TAB): Promise<SubmissionRecord[]> {
  return db.select().from(eventSubmissions).where(eq(eventSubmissions.status, status)).orderBy(desc(eventSubmissions.createdAt), desc(eventSubmissions.id)).limit(limit);
}

/** The dashboard counts; "last 7 days" is by review time. */
export async function submissionDashboard(db: Db, now: Date): Promise<SubmissionDashboard> {
  const since = new Date(now.getTime() - 7 * 86_400_000);
  const [row] = await db
    .select({
      total: count(),
      pending: sql<number>`count(*) filter (where ${eventSubmissions.status} = 'pending')`,
      accepted: sql<number>`count(*) filter (where ${eventSubmissions.status} = 'accepted' and ${eventSubmissions.reviewedAt} >= ${since.toISOString()}::timestamptz)`,
      declined: sql<number>`count(*) filter (where ${eventSubmissions.status} = 'declined' and ${eventSubmissions.reviewedAt} >= ${since.toISOString()}::timestamptz)`,
    })
    .from(eventSubmissions);
  return { totalCount: Number(row.total), pendingCount: Number(row.pending), acceptedLast7Days: Number(row.accepted), declinedLast7Days: Number(row.declined) };
}

/** Submissions reviewed since `since` (for the 7-day tiles of other views). */
export async function countReviewedSince(db: Db, status: "accepted" | "declined", since: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(eventSubmissions).where(and(eq(eventSubmissions.status, status), gte(eventSubmissions.reviewedAt, since)));
  return Number(row.n);
}

async function notReviewable(db: Db, id: string): Promise<ModerationResult> {
  const [existing] = await db.select({ id: eventSubmissions.id }).from(eventSubmissions).where(eq(eventSubmissions.id, id)).limit(1);
  return existing ? { ok: false, error: MODERATION_MESSAGES.alreadyReviewed, reason: "conflict" } : { ok: false, error: MODERATION_MESSAGES.notFound, reason: "not_found" };
}

/** Declines a pending submission with one of the reasons; `other` needs a note. */
export async function declineSubmission(
  deps: { db: Db; now: () => Date },
  id: string,
  review: { reason: string; note?: string; reviewedBy: string },
): Promise<ModerationResult> {
  if (!UUID.test(id)) return { ok: false, error: MODERATION_MESSAGES.notFound, reason: "not_found" };
  if (!(DECLINE_REASONS as readonly string[]).includes(review.reason)) return { ok: false, error: MODERATION_MESSAGES.reasonRequired, reason: "invalid" };
  const note = (review.note ?? "").replace(/\s+/g, " ").trim();
  if (review.reason === "other" && note === "") return { ok: false, error: MODERATION_MESSAGES.noteRequired, reason: "invalid" };
  if (note.length > NOTE_MAX) return { ok: false, error: MODERATION_MESSAGES.noteTooLong, reason: "invalid" };
  const now = deps.now();
  // The host's email and the timeline entry are written in the same transaction as the decline.
  const row = await deps.db.transaction(async (tx) => {
    const [declined] = await tx
      .update(eventSubmissions)
      .set({ status: "declined", reviewReason: review.reason, reviewNote: note || null, reviewedBy: review.reviewedBy, reviewedAt: now, updatedAt: now })
      .where(and(eq(eventSubmissions.id, id), eq(eventSubmissions.status, "pending")))
      .returning();
    if (declined) {
      await enqueueMessage(tx, submissionDeclinedMessage(declined), now);
      await recordActivity({ db: tx, now: deps.now }, { actor: review.reviewedBy, action: "submission.decline", targetType: "submission", targetId: id, outcome: "ok", detail: { reason: review.reason } });
    }
    return declined;
  });
  return row ? { ok: true, submission: row } : notReviewable(deps.db, id);
}

/** Sheet field ← submission payload field; Event Key, Curated, countries and Tags stay blank. */
const SHEET_CELLS: Partial<Record<SheetField, string>> = {
  title: "eventName",
  date: "date",
  startTime: "startTime",
  endTime: "endTime",
  location: "location",
  area: "arrondissement",
  categories: "genre",
  price: "price",
  primaryUrl: "proofLink",
  ageGuidance: "age",
  setting: "indoorOutdoor",
  notes: "notes",
};

/** The sheet row for a submission, aligned with `headers`; `eventKey` fills the Event Key cell when given. */
export function submissionSheetRow(headers: readonly string[], payload: Record<string, unknown>, eventKey?: string): string[] {
  return headers.map((header) => {
    const field = findFieldForHeader(header);
    if (field === "eventKey" && eventKey) return eventKey;
    const source = field ? SHEET_CELLS[field] : undefined;
    const value = source ? payload[source] : undefined;
    return typeof value === "string" ? value : "";
  });
}

/**
 * Accepts a pending submission: claims it (conditional update), appends its row at the end of the
 * sheet and saves (uniqueness pass, revision "submission"), records the key the save generated
 * for that row, then warms coordinates and revalidates the homepage. A failed save puts the
 * submission back to pending. The save and the revalidation are called separately (rather than
 * through publishSheet) so a failed revalidation after a good save is not mistaken for a failed
 * save: the event is in the sheet, the submission stays accepted and the failure is reported.
 */
export async function acceptSubmission(
  deps: { db: Db; events: EventReader; invalidation: InvalidationBus; log: Logger; now: () => Date; config: Pick<Config, "siteUrl" | "basePath" | "authSecret"> },
  id: string,
  review: { reviewedBy: string; eventKey?: string },
): Promise<ModerationResult> {
  if (!UUID.test(id)) return { ok: false, error: MODERATION_MESSAGES.notFound, reason: "not_found" };
  if (review.eventKey !== undefined && !isValidEventKey(review.eventKey)) return { ok: false, error: MODERATION_MESSAGES.invalidEventKey, reason: "invalid" };
  const now = deps.now();
  const [claimed] = await deps.db
    .update(eventSubmissions)
    .set({ status: "accepted", reviewReason: "accepted", reviewedBy: review.reviewedBy, reviewedAt: now, updatedAt: now })
    .where(and(eq(eventSubmissions.id, id), eq(eventSubmissions.status, "pending")))
    .returning();
  if (!claimed) return notReviewable(deps.db, id);

  let acceptedEventKey: string;
  try {
    // Appended under the store lock: concurrent editor autosaves and other accepts are never overwritten.
    const headers = SHEET_COLUMNS.map((c) => c.header);
    const cells = submissionSheetRow(headers, claimed.payload);
    const values = Object.fromEntries(SHEET_COLUMNS.map((c, i) => [c.key, cells[i] ?? ""]));
    const chosenKey = normaliseEventKey(review.eventKey);
    if (chosenKey) {
      // A chosen key goes in as the row's Event Key; the uniqueness pass replaces it only when taken.
      const patched = await patchStoreSheet(deps.db, { addRows: [{ values: { ...values, eventKey: chosenKey } }] }, { updatedBy: "submission-accept", trigger: "submission", actor: review.reviewedBy, now });
      if (!patched.ok) throw new Error(patched.error);
      const rowId = patched.addedRowIds[0];
      acceptedEventKey = patched.assignedKeys.find((k) => k.rowId === rowId)?.eventKey ?? chosenKey;
    } else {
      const appended = await appendStoreRows(deps.db, [values], { updatedBy: "submission-accept", trigger: "submission", actor: review.reviewedBy, now });
      if (!appended.ok) throw new Error(appended.error);
      acceptedEventKey = appended.keys[0];
    }
  } catch (error) {
    deps.log.error("submissions", "Accepting a submission failed; it stays pending", { id, error: dbErrorSummary(error) });
    await deps.db
      .update(eventSubmissions)
      .set({ status: "pending", reviewReason: null, reviewedBy: null, reviewedAt: null, updatedAt: deps.now() })
      .where(and(eq(eventSubmissions.id, id), eq(eventSubmissions.status, "accepted"), sql`${eventSubmissions.acceptedEventKey} is null`));
    await recordActivity({ ...deps, log: deps.log }, { actor: review.reviewedBy, action: "submission.accept", targetType: "submission", targetId: id, outcome: "failed" });
    return { ok: false, error: MODERATION_MESSAGES.saveFailed, reason: "failed" };
  }
  // The host's edit link, their "accepted" email carrying it and the timeline entry go in the
  // transaction that records the key.
  const submission = await deps.db.transaction(async (tx) => {
    const [updated] = await tx.update(eventSubmissions).set({ acceptedEventKey, updatedAt: deps.now() }).where(eq(eventSubmissions.id, id)).returning();
    const link = await issueEditLink(tx, deps.config.authSecret, { submissionId: id, eventKey: acceptedEventKey, actor: review.reviewedBy, now: deps.now() });
    await enqueueMessage(tx, submissionAcceptedMessage(deps.config, updated, acceptedEventKey, link.id), deps.now());
    await recordActivity({ db: tx, now: deps.now }, { actor: review.reviewedBy, action: "submission.accept", targetType: "submission", targetId: id, outcome: "ok", detail: { eventKey: acceptedEventKey } });
    return updated;
  });
  let warning: string | undefined;
  try {
    await revalidateHomepage(deps);
  } catch (error) {
    deps.log.error("submissions", "Submission accepted but the homepage revalidation failed", { id, eventKey: acceptedEventKey }, error);
    warning = "The event was added to the sheet, but the homepage could not be revalidated";
  }
  deps.log.info("submissions", "Submission accepted", { id, eventKey: acceptedEventKey, by: review.reviewedBy });
  return { ok: true, submission, acceptedEventKey, warning };
}
