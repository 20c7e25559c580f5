// Changes a host proposes through their edit link (see docs/host-edit-link.md): time, venue,
// notes and link. A proposal is stored as a diff against the event's published row (before →
// after per field) and waits for a moderator, who accepts it (the cells are written to the sheet
// and that row's step alone is published) or refuses it with a reason; the host is emailed in the
// same transaction. A cancellation does not wait: it goes through the event status action.

import { and, asc, desc, eq, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { eventSubmissions, hostChangeRequests } from "../db/schema/index.ts";
import { holdTransactionLock, PROPOSAL_LOCK_SPACE } from "../db/locks.ts";
import type { Config } from "../config.ts";
import type { PublishDeps } from "../events/publish.ts";
import { revalidateHomepage } from "../events/publish.ts";
import { readPublishedSheet } from "../store/published.ts";
import { patchStoreSheet } from "../store/patch.ts";
import { minutesOfDay, normaliseTime } from "../sheet/times.ts";
import { normaliseStatusNote, STATUS_NOTE_MAX } from "../sheet/status.ts";
import { sanityIssues } from "./sanity.ts";
import { normaliseProofLink, normaliseSubmissionText } from "./validation.ts";
import { setEventStatus, type StatusResult } from "../admin/publishing.ts";
import { recordActivity } from "../admin/activity.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { cancellationConfirmedMessage, changesAcceptedMessage, changesRefusedMessage, teamAlertMessage } from "../mail/messages.ts";
import type { EditLink, EditLinkSubmission } from "./host-links.ts";
import { invalid, type Invalid } from "../outcome.ts";

/** The message of a proposal refused field by field (the page shows the fields). */
const INVALID_PROPOSAL = "The proposed changes are not valid";

/** The sheet fields a host may change, in the form's order. */
export const EDITABLE_FIELDS = ["startTime", "endTime", "location", "area", "notes", "primaryUrl"] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** One field's change: the published cell when proposed, and the proposed one. */
export type FieldChange = { before: string; after: string };
export type ChangeSet = Partial<Record<EditableField, FieldChange>>;

/** What is wrong with a proposal: the page words each code from the catalogue. */
export type ProposalIssueCode = "text" | "required" | "tooShort" | "tooLong" | "time" | "endBeforeStart" | "arrondissement" | "link" | "noChange";
export interface ProposalIssue {
  field: EditableField | "body" | "note";
  code: ProposalIssueCode;
  message: string;
}

const BOUNDS: Record<EditableField, { min?: number; max: number; required?: boolean }> = {
  startTime: { max: 40, required: true },
  endTime: { max: 40 },
  location: { min: 2, max: 240, required: true },
  area: { max: 32 },
  notes: { max: 3000 },
  primaryUrl: { max: 2000, required: true },
};

/** The longest refusal reason. */
export const REFUSAL_REASON_MAX = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export type ChangeRequest = typeof hostChangeRequests.$inferSelect;

/** The published row of an event key (its id and cells), or undefined when it is not published. */
export async function publishedRowOf(db: Db, eventKey: string): Promise<{ id: string; values: Record<string, string> } | undefined> {
  const published = await readPublishedSheet(db);
  return published?.rows.find((r) => r.values.eventKey === eventKey);
}

/**
 * Reads a proposal from the form or JSON: each editable field sent is checked and normalised
 * (times to HH:MM, the link as a full URL); a field not sent keeps its published value; any other
 * field (another event's key, a title, a status) is ignored. Only fields that differ from the
 * published row make the change set; none at all is an issue.
 */
export function parseProposal(body: Record<string, unknown> | undefined, published: Record<string, string>, now: Date): { ok: true; changes: ChangeSet } | Invalid<ProposalIssue> {
  if (!body) return invalid(INVALID_PROPOSAL, [{ field: "body", code: "text", message: "Send the fields as a form or JSON" }]);
  const issues: ProposalIssue[] = [];
  const next: Record<EditableField, string> = Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, published[f] ?? ""])) as Record<EditableField, string>;
  for (const field of EDITABLE_FIELDS) {
    const raw = body[field];
    if (raw === undefined) continue;
    if (typeof raw !== "string") {
      issues.push({ field, code: "text", message: `${field} must be text` });
      continue;
    }
    const bounds = BOUNDS[field];
    if (raw.length > bounds.max * 8 + 64) {
      issues.push({ field, code: "tooLong", message: `${field} must be at most ${bounds.max} characters` });
      continue;
    }
    const value = normaliseSubmissionText(raw);
    if (value === "") {
      if (bounds.required) issues.push({ field, code: "required", message: `${field} is required` });
      else next[field] = "";
      continue;
    }
    if ([...value].length > bounds.max) {
      issues.push({ field, code: "tooLong", message: `${field} must be at most ${bounds.max} characters` });
      continue;
    }
    if (bounds.min !== undefined && [...value].length < bounds.min) {
      issues.push({ field, code: "tooShort", message: `${field} must be at least ${bounds.min} characters` });
      continue;
    }
    if (field === "startTime" || field === "endTime") {
      // normaliseTime hands back text it cannot read as it was: only a time of day passes.
      const time = normaliseTime(value);
      if (!time || minutesOfDay(time) === null) {
        issues.push({ field, code: "time", message: "Time must be written HH:MM" });
        continue;
      }
      next[field] = time;
      continue;
    }
    if (field === "primaryUrl") {
      const link = normaliseProofLink(value);
      if (!link) {
        issues.push({ field, code: "link", message: "The link must be an HTTP(S) address" });
        continue;
      }
      next[field] = link;
      continue;
    }
    next[field] = value;
  }
  if (issues.length === 0) {
    // The submission form's own checks: the end after the start, an arrondissement from 1 to 20.
    for (const issue of sanityIssues({ startTime: next.startTime, endTime: next.endTime, arrondissement: next.area }, null)) {
      const field: EditableField = issue.field === "arrondissement" ? "area" : (issue.field as EditableField);
      if (issue.code === "endBeforeStart" || issue.code === "arrondissement" || issue.code === "time") issues.push({ field, code: issue.code, message: issue.message });
    }
  }
  if (issues.length) return invalid(INVALID_PROPOSAL, issues);
  const changes: ChangeSet = {};
  for (const field of EDITABLE_FIELDS) {
    const before = published[field] ?? "";
    if (next[field] !== before) changes[field] = { before, after: next[field] };
  }
  if (Object.keys(changes).length === 0) return invalid(INVALID_PROPOSAL, [{ field: "body", code: "noChange", message: "Nothing was changed" }]);
  return { ok: true, changes };
}

