// Receiving a visitor's report on a published event (see docs/public-pages.md, "Report a problem"),
// in a fixed order of checks: idempotency key (a retry answers the first request's row) → per-IP
// limit → published event (404) → body (400 with issues) → per event and IP limit → spam signals →
// insert. The checks from the per-IP limit on are one transaction under the request's deadline
// (src/lib/db/write-deadline.ts), so a report rolled back takes its rate-limit hits back; the
// published event is read just before it (the read must not wait inside a transaction), its answer
// still given in the order above. The JSON API and the modal's form both go through submitReport.
// No email and no raw IP is stored: only the limiter's key hashes. A "cancelled" report that is not
// spam-flagged queues the team's alert (TEAM_EMAIL) in the same transaction, unless the event
// already has an open "cancelled" report (the team was told and has not handled it yet).

import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { EventReader } from "../events/pipeline.ts";
import { eventReports } from "../db/schema/index.ts";
import { limiterParts, RATE_LIMITS, type RateLimiter } from "../rate-limit/fixed-window.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { findEventByKey } from "../events/lookup.ts";
import { evaluateSpamSignals } from "../submissions/spam.ts";
import { isPlainObject } from "../http/responses.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import { enqueueMessage } from "../mail/outbox.ts";
import { teamAlertMessage } from "../mail/messages.ts";
import { DeadlinePassed, writeWithinDeadline, type WriteDeadline } from "../db/write-deadline.ts";
import { isIdempotencyConflict, readIdempotency, replayOf, type IdempotentRequest } from "../http/idempotency.ts";
import { invalid, type Invalid } from "../outcome.ts";

/** The message of a report refused field by field (the form shows the fields). */
const INVALID_REPORT = "Invalid report";

