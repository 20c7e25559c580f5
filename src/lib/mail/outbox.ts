// The email outbox (see docs/email.md): actions queue a message in their own transaction; the
// outbox worker (worker.ts) claims, sends and marks it. This module holds the table's reads and
// writes: enqueue, the console's list and counts, resend, and the worker's claim and outcomes.

import { and, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { rowsOf, type Db } from "../db/client.ts";
import { outboxMessages } from "../db/schema/index.ts";
import { isLanguage, type Language } from "../i18n/index.ts";
import { PRIVATE_LINK_PARAMS, type MessageKind, type MessageParams } from "./templates.ts";
import { recordActivity } from "../admin/activity.ts";

export const OUTBOX_STATUSES = ["queued", "sending", "sent", "failed", "cancelled"] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export type OutboxMessage = typeof outboxMessages.$inferSelect;

export function isOutboxStatus(value: unknown): value is OutboxStatus {
  return typeof value === "string" && (OUTBOX_STATUSES as readonly string[]).includes(value);
}

/**
 * Seconds to wait before attempt n+1 after a refused attempt n (index n-1); after the last one the
 * message is `failed`. About 19 hours from the first attempt to the last.
 */
export const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 8 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** How long a claim holds: longer than the SMTP client's connect, greeting and socket timeouts together. */
export const LEASE_SECONDS = 120;

/** What `last_error` says of a send that was cut off after the message may have reached the server. */
export const INTERRUPTED_ERROR = "Interrupted during sending: the message may have arrived, so it is not retried on its own; resend it if the recipient did not get it";

/** A message to queue: `dedupeKey` names its cause (one message per cause); `notBefore` delays it. */
export type NewMessage = {
  [K in MessageKind]: { kind: K; params: MessageParams[K]; dedupeKey: string; recipient: string; language: string | null | undefined; notBefore?: Date };
}[MessageKind];

/** The language of a message: the recipient's when known, else the site default. */
export function messageLanguage(raw: string | null | undefined, fallback: Language): Language {
  return isLanguage(raw) ? raw : fallback;
}

/**
 * Queues a message in the caller's transaction (or on its own). A second message with the same
 * dedupe key is ignored, so an action that runs twice never sends twice. Returns whether it was queued.
 */
export async function enqueueMessage(db: Db, message: NewMessage, now: Date, fallbackLanguage: Language = "fr"): Promise<boolean> {
  const rows = await db
    .insert(outboxMessages)
    .values({
      dedupeKey: message.dedupeKey,
      kind: message.kind,
      language: messageLanguage(message.language, fallbackLanguage),
      recipient: message.recipient,
      params: message.params as unknown as Record<string, unknown>,
      status: "queued",
      nextAttemptAt: message.notBefore ?? now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: outboxMessages.dedupeKey })
    .returning({ id: outboxMessages.id });
  return rows.length > 0;
}

/** Cancels the queued messages whose dedupe key starts with `prefix` (a cause that no longer holds). */
export async function cancelQueuedMessages(db: Db, prefix: string, now: Date): Promise<number> {
  const rows = await db
    .update(outboxMessages)
    .set({ status: "cancelled", updatedAt: now, leaseUntil: null, params: PARAMS_WITHOUT_LINKS })
    .where(and(eq(outboxMessages.status, "queued"), sql`starts_with(${outboxMessages.dedupeKey}, ${prefix})`))
    .returning({ id: outboxMessages.id });
  return rows.length;
}

/**
 * The params of a message leaving the queue (sent, failed, cancelled): any private link it still
 * carries (a message queued before links were derived) is removed, and `linkRemoved` says so.
 */
const PARAMS_WITHOUT_LINKS = sql`case when ${sql.join(PRIVATE_LINK_PARAMS.map((k) => sql`${outboxMessages.params} ->> ${k} is not null`), sql` or `)}
  then (${outboxMessages.params} ${sql.join(PRIVATE_LINK_PARAMS.map((k) => sql`- ${k}::text`), sql` `)}) || '{"linkRemoved": true}'::jsonb else ${outboxMessages.params} end`;

export type OutboxCounts = Record<OutboxStatus, number> & { total: number };

/** The console's list (newest first) and the count per status. */
export async function listOutbox(db: Db, status?: OutboxStatus, limit = 200): Promise<{ messages: OutboxMessage[]; counts: OutboxCounts }> {
  const messages = await db
    .select()
    .from(outboxMessages)
    .where(status ? eq(outboxMessages.status, status) : undefined)
    .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
    .limit(limit);
  const grouped = await db.select({ status: outboxMessages.status, n: count() }).from(outboxMessages).groupBy(outboxMessages.status);
  const counts = { queued: 0, sending: 0, sent: 0, failed: 0, cancelled: 0, total: 0 } as OutboxCounts;
  for (const row of grouped) {
    if (isOutboxStatus(row.status)) counts[row.status] = Number(row.n);
    counts.total += Number(row.n);
  }
  return { messages, counts };
}

/** One message by id (undefined for an unknown or malformed id). */
export async function findOutboxMessage(db: Db, id: string): Promise<OutboxMessage | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id)).limit(1);
  return row;
}

export type ResendResult = { ok: true; message: OutboxMessage } | { ok: false; reason: "not_found" | "conflict"; error: string };

/**
 * Puts a failed, sent or cancelled message back in the queue for a fresh series of attempts, with
 * the same Message-ID (a mail client shows a copy that did arrive once). A queued or sending one is 409.
 */