const hostActor = (link: Pick<EditLink, "id">) => `host-link:${link.id}`;

/** A proposal waiting for a moderator; a newer one of the same event supersedes it. */
export async function pendingProposal(db: Db, eventKey: string): Promise<ChangeRequest | undefined> {
  const [row] = await db.select().from(hostChangeRequests).where(and(eq(hostChangeRequests.eventKey, eventKey), eq(hostChangeRequests.status, "pending"))).limit(1);
  return row;
}

export type ProposeResult = { ok: true; request: ChangeRequest } | { ok: false; reason: "invalid" | "gone"; issues: ProposalIssue[] };

/** Stores a host's proposal (superseding their earlier pending one), on the activity timeline. */
export async function proposeChanges(deps: { db: Db; now: () => Date }, link: EditLink, body: Record<string, unknown> | undefined): Promise<ProposeResult> {
  const row = await publishedRowOf(deps.db, link.eventKey);
  if (!row) return { ok: false, reason: "gone", issues: [{ field: "body", code: "noChange", message: "This event is no longer in the calendar" }] };
  const parsed = parseProposal(body, row.values, deps.now());
  if (!parsed.ok) return { ok: false, reason: "invalid", issues: parsed.issues };
  const now = deps.now();
  const request = await deps.db.transaction(async (tx) => {
    // One proposal of an event at a time: the later one waits, then supersedes the earlier.
    await holdTransactionLock(tx, { space: PROPOSAL_LOCK_SPACE, name: link.eventKey });
    await tx
      .update(hostChangeRequests)
      .set({ status: "superseded", reviewedAt: now })
      .where(and(eq(hostChangeRequests.eventKey, link.eventKey), eq(hostChangeRequests.status, "pending")));
    const [inserted] = await tx
      .insert(hostChangeRequests)
      .values({ linkId: link.id, submissionId: link.submissionId, eventKey: link.eventKey, changes: parsed.changes as Record<string, FieldChange>, createdAt: now })
      .returning();
    await recordActivity({ db: tx, now: deps.now }, { actor: hostActor(link), action: "change.propose", targetType: "event", targetId: link.eventKey, outcome: "ok", detail: { request: inserted.id, fields: Object.keys(parsed.changes) } });
    return inserted;
  });
  return { ok: true, request };
}

/** What a cancellation by the host needs besides publishing: the addresses and languages of its emails. */
type CancelDeps = PublishDeps & { config: Pick<Config, "siteUrl" | "basePath" | "teamEmail" | "defaultLanguage"> };

