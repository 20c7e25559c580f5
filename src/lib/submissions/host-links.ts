// The host's private edit link (see docs/host-edit-link.md): one per accepted event, sent in the
// "accepted" email. The token is derived from AUTH_SECRET and the link's random id; only its keyed
// hash (HMAC-SHA256 with AUTH_SECRET) is stored, and the outbox keeps only the link id (the worker
// writes the link out at send time), so neither a database copy nor a backup holds a working link, and the
// check compares hashes in constant time. A moderator can revoke the link or issue a new one
// (which revokes the earlier ones). The link names one event and grants nothing else.

import { randomUUID, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { eventSubmissions, hostEditLinks } from "../db/schema/index.ts";
import { hmacHex } from "../crypto.ts";
import type { Config } from "../config.ts";
import { recordActivity } from "../admin/activity.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { editLinkIssuedMessage } from "../mail/messages.ts";
import { editLinkToken, editLinkUrl } from "../mail/secret-links.ts";
import { refused, type Refusal, type Refused } from "../outcome.ts";

export { EDIT_LINK_PATH } from "../mail/secret-links.ts";

export type EditLink = typeof hostEditLinks.$inferSelect;
export type EditLinkSubmission = typeof eventSubmissions.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** 32 bytes in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Why a link does not open: each is a refusal of its own reason, and the page says it in words. */
export type EditLinkError = "notFound" | "tokenRequired" | "badToken" | "revoked" | "notListed";
/** The refusal reason of each way a link does not open. */
export const EDIT_LINK_REFUSAL = { notFound: "not_found", tokenRequired: "invalid", badToken: "forbidden", revoked: "gone", notListed: "gone" } as const satisfies Record<EditLinkError, Refusal>;
/** A link that does not open: the refusal, with `code` naming which way for the page's words. */
export type EditLinkRefused = Refused<(typeof EDIT_LINK_REFUSAL)[EditLinkError]> & { code: EditLinkError };
/** The API's English for each error (the page words them from the catalogue). */
export const EDIT_LINK_ERRORS: Record<EditLinkError, string> = {
  notFound: "This edit link does not exist",
  tokenRequired: "The link's token is missing",
  badToken: "This edit link is not valid",
  revoked: "This edit link was revoked or replaced by a newer one",
  notListed: "This event is no longer in the calendar",
};

/** The stored form of a token. */
export function editTokenHash(secret: string, token: string): string {
  return hmacHex(secret, `host-edit-link:${token}`);
}

function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/**
 * Issues a new link for a submission's event, in the caller's transaction: earlier links of the
 * submission are revoked. Returns the link's id and its token (shown once; never stored).
 */
export async function issueEditLink(db: Db, secret: string, input: { submissionId: string; eventKey: string; actor: string; now: Date }): Promise<{ id: string; token: string }> {
  await db
    .update(hostEditLinks)
    .set({ revokedAt: input.now, revokedBy: input.actor })
    .where(and(eq(hostEditLinks.submissionId, input.submissionId), isNull(hostEditLinks.revokedAt)));
  const id = randomUUID();
  const token = editLinkToken(secret, id);
  const [row] = await db
    .insert(hostEditLinks)
    .values({ id, submissionId: input.submissionId, eventKey: input.eventKey, tokenHash: editTokenHash(secret, token), createdAt: input.now, createdBy: input.actor })
    .returning({ id: hostEditLinks.id });
  return { id: row.id, token };
}

/** The refusal of a link that does not open, in the API's English. */
export function editLinkRefused(code: EditLinkError): EditLinkRefused {
  return refused(EDIT_LINK_REFUSAL[code], EDIT_LINK_ERRORS[code], { code });
}

/**
 * Opens a link: the id must exist (not_found), the token be given (invalid) and match (forbidden,
 * compared in constant time), and the link not be revoked (gone). Revocation is told only to a
 * holder of the right token. Opening marks when the link was last used.
 */
export async function openEditLink(deps: { db: Db; now: () => Date; config: Pick<Config, "authSecret"> }, linkId: string, token: unknown): Promise<{ ok: true; link: EditLink; submission: EditLinkSubmission } | EditLinkRefused> {
  if (!UUID.test(linkId)) return editLinkRefused("notFound");
  if (typeof token !== "string" || token === "") return editLinkRefused("tokenRequired");
  const [row] = await deps.db
    .select({ link: hostEditLinks, submission: eventSubmissions })
    .from(hostEditLinks)
    .innerJoin(eventSubmissions, eq(eventSubmissions.id, hostEditLinks.submissionId))
    .where(eq(hostEditLinks.id, linkId))
    .limit(1);
  if (!row) return editLinkRefused("notFound");
  // A malformed token is still compared (against a hash of itself that cannot match) so the
  // answer takes the same path whatever was sent.
  const provided = editTokenHash(deps.config.authSecret, TOKEN.test(token) ? token : `invalid:${token.slice(0, 100)}`);
  if (!TOKEN.test(token) || !hashesEqual(provided, row.link.tokenHash)) return editLinkRefused("badToken");
  if (row.link.revokedAt) return editLinkRefused("revoked");
  await deps.db.update(hostEditLinks).set({ lastUsedAt: deps.now() }).where(eq(hostEditLinks.id, linkId));
  return { ok: true, link: row.link, submission: row.submission };
}

/** The links of a submission, newest first (for the console). */
export async function listEditLinks(db: Db, submissionId: string): Promise<EditLink[]> {
  if (!UUID.test(submissionId)) return [];
  return db.select().from(hostEditLinks).where(eq(hostEditLinks.submissionId, submissionId)).orderBy(desc(hostEditLinks.createdAt));
}

/** The current (not revoked) link of each of these submissions. */
export async function activeEditLinks(db: Db): Promise<Map<string, EditLink>> {
  const rows = await db.select().from(hostEditLinks).where(isNull(hostEditLinks.revokedAt));
  return new Map(rows.map((r) => [r.submissionId, r]));
}

type LinkActionResult = { ok: true; revoked: number; url?: string; linkId?: string } | { ok: false; reason: "not_found" | "conflict"; error: string };

async function findSubmission(db: Db, submissionId: string): Promise<EditLinkSubmission | undefined> {
  if (!UUID.test(submissionId)) return undefined;
  const [row] = await db.select().from(eventSubmissions).where(eq(eventSubmissions.id, submissionId)).limit(1);
  return row;
}

/** Revokes every link of a submission (from the console or the API), on the activity timeline. */
export async function revokeEditLinks(deps: { db: Db; now: () => Date }, submissionId: string, actor: string): Promise<LinkActionResult> {
  const submission = await findSubmission(deps.db, submissionId);
  if (!submission) return { ok: false, reason: "not_found", error: "Submission not found" };
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(hostEditLinks)
      .set({ revokedAt: deps.now(), revokedBy: actor })
      .where(and(eq(hostEditLinks.submissionId, submissionId), isNull(hostEditLinks.revokedAt)))
      .returning({ id: hostEditLinks.id });
    await recordActivity({ db: tx, now: deps.now }, { actor, action: "editlink.revoke", targetType: "submission", targetId: submissionId, outcome: "ok", detail: { revoked: rows.length } });
    return { ok: true as const, revoked: rows.length };
  });
}