export async function resendMessage(db: Db, id: string, now: Date): Promise<ResendResult> {
  const existing = await findOutboxMessage(db, id);
  if (!existing) return { ok: false, reason: "not_found", error: "Message not found" };
  const [row] = await db
    .update(outboxMessages)
    .set({ status: "queued", attempts: 0, nextAttemptAt: now, leaseUntil: null, lastError: null, updatedAt: now })
    .where(and(eq(outboxMessages.id, id), inArray(outboxMessages.status, ["failed", "sent", "cancelled"])))
    .returning();
  return row ? { ok: true, message: row } : { ok: false, reason: "conflict", error: "The message is already waiting to be sent" };
}

/**
 * Claims the next due message for `LEASE_SECONDS` (one attempt counted). `skip locked` lets
 * several instances claim side by side without taking the same row.
 */
export async function claimNextMessage(db: Db, now: Date): Promise<OutboxMessage | undefined> {
  const lease = new Date(now.getTime() + LEASE_SECONDS * 1000);
  const rows = await db.execute(sql`
    update outbox_messages set status = 'sending', attempts = attempts + 1, lease_until = ${lease.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
    where id = (
      select id from outbox_messages
      where status = 'queued' and next_attempt_at <= ${now.toISOString()}::timestamptz
      order by next_attempt_at, created_at
      limit 1
      for update skip locked
    )
    returning id`);
  const id = (rowsOf(rows)[0] as { id?: string } | undefined)?.id;
  return id ? findOutboxMessage(db, id) : undefined;
}

/** Marks a claimed message sent (only while this claim still holds it), without any private link it carried. */
export async function markSent(db: Db, message: Pick<OutboxMessage, "id" | "attempts">, now: Date): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ status: "sent", sentAt: now, leaseUntil: null, lastError: null, updatedAt: now, params: PARAMS_WITHOUT_LINKS })
    .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.status, "sending"), eq(outboxMessages.attempts, message.attempts)));
}

/** A refused attempt: back to the queue after the back-off, or `failed` when `permanent` or out of attempts. */
export async function markRefused(db: Db, message: Pick<OutboxMessage, "id" | "attempts">, error: string, permanent: boolean, now: Date): Promise<"retry" | "failed"> {
  const giveUp = permanent || message.attempts >= MAX_ATTEMPTS;
  const delay = RETRY_DELAYS_SECONDS[Math.min(message.attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? RETRY_DELAYS_SECONDS[0];
  await db
    .update(outboxMessages)
    .set(
      giveUp
        ? { status: "failed", leaseUntil: null, lastError: error, updatedAt: now, params: PARAMS_WITHOUT_LINKS }
        : { status: "queued", leaseUntil: null, lastError: error, nextAttemptAt: new Date(now.getTime() + delay * 1000), updatedAt: now },
    )
    .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.status, "sending"), eq(outboxMessages.attempts, message.attempts)));
  return giveUp ? "failed" : "retry";
}

/** Puts a claimed message back without counting the attempt (its moment moved: a rescheduled placement). */
export async function postponeMessage(db: Db, message: Pick<OutboxMessage, "id" | "attempts">, until: Date, now: Date): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ status: "queued", attempts: sql`${outboxMessages.attempts} - 1`, leaseUntil: null, nextAttemptAt: until, updatedAt: now })
    .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.status, "sending"), eq(outboxMessages.attempts, message.attempts)));
}

/** Cancels a claimed message whose cause no longer holds (a placement revoked before it started). */
export async function cancelClaimed(db: Db, message: Pick<OutboxMessage, "id" | "attempts">, reason: string, now: Date): Promise<void> {
  await db
    .update(outboxMessages)
    .set({ status: "cancelled", leaseUntil: null, lastError: reason, updatedAt: now, params: PARAMS_WITHOUT_LINKS })
    .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.status, "sending"), eq(outboxMessages.attempts, message.attempts)));
}

/**
 * Messages left `sending` by a worker that stopped mid-send: those whose lease has passed, and on
 * the embedded database (one process) every one this process is not sending now. Such a message
 * may have reached the server, so it becomes `failed` with INTERRUPTED_ERROR instead of being
 * sent again: the console's Resend decides.
 */
export async function releaseInterrupted(db: Db, now: Date, options: { singleProcess: boolean; inFlight: ReadonlySet<string> }): Promise<number> {
  const stale = options.singleProcess
    ? and(eq(outboxMessages.status, "sending"), options.inFlight.size > 0 ? sql`${outboxMessages.id} not in (${sql.join([...options.inFlight].map((id) => sql`${id}::uuid`), sql`, `)})` : undefined)
    : and(eq(outboxMessages.status, "sending"), lt(outboxMessages.leaseUntil, now));
  const rows = await db.update(outboxMessages).set({ status: "failed", leaseUntil: null, lastError: INTERRUPTED_ERROR, updatedAt: now, params: PARAMS_WITHOUT_LINKS }).where(stale).returning({ id: outboxMessages.id });
  return rows.length;
}

/** The earliest moment a queued message is due, if any. */
export async function nextDueAt(db: Db): Promise<Date | undefined> {
  const [row] = await db.select({ at: sql<string | Date | null>`min(${outboxMessages.nextAttemptAt})` }).from(outboxMessages).where(eq(outboxMessages.status, "queued"));
  return row?.at ? new Date(row.at) : undefined;
}

/** Resend from the console or the API, recorded on the activity timeline. */
export async function resendFromConsole(deps: { db: Db; now: () => Date }, id: string, actor: string): Promise<ResendResult> {
  const result = await resendMessage(deps.db, id, deps.now());
  if (result.ok || result.reason !== "not_found") await recordActivity(deps, { actor, action: "mail.resend", targetType: "message", targetId: id, outcome: result.ok ? "ok" : "failed", detail: result.ok ? { kind: result.message.kind } : { error: result.error } });
  return result;
}