/**
 * Cancels the link's event at once through the status action (published alone, shown as
 * cancelled). Then, when the event was not cancelled already, the host's confirmation
 * (`cancellation_confirmed`) and the team's alert (TEAM_EMAIL, when set) are queued together.
 */
export async function cancelFromLink(deps: CancelDeps, link: EditLink, rawNote: unknown): Promise<StatusResult | { ok: false; reason: "invalid"; error: string; issues: ProposalIssue[] }> {
  const note = rawNote === undefined || rawNote === null ? "" : rawNote;
  if (typeof note !== "string" || note.replace(/\s+/g, " ").trim().length > STATUS_NOTE_MAX || /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(note)) {
    return { ok: false, reason: "invalid", error: `The reason is text of at most ${STATUS_NOTE_MAX} characters`, issues: [{ field: "note", code: "tooLong", message: `The reason is text of at most ${STATUS_NOTE_MAX} characters` }] };
  }
  const published = await publishedRowOf(deps.db, link.eventKey);
  if (!published) return { ok: false, reason: "not_found", error: "This event is no longer in the calendar" };
  const result = await setEventStatus(deps, { event: link.eventKey, status: "cancelled", note: normaliseStatusNote(note) }, hostActor(link));
  // A second post (a double click, a new reason) changes the status again but emails nobody twice.
  if (result.ok && published.values.status !== "cancelled") await queueCancellationMail(deps, link, result);
  return result;
}

/** The host's confirmation and the team's alert of one cancellation, queued in one transaction. */
async function queueCancellationMail(deps: CancelDeps, link: EditLink, result: Extract<StatusResult, { ok: true }>): Promise<void> {
  const now = deps.now();
  const cause = `host-cancel:${link.id}:${now.toISOString()}`;
  try {
    await deps.db.transaction(async (tx) => {
      const submission = await submissionOf(tx, link.submissionId);
      const eventName = result.title || String(submission?.payload.eventName ?? "");
      if (submission) await enqueueMessage(tx, cancellationConfirmedMessage(deps.config, submission, { cause, eventKey: result.eventKey, eventName, note: result.note }), now);
      const alert = teamAlertMessage(deps.config, { source: "host", cause, eventKey: result.eventKey, eventName, note: result.note });
      if (alert) await enqueueMessage(tx, alert, now);
    });
  } catch (error) {
    // The cancellation is public already; only its emails are missing, and the log says so.
    deps.log.error("host-edits", "The event was cancelled but its emails could not be queued", { eventKey: result.eventKey }, error);
  }
}

/** A proposal as the console shows it: each field as the published row has it now → proposed. */
export interface ChangeRequestView {
  request: ChangeRequest;
  title: string;
  published: boolean;
  fields: { field: EditableField; current: string; proposed: string; changedSince: boolean }[];
}

/** Proposals with one status (pending first in time), with the diff against the published row now. */
export async function listChangeRequests(db: Db, status: "pending" | "accepted" | "refused" = "pending", limit = 100): Promise<ChangeRequestView[]> {
  const requests = await db
    .select()
    .from(hostChangeRequests)
    .where(eq(hostChangeRequests.status, status))
    .orderBy(status === "pending" ? asc(hostChangeRequests.createdAt) : desc(hostChangeRequests.reviewedAt))
    .limit(limit);
  if (!requests.length) return [];
  const published = await readPublishedSheet(db);
  const byKey = new Map((published?.rows ?? []).map((r) => [r.values.eventKey, r.values]));
  return requests.map((request) => {
    const row = byKey.get(request.eventKey);
    const fields = EDITABLE_FIELDS.filter((f) => request.changes[f]).map((field) => {
      const change = request.changes[field];
      const current = row?.[field] ?? "";
      return { field, current, proposed: change.after, changedSince: current !== change.before };
    });
    return { request, title: row?.title ?? "", published: Boolean(row), fields };
  });
}

export type ReviewResult = { ok: true; request: ChangeRequest; warning?: string } | { ok: false; reason: "invalid" | "not_found" | "conflict" | "failed"; error: string };

async function notReviewable(db: Db, id: string): Promise<ReviewResult> {
  const [row] = await db.select({ id: hostChangeRequests.id }).from(hostChangeRequests).where(eq(hostChangeRequests.id, id)).limit(1);
  return row ? { ok: false, reason: "conflict", error: "These changes were already reviewed or replaced by newer ones" } : { ok: false, reason: "not_found", error: "Proposal not found" };
}