/** What a visitor can report, in the order the form offers them. */
export const REPORT_KINDS = ["cancelled", "wrong_place", "wrong_time", "other"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The longest optional text kept (characters, after trimming). */
export const REPORT_TEXT_MAX = 500;

/** Largest report body accepted, form or JSON. */
export const MAX_REPORT_BODY_BYTES = 8 * 1024;

/** Texts of the JSON answers (the form shows the catalogue's words). */
export const REPORT_MESSAGES = {
  thanks: "Thanks, the team will check this event.",
  notFound: "No published event has this key",
  invalid: "Invalid report",
  tooMany: "Too many reports. Please try again shortly.",
  unavailable: "Reports are unavailable right now",
  crossSite: "Cross-site request refused",
  tooLarge: "Report too large",
} as const;

export type ReportIssue = { field: "kind" | "text" | "body"; message: string };

/** A report as the visitor sent it, checked. */
export interface ReportInput {
  kind: ReportKind;
  text: string;
}

export function isReportKind(value: unknown): value is ReportKind {
  return typeof value === "string" && (REPORT_KINDS as readonly string[]).includes(value);
}

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Checks a body: `kind` one of REPORT_KINDS, `text` optional, at most REPORT_TEXT_MAX characters, no control characters. */
export function parseReport(body: unknown): { ok: true; input: ReportInput; honeypot: unknown; formStartedAt: unknown } | Invalid<ReportIssue> {
  if (!isPlainObject(body)) return invalid(INVALID_REPORT, [{ field: "body", message: "Send a JSON object or a form" }]);
  const issues: ReportIssue[] = [];
  if (!isReportKind(body.kind)) issues.push({ field: "kind", message: `kind must be one of ${REPORT_KINDS.join(", ")}` });
  const raw = body.text === undefined || body.text === null ? "" : body.text;
  let text = "";
  if (typeof raw !== "string") issues.push({ field: "text", message: "text must be text" });
  else {
    text = raw.replace(/\r\n?/g, "\n").trim();
    if (text.length > REPORT_TEXT_MAX) issues.push({ field: "text", message: `text is at most ${REPORT_TEXT_MAX} characters` });
    else if (CONTROL.test(text)) issues.push({ field: "text", message: "text holds control characters" });
  }
  if (issues.length) return invalid(INVALID_REPORT, issues);
  return { ok: true, input: { kind: body.kind as ReportKind, text }, honeypot: body.honeypot, formStartedAt: body.formStartedAt };
}

/** What became of one report; the API and the form map it to HTTP. */
export type ReportOutcome =
  /** `replayed`: a retry with the key of a report already received (nothing new was stored). */
  | { kind: "received"; id: string; spam: boolean; event: LiveEvent; replayed?: boolean }
  /** The Idempotency-Key is malformed (400), or was used with another body or event (409). */
  | { kind: "invalid_key" }
  | { kind: "key_reused" }
  | { kind: "not_found" }
  /** `event` when the limit was the per-event one (the event was found). */
  | { kind: "limited"; retryAfter: number; event?: LiveEvent }
  | { kind: "invalid"; issues: ReportIssue[]; event: LiveEvent }
  | { kind: "unavailable" };

export interface ReportDeps {
  /** TEAM_EMAIL (with the language its alerts are written in): a "cancelled" report alerts the team. */
  config: Pick<Config, "teamEmail" | "defaultLanguage">;
  db: Db;
  events: EventReader;
  limiter: RateLimiter;
  log: Logger;
  now: () => Date;
}

/** The published event a key names, or undefined (the live read serves only the published sheet). */
export async function findPublishedEvent(deps: Pick<ReportDeps, "events">, rawKey: string): Promise<LiveEvent | undefined> {
  const { events } = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
  return findEventByKey(events, rawKey);
}

/** How one request arrived: its Idempotency-Key header, and its deadline (the app's, when it set one). */
export interface ReportRequest {
  idempotencyKey?: string | null;
  deadline?: WriteDeadline;
}

/** The published event a key names, or the error that kept it from being read. */
type EventLookup = { event?: LiveEvent; error?: unknown };

/** The answer already given to the request with this key, if a row holds it (its event as published now, else as reported). */
async function priorReport(deps: ReportDeps, request: IdempotentRequest, lookup: EventLookup): Promise<ReportOutcome | undefined> {
  const [row] = await deps.db
    .select({ id: eventReports.id, spam: eventReports.spam, eventKey: eventReports.eventKey, requestDigest: eventReports.requestDigest })
    .from(eventReports)
    .where(eq(eventReports.idempotencyKey, request.key))
    .limit(1);
  if (!row) return undefined;
  if (replayOf(row, request) === "reused" || (lookup.event && lookup.event.eventKey !== row.eventKey)) return { kind: "key_reused" };
  if (!lookup.event) return { kind: "not_found" };
  return { kind: "received", id: row.id, spam: row.spam, event: lookup.event, replayed: true };
}

/** Runs one report on the event `rawKey` names. */
export async function submitReport(deps: ReportDeps, rawKey: string, body: unknown, ip: string, request: ReportRequest = {}): Promise<ReportOutcome> {
  const idempotency = readIdempotency(request.idempotencyKey, body, rawKey);
  if (!idempotency.ok) return { kind: "invalid_key" };
  const keyed = idempotency.request;
  const lookup: EventLookup = await findPublishedEvent(deps, rawKey).then(
    (event) => ({ event }),
    (error: unknown) => ({ error }),
  );
  try {
    const prior = keyed && (await priorReport(deps, keyed, lookup));
    if (prior) return prior;
    return await writeWithinDeadline(deps.db, request.deadline, (tx) => receive({ ...deps, db: tx }, lookup, body, ip, keyed), (outcome) => outcome.kind !== "unavailable");
  } catch (error) {
    // Two requests with one key at once: the one that lost answers the winner's row.
    if (keyed && isIdempotencyConflict(error)) return (await priorReport(deps, keyed, lookup).catch(() => undefined)) ?? { kind: "unavailable" };
    if (error instanceof DeadlinePassed) deps.log.warn("reports", "Report rolled back at the request deadline");
    else deps.log.error("reports", "Could not store a report", { error: dbErrorSummary(error) });
    return { kind: "unavailable" };
  }
}

/** The checks from the per-IP limit on and the insert, inside the report's transaction (`deps.db`). */
async function receive(deps: ReportDeps, lookup: EventLookup, body: unknown, ip: string, keyed: IdempotentRequest | undefined): Promise<ReportOutcome> {
  const counted = { failOpen: false, db: deps.db };
  // The limit comes first: a limited visitor learns nothing of the event.
  const ipPart = limiterParts.ip(ip);
  const perIp = await deps.limiter.check(RATE_LIMITS.eventReportIp, [ipPart], counted);
  if (perIp.status === "unavailable") return { kind: "unavailable" };
  if (perIp.status === "blocked") return { kind: "limited", retryAfter: perIp.retryAfter };

  if (lookup.error !== undefined) {
    deps.log.error("reports", "Events unreadable while receiving a report", undefined, lookup.error);
    return { kind: "unavailable" };
  }
  const event = lookup.event;
  if (!event) return { kind: "not_found" };

  const parsed = parseReport(body);
  if (!parsed.ok) return { kind: "invalid", issues: parsed.issues, event };

  const perEvent = await deps.limiter.check(RATE_LIMITS.eventReportEventIp, [event.eventKey, ipPart], counted);
  if (perEvent.status === "unavailable") return { kind: "unavailable" };
  if (perEvent.status === "blocked") return { kind: "limited", retryAfter: perEvent.retryAfter, event };

  const now = deps.now();
  const signals = evaluateSpamSignals(parsed.honeypot, parsed.formStartedAt, now);
  const spam = signals.reasons.length > 0;
  const [row] = await deps.db
    .insert(eventReports)
    .values({
      eventKey: event.eventKey,
      eventTitle: event.eventName.slice(0, 300),
      kind: parsed.input.kind,
      text: parsed.input.text,
      // Limiter key hashes only: no raw IP is stored.
      sourceIpHash: perIp.keyHash,
      eventIpHash: perEvent.keyHash,
      spam,
      spamSignals: { ...signals },
      createdAt: now,
      idempotencyKey: keyed?.key ?? null,
      requestDigest: keyed?.digest ?? null,
    })
    .returning({ id: eventReports.id });
  if (spam) deps.log.info("reports", "Report flagged by spam signals", { id: row.id, reasons: signals.reasons });
  else if (parsed.input.kind === "cancelled") await alertTeam(deps, event, row.id, now);
  return { kind: "received", id: row.id, spam, event };
}

/** The kind of report that says the event is not happening: it alerts the team. */
export const CANCELLATION_REPORT_KIND: ReportKind = "cancelled";

/**
 * Queues the team's alert for a "cancelled" report (in the report's transaction), once per event
 * until its reports are handled: none when another open, unflagged "cancelled" report of the event
 * exists. Nothing without TEAM_EMAIL.
 */
async function alertTeam(deps: ReportDeps, event: LiveEvent, reportId: string, now: Date): Promise<void> {
  const message = teamAlertMessage(deps.config, { source: "report", cause: `report:${reportId}`, eventKey: event.eventKey, eventName: event.eventName });
  if (!message) return;
  const [earlier] = await deps.db
    .select({ id: eventReports.id })
    .from(eventReports)
    .where(and(eq(eventReports.eventKey, event.eventKey), eq(eventReports.status, "open"), eq(eventReports.kind, CANCELLATION_REPORT_KIND), sql`not ${eventReports.spam}`, ne(eventReports.id, reportId)))
    .limit(1);
  if (earlier) return;
  await enqueueMessage(deps.db, message, now);
}
