// The outbox worker (see docs/email.md, "Delivery"): claims due messages one at a time, renders
// them, sends them over SMTP with nodemailer and records the outcome. One per process, built in
// src/deps.ts; the `send-outbox` task of the schedule drains it. Without SMTP_URL it sends nothing
// and messages stay queued.

import type { Transporter } from "nodemailer";
import { eq } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { paidOrders } from "../db/schema/index.ts";
import { siteHost, SITE_NAME } from "../links.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { cancelClaimed, claimNextMessage, INTERRUPTED_ERROR, markRefused, markSent, postponeMessage, releaseInterrupted, type OutboxMessage } from "./outbox.ts";
import { isMessageKind, renderMessage, type RenderedMessage } from "./templates.ts";
import { withPrivateLinks } from "./secret-links.ts";

/** What one drain did. */
export interface DrainOutcome {
  sent: number;
  retried: number;
  failed: number;
  cancelled: number;
  postponed: number;
  interrupted: number;
  /** False when SMTP_URL is unset: nothing was attempted. */
  enabled: boolean;
}

export interface OutboxWorker {
  readonly enabled: boolean;
  /** Sends every due message (at most `limit`), one at a time. Concurrent calls share one run. */
  drain(limit?: number): Promise<DrainOutcome>;
  close(): Promise<void>;
}

export interface OutboxWorkerDeps {
  db: Db;
  log: Logger;
  now: () => Date;
  config: Pick<Config, "smtpUrl" | "siteUrl" | "basePath" | "mailReplyTo" | "partnerEmail" | "authSecret">;
  /** True on the embedded database: one process, so a `sending` row this worker is not sending was interrupted. */
  singleProcess: boolean;
}

/** The stable Message-ID of an outbox message: every attempt and every resend carries the same one. */
export function messageIdOf(message: Pick<OutboxMessage, "id">, config: Pick<Config, "siteUrl">): string {
  return `<${message.id}@${siteHost(config).replace(/:\d+$/, "")}>`;
}

/** The sender: no-reply at the site's host; replies go to MAIL_REPLY_TO, else the partnership address (see `mailOf`). */
export function senderOf(config: Pick<Config, "siteUrl">): string {
  return `"${SITE_NAME}" <no-reply@${siteHost(config).replace(/:\d+$/, "")}>`;
}

// Errors raised before the server could have taken the message: connecting, TLS, login, envelope.
const BEFORE_DATA_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EDNS", "ETLS", "EAUTH", "EENVELOPE"]);

/**
 * How a failed send ended. A server reply code means the server refused (5xx: for good, 4xx: try
 * again); a failure to connect is also safe to retry. Anything else (the connection dropped or
 * timed out mid-conversation) may have happened after the server took the message: uncertain.
 */
export function classifySendError(error: unknown): { kind: "refused"; permanent: boolean; text: string } | { kind: "uncertain"; text: string } {
  const e = (error ?? {}) as { code?: string; responseCode?: number; command?: string; message?: string; errno?: string };
  if (typeof e.responseCode === "number" && e.responseCode >= 400) {
    return { kind: "refused", permanent: e.responseCode >= 500, text: `SMTP ${e.responseCode}${e.command ? ` after ${e.command}` : ""}` };
  }
  const message = String(e.message ?? "");
  const code = [e.code, e.errno, ...(message.match(/\bE[A-Z_]{3,}\b/g) ?? [])].find((c) => c && BEFORE_DATA_CODES.has(c));
  if (code || e.command === "GREETING") return { kind: "refused", permanent: false, text: `Could not reach the SMTP server (${code ?? e.code ?? "connection"})` };
  return { kind: "uncertain", text: INTERRUPTED_ERROR };
}

type Prepared = { kind: "send"; rendered: RenderedMessage } | { kind: "cancel"; reason: string } | { kind: "postpone"; until: Date };

/** Placement messages are checked when due: the order must still be activated and the moment reached. */
async function prepare(deps: Pick<OutboxWorkerDeps, "db" | "config">, message: OutboxMessage, now: Date): Promise<Prepared> {
  const { db } = deps;
  if (!isMessageKind(message.kind)) return { kind: "cancel", reason: `Unknown message kind ${message.kind}` };
  const params = { ...message.params };
  if (message.kind === "placement_started" || message.kind === "placement_ended") {
    const orderId = typeof params.orderId === "string" ? params.orderId : "";
    const [order] = orderId ? await db.select().from(paidOrders).where(eq(paidOrders.id, orderId)).limit(1) : [];
    if (!order || order.status !== "activated" || !order.fulfilledStartAt || !order.fulfilledEndAt) return { kind: "cancel", reason: "The placement is no longer active" };
    const due = message.kind === "placement_started" ? order.fulfilledStartAt : order.fulfilledEndAt;
    if (due.getTime() > now.getTime() + 1000) return { kind: "postpone", until: due };
    params.endAt = order.fulfilledEndAt.toISOString();
  }
  // The private link is written out now, for the email only (never stored: secret-links.ts).
  return { kind: "send", rendered: renderMessage(message.kind, message.language, withPrivateLinks(deps.config, message.kind, message.language, params, "send")) };
}

/** The worker's dependencies, transport and run state, shared by the steps below. */
interface Worker {
  deps: OutboxWorkerDeps;
  /** True when SMTP_URL is set. */
  enabled: boolean;
  /** The SMTP transport, made by the first drain that sends (see `transportOf`). */
  transport: Promise<Transporter> | undefined;
  /** Ids of the messages being sent by this worker (never released as interrupted). */
  inFlight: Set<string>;
  running: Promise<DrainOutcome> | undefined;
  closed: boolean;
}