async function submissionOf(db: Db, id: string): Promise<EditLinkSubmission> {
  const [row] = await db.select().from(eventSubmissions).where(eq(eventSubmissions.id, id)).limit(1);
  return row;
}

async function storeRowId(db: Db, eventKey: string): Promise<string | undefined> {
  const rows = rowsOf<{ id: string }>(await db.execute(sql`select id::text as id from event_store_rows where row_data->>'eventKey' = ${eventKey} limit 1`));
  return rows[0]?.id;
}

type ReviewDeps = PublishDeps & { config: Pick<Config, "siteUrl" | "basePath"> };

/**
 * Accepts a pending proposal: in one transaction the proposal is claimed, its cells are written to
 * the event's row and that step alone is published, the host's email is queued and the timeline
 * records it. Then coordinates are warmed (a new venue) and the homepage revalidated.
 */
export async function acceptChanges(deps: ReviewDeps, id: string, actor: string): Promise<ReviewResult> {
  if (!UUID.test(id)) return { ok: false, reason: "not_found", error: "Proposal not found" };
  const now = deps.now();
  let outcome: ReviewResult | undefined;
  try {
    outcome = await deps.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(hostChangeRequests)
        .set({ status: "accepted", reviewedBy: actor, reviewedAt: now })
        .where(and(eq(hostChangeRequests.id, id), eq(hostChangeRequests.status, "pending")))
        .returning();
      if (!claimed) return undefined;
      const rowId = await storeRowId(tx, claimed.eventKey);
      if (!rowId) throw new NotListed();
      const cells = EDITABLE_FIELDS.filter((f) => claimed.changes[f]).map((key) => ({ rowId, key, value: claimed.changes[key].after }));
      const patched = await patchStoreSheet(tx, { cells }, { updatedBy: "admin-sheet-editor", trigger: "host-change", actor, now, publish: "changes" });
      if (!patched.ok) throw new Error(patched.error);
      const submission = await submissionOf(tx, claimed.submissionId);
      const title = (await publishedRowOf(tx, claimed.eventKey))?.values.title;
      await enqueueMessage(tx, changesAcceptedMessage(deps.config, submission, claimed, title), now);
      await recordActivity({ db: tx, now: deps.now }, { actor, action: "change.accept", targetType: "event", targetId: claimed.eventKey, outcome: "ok", detail: { request: id, fields: Object.keys(claimed.changes) } });
      return { ok: true as const, request: claimed };
    });
  } catch (error) {
    if (error instanceof NotListed) return { ok: false, reason: "conflict", error: "This event is no longer in the sheet" };
    deps.log.error("host-edits", "Accepting a host's changes failed; they stay pending", { id }, error);
    return { ok: false, reason: "failed", error: "Could not apply the changes; they stay pending" };
  }
  if (!outcome) return notReviewable(deps.db, id);
  try {
    await revalidateHomepage(deps);
  } catch (error) {
    deps.log.error("host-edits", "Changes accepted but the homepage revalidation failed", { id }, error);
    return { ...outcome, warning: "The changes were published, but the homepage could not be revalidated" };
  }
  return outcome;
}

class NotListed extends Error {}

/** Refuses a pending proposal with a reason the host reads in their email (same transaction). */
export async function refuseChanges(deps: { db: Db; now: () => Date }, id: string, rawReason: unknown, actor: string): Promise<ReviewResult> {
  if (!UUID.test(id)) return { ok: false, reason: "not_found", error: "Proposal not found" };
  const reason = typeof rawReason === "string" ? normaliseSubmissionText(rawReason) : "";
  if (reason === "") return { ok: false, reason: "invalid", error: "Give the host a reason" };
  if (reason.length > REFUSAL_REASON_MAX) return { ok: false, reason: "invalid", error: `The reason must be at most ${REFUSAL_REASON_MAX} characters` };
  const now = deps.now();
  const refused = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(hostChangeRequests)
      .set({ status: "refused", reviewReason: reason, reviewedBy: actor, reviewedAt: now })
      .where(and(eq(hostChangeRequests.id, id), eq(hostChangeRequests.status, "pending")))
      .returning();
    if (!row) return undefined;
    const submission = await submissionOf(tx, row.submissionId);
    const title = (await publishedRowOf(tx, row.eventKey))?.values.title;
    await enqueueMessage(tx, changesRefusedMessage(submission, row, title), now);
    await recordActivity({ db: tx, now: deps.now }, { actor, action: "change.refuse", targetType: "event", targetId: row.eventKey, outcome: "ok", detail: { request: id } });
    return row;
  });
  return refused ? { ok: true, request: refused } : notReviewable(deps.db, id);
}