/**
 * Issues a new link for an accepted submission (the earlier ones stop working) and emails it to
 * the host in the same transaction. The console shows the address once.
 */
export async function reissueEditLink(deps: { db: Db; now: () => Date; config: Pick<Config, "authSecret" | "siteUrl" | "basePath"> }, submissionId: string, actor: string): Promise<LinkActionResult> {
  const submission = await findSubmission(deps.db, submissionId);
  if (!submission) return { ok: false, reason: "not_found", error: "Submission not found" };
  if (submission.status !== "accepted" || !submission.acceptedEventKey) return { ok: false, reason: "conflict", error: "Only an accepted submission's event has an edit link" };
  const eventKey = submission.acceptedEventKey;
  return deps.db.transaction(async (tx) => {
    const issued = await issueEditLink(tx, deps.config.authSecret, { submissionId, eventKey, actor, now: deps.now() });
    const url = editLinkUrl(deps.config, issued.id, issued.token);
    await enqueueMessage(tx, editLinkIssuedMessage(submission, issued.id), deps.now());
    await recordActivity({ db: tx, now: deps.now }, { actor, action: "editlink.issue", targetType: "submission", targetId: submissionId, outcome: "ok", detail: { linkId: issued.id, eventKey } });
    return { ok: true as const, revoked: 0, url, linkId: issued.id };
  });
}