/** Builds the process's outbox worker; without SMTP_URL it is disabled and sends nothing. */
export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const worker: Worker = { deps, enabled: Boolean(deps.config.smtpUrl), transport: undefined, inFlight: new Set(), running: undefined, closed: false };
  return {
    enabled: worker.enabled,
    drain(limit = 100) {
      return (worker.running ??= run(worker, limit).finally(() => {
        worker.running = undefined;
      }));
    },
    async close() {
      worker.closed = true;
      await worker.running?.catch(() => undefined);
      (await worker.transport?.catch(() => undefined))?.close();
    },
  };
}

/**
 * The SMTP transport of SMTP_URL, made once. nodemailer loads here, not with the server: a start
 * has no mail to send, and its 40 modules were a tenth of the time the server's modules take to load.
 */
function transportOf(worker: Worker, smtpUrl: string): Promise<Transporter> {
  // Short timeouts, all within the claim's lease (LEASE_SECONDS).
  worker.transport ??= import("nodemailer").then(({ default: nodemailer }) =>
    nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }),
  );
  return worker.transport;
}

/** One drain: releases interrupted messages, then claims and sends due ones one at a time (at most `limit`). */
async function run(worker: Worker, limit: number): Promise<DrainOutcome> {
  const { deps, inFlight } = worker;
  const outcome: DrainOutcome = { sent: 0, retried: 0, failed: 0, cancelled: 0, postponed: 0, interrupted: 0, enabled: worker.enabled };
  if (!worker.enabled || worker.closed) return outcome;
  const transport = await transportOf(worker, deps.config.smtpUrl!);
  outcome.interrupted += await releaseInterrupted(deps.db, deps.now(), { singleProcess: deps.singleProcess, inFlight });
  for (let i = 0; i < limit && !worker.closed; i++) {
    const message = await claimNextMessage(deps.db, deps.now());
    if (!message) break;
    inFlight.add(message.id);
    try {
      await sendOne(worker, transport, message, outcome);
    } catch (error) {
      // The database failed around the send: the lease runs out and the message counts as interrupted.
      deps.log.error("mail", "Outbox bookkeeping failed", { id: message.id, error: dbErrorSummary(error) });
      break;
    } finally {
      inFlight.delete(message.id);
    }
  }
  if (outcome.sent + outcome.retried + outcome.failed + outcome.cancelled + outcome.interrupted > 0) deps.log.info("mail", "Outbox drained", { ...outcome });
  return outcome;
}

/** Sends one claimed message, or cancels or postpones it as `prepare` says, and records the outcome. */
async function sendOne(worker: Worker, transport: Transporter, message: OutboxMessage, outcome: DrainOutcome): Promise<void> {
  const { deps } = worker;
  const prepared = await prepare(deps, message, deps.now());
  if (prepared.kind === "cancel") {
    await cancelClaimed(deps.db, message, prepared.reason, deps.now());
    outcome.cancelled++;
    return;
  }
  if (prepared.kind === "postpone") {
    await postponeMessage(deps.db, message, prepared.until, deps.now());
    outcome.postponed++;
    return;
  }
  try {
    await transport.sendMail(mailOf(message, prepared.rendered, deps.config));
  } catch (error) {
    await recordSendFailure(deps, message, error, outcome);
    return;
  }
  await markSent(deps.db, message, deps.now());
  outcome.sent++;
}

/**
 * The mail of a message: its stable Message-ID, the site sender, and a Reply-To that reaches the
 * team (MAIL_REPLY_TO, else the partnership address), since every message says "just reply".
 */
export function mailOf(message: OutboxMessage, rendered: RenderedMessage, config: Pick<Config, "siteUrl" | "mailReplyTo" | "partnerEmail">) {
  return {
    messageId: messageIdOf(message, config),
    from: senderOf(config),
    replyTo: config.mailReplyTo ?? config.partnerEmail,
    to: message.recipient,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    headers: { "Content-Language": message.language, "X-Finder-Message": message.kind, "Auto-Submitted": "auto-generated" },
  };
}

/** Records a failed send: refused (retried or failed for good, logged) or uncertain (never retried). */
async function recordSendFailure(deps: OutboxWorkerDeps, message: OutboxMessage, error: unknown, outcome: DrainOutcome): Promise<void> {
  const verdict = classifySendError(error);
  if (verdict.kind === "uncertain") {
    // Not retried: the server may hold it already (docs/email.md, "No duplicates").
    await markRefused(deps.db, message, verdict.text, true, deps.now());
    outcome.interrupted++;
    return;
  }
  const next = await markRefused(deps.db, message, verdict.text, verdict.permanent, deps.now());
  if (next === "retry") outcome.retried++;
  else outcome.failed++;
  deps.log.warn("mail", next === "retry" ? "Message refused, will retry" : "Message failed", { id: message.id, kind: message.kind, attempt: message.attempts, error: verdict.text });
}

/** A message as the console and the JSON API show it (a private link as a placeholder); `full` adds both parts. */
export function outboxMessageJson(config: Pick<Config, "siteUrl" | "basePath" | "authSecret">, message: OutboxMessage, full = false) {
  const rendered = isMessageKind(message.kind) ? renderMessage(message.kind, message.language, withPrivateLinks(config, message.kind, message.language, message.params, "hidden")) : { subject: "", text: "", html: "" };
  return {
    id: message.id,
    kind: message.kind,
    language: message.language,
    recipient: message.recipient,
    status: message.status,
    attempts: message.attempts,
    lastError: message.lastError,
    createdAt: message.createdAt.toISOString(),
    nextAttemptAt: message.nextAttemptAt.toISOString(),
    sentAt: message.sentAt?.toISOString() ?? null,
    messageId: messageIdOf(message, config),
    from: senderOf(config),
    subject: rendered.subject,
    ...(full ? { text: rendered.text, html: rendered.html } : {}),
  };
}
