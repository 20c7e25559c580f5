// Receiving a host submission (see docs/public-pages.md, "/submit-event"), in its fixed order of
// checks: idempotency key (a retry answers the first request's row) → switch → per-IP limit → body
// (fields, then the sanity checks of sanity.ts) → email+IP and fingerprint limits → spam signals →
// insert. Everything from the per-IP limit on is one transaction under the request's deadline
// (src/lib/db/write-deadline.ts): a submission rolled back takes its rate-limit hits back.
// The JSON API and the /submit-event form both go through submitEvent and show the same words.

import type { Db } from "../db/client.ts";
import type { Kv } from "../kv.ts";
import type { Logger } from "../logger.ts";
import { eventSubmissions } from "../db/schema/index.ts";
import { limiterParts, RATE_LIMITS, type RateLimiter } from "../rate-limit/fixed-window.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { readSubmissionSettings } from "./settings.ts";
import { evaluateSpamSignals } from "./spam.ts";
import { sanityIssues } from "./sanity.ts";
import { festivalWindow } from "../events/festival-window.ts";
import type { KeptEditions } from "../site/edition-settings.ts";
import { parseSubmission, submissionFingerprint, type SubmissionIssue } from "./validation.ts";
import type { Language } from "../i18n/index.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { submissionReceivedMessage } from "../mail/messages.ts";
import { eq } from "drizzle-orm";
import { DeadlinePassed, writeWithinDeadline, type WriteDeadline } from "../db/write-deadline.ts";
import { isIdempotencyConflict, readIdempotency, replayOf, type IdempotentRequest } from "../http/idempotency.ts";

/** Texts of the submission answers. */
export const SUBMISSION_MESSAGES = {
  unsupportedMediaType: "Unsupported media type",
  unavailable: "Submission service unavailable",
  closed: "Event submissions are temporarily closed.",
  tooMany: "Too many submissions. Please try again shortly.",
  invalidPayload: "Invalid request payload",
  invalid: "Invalid submission details",
  thanks: "Thanks, your event submission has been received for review.",
  tooLarge: "Submission too large",
  crossSite: "Cross-site request refused",
} as const;

/** Largest submission body accepted, form or JSON (a full submission is a few KiB). */
export const MAX_SUBMISSION_BODY_BYTES = 64 * 1024;

/** What became of one submission; the API and the page map it to HTTP. */
export type SubmitOutcome =
  /** `replayed`: a retry with the key of a submission already received (nothing new was stored). */
  | { kind: "received"; id: string; declinedAsSpam: boolean; replayed?: boolean }
  /** The Idempotency-Key is malformed (400), or was used with another body (409). */
  | { kind: "invalid_key" }
  | { kind: "key_reused" }
  | { kind: "closed" }
  | { kind: "unavailable" }
  /** `duplicate`: the same event (content fingerprint) was already received in the last 24 h. */
  | { kind: "limited"; retryAfter: number; duplicate?: boolean }
  | { kind: "invalid_payload" }
  | { kind: "invalid"; issues: SubmissionIssue[] };

/** True when the Content-Type names JSON (the API answers 415 otherwise). */
export function isJsonContentType(header: string | null): boolean {
  return (header ?? "").toLowerCase().includes("application/json");
}

/** What a submission needs. */
export interface SubmitDeps {
  db: Db;
  kv: Kv;
  limiter: RateLimiter;
  log: Logger;
  now: () => Date;
  /** The edition windows: a submission must fall in the current edition's. */
  editions: KeptEditions;
}

/** How one request arrived: its Idempotency-Key header, and its deadline (the app's, when it set one). */
export interface SubmitRequest {
  idempotencyKey?: string | null;
  deadline?: WriteDeadline;
}

/** The answer already given to the request with this key, if a row holds it. */
async function priorSubmission(db: Db, request: IdempotentRequest): Promise<SubmitOutcome | undefined> {
  const [row] = await db
    .select({ id: eventSubmissions.id, reviewReason: eventSubmissions.reviewReason, requestDigest: eventSubmissions.requestDigest })
    .from(eventSubmissions)
    .where(eq(eventSubmissions.idempotencyKey, request.key))
    .limit(1);
  if (!row) return undefined;
  return replayOf(row, request) === "replay" ? { kind: "received", id: row.id, declinedAsSpam: row.reviewReason === "spam_signal", replayed: true } : { kind: "key_reused" };
}

/**
 * Runs one submission; `language` is the language of the form (the host's emails use it). `body` is the parsed body, or undefined when it was not JSON (or not a
 * form): that answer comes only after the switch and the per-IP limit, as the order of checks requires.
 */
export async function submitEvent(deps: SubmitDeps, body: unknown, ip: string, language: Language = "fr", request: SubmitRequest = {}): Promise<SubmitOutcome> {
  const idempotency = readIdempotency(request.idempotencyKey, body);
  if (!idempotency.ok) return { kind: "invalid_key" };
  const keyed = idempotency.request;
  let enabled: boolean;
  try {
    const prior = keyed && (await priorSubmission(deps.db, keyed));
    if (prior) return prior;
    enabled = (await readSubmissionSettings(deps.kv)).enabled;
  } catch (error) {
    deps.log.error("submissions", "Submission settings unreadable", { error: dbErrorSummary(error) });
    return { kind: "unavailable" };
  }
  if (!enabled) return { kind: "closed" };
  try {
    return await writeWithinDeadline(deps.db, request.deadline, (tx) => receive({ ...deps, db: tx }, body, ip, language, keyed), (outcome) => outcome.kind !== "unavailable");
  } catch (error) {
    // Two requests with one key at once: the one that lost answers the winner's row.
    if (keyed && isIdempotencyConflict(error)) return (await priorSubmission(deps.db, keyed).catch(() => undefined)) ?? { kind: "unavailable" };
    // The summary only: the driver's wrapper repeats the statement's parameters (the host's email).
    if (error instanceof DeadlinePassed) deps.log.warn("submissions", "Submission rolled back at the request deadline");
    else deps.log.error("submissions", "Could not store a submission", { error: dbErrorSummary(error) });
    return { kind: "unavailable" };
  }
}

/** The checks from the per-IP limit on and the insert, inside the submission's transaction (`deps.db`). */
async function receive(deps: SubmitDeps, body: unknown, ip: string, language: Language, keyed: IdempotentRequest | undefined): Promise<SubmitOutcome> {
  const counted = { failOpen: false, db: deps.db };
  const ipPart = limiterParts.ip(ip);
  const perIp = await deps.limiter.check(RATE_LIMITS.eventSubmitIp, [ipPart], counted);
  if (perIp.status === "unavailable") return { kind: "unavailable" };
  if (perIp.status === "blocked") return { kind: "limited", retryAfter: perIp.retryAfter };

  if (body === undefined) return { kind: "invalid_payload" };
  const parsed = parseSubmission(body);
  if (!parsed.ok) return parsed.issues.length === 1 && parsed.issues[0].field === "body" ? { kind: "invalid_payload" } : { kind: "invalid", issues: parsed.issues };
  const { input } = parsed;
  const insane = sanityIssues(input, festivalWindow(deps.now(), deps.editions.windows));
  if (insane.length > 0) return { kind: "invalid", issues: insane };

  const perEmail = await deps.limiter.check(RATE_LIMITS.eventSubmitEmailIp, [limiterParts.email(input.hostEmail), ipPart], counted);
  if (perEmail.status === "unavailable") return { kind: "unavailable" };
  if (perEmail.status === "blocked") return { kind: "limited", retryAfter: perEmail.retryAfter };
  const perContent = await deps.limiter.check(RATE_LIMITS.eventSubmitFingerprint, [limiterParts.fingerprint(submissionFingerprint(input))], counted);
  if (perContent.status === "unavailable") return { kind: "unavailable" };
  if (perContent.status === "blocked") return { kind: "limited", retryAfter: perContent.retryAfter, duplicate: true };

  const now = deps.now();
  const signals = evaluateSpamSignals(parsed.honeypot, parsed.formStartedAt, now);
  const spam = signals.reasons.length > 0;
  const [row] = await deps.db
    .insert(eventSubmissions)
    .values({
      status: spam ? "declined" : "pending",
      payload: { ...input, submittedAt: now.toISOString() },
      hostEmail: input.hostEmail,
      language,
      // Limiter key hashes only: no raw IP is stored.
      sourceIpHash: perIp.keyHash,
      emailIpHash: perEmail.keyHash,
      fingerprintHash: perContent.keyHash,
      spamSignals: { ...signals },
      reviewReason: spam ? "spam_signal" : null,
      reviewedBy: spam ? "system" : null,
      reviewedAt: spam ? now : null,
      createdAt: now,
      updatedAt: now,
      idempotencyKey: keyed?.key ?? null,
      requestDigest: keyed?.digest ?? null,
    })
    .returning();
  // The host's "received" email is queued in the same transaction as the submission.
  if (!spam) await enqueueMessage(deps.db, submissionReceivedMessage(row), now);
  if (spam) deps.log.info("submissions", "Submission declined by spam signals", { id: row.id, reasons: signals.reasons });
  return { kind: "received", id: row.id, declinedAsSpam: spam };
}
