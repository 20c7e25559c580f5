// Receiving a visitor's report on a published event (see docs/public-pages.md, "Report a problem"),
// in a fixed order of checks: per-IP limit → published event (404) → body (400 with issues) →
// per event and IP limit → spam signals → insert. The JSON API and the modal's form both go
// through submitReport. No email and no raw IP is stored: only the limiter's key hashes.

import type { Db } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { EventReader } from "../events/pipeline.ts";
import { eventReports } from "../db/schema/index.ts";
import { limiterParts, RATE_LIMITS, type RateLimiter } from "../rate-limit.ts";
import { dbErrorSummary } from "../db/errors.ts";
import { findEventByKey } from "../events/lookup.ts";
import { evaluateSpamSignals } from "../submissions/spam.ts";
import { isPlainObject } from "../http.ts";
import type { LiveEvent } from "../sheet/types.ts";

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
export function parseReport(body: unknown): { ok: true; input: ReportInput; honeypot: unknown; formStartedAt: unknown } | { ok: false; issues: ReportIssue[] } {
  if (!isPlainObject(body)) return { ok: false, issues: [{ field: "body", message: "Send a JSON object or a form" }] };
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
  if (issues.length) return { ok: false, issues };
  return { ok: true, input: { kind: body.kind as ReportKind, text }, honeypot: body.honeypot, formStartedAt: body.formStartedAt };
}

/** What became of one report; the API and the form map it to HTTP. */
export type ReportOutcome =
  | { kind: "received"; id: string; spam: boolean; event: LiveEvent }
  | { kind: "not_found" }
  /** `event` when the limit was the per-event one (the event was found). */
  | { kind: "limited"; retryAfter: number; event?: LiveEvent }
  | { kind: "invalid"; issues: ReportIssue[]; event: LiveEvent }
  | { kind: "unavailable" };

export interface ReportDeps {
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

/** Runs one report on the event `rawKey` names. */
export async function submitReport(deps: ReportDeps, rawKey: string, body: unknown, ip: string): Promise<ReportOutcome> {
  // The limit comes first: looking an event up reads the published sheet.
  const ipPart = limiterParts.ip(ip);
  const perIp = await deps.limiter.check(RATE_LIMITS.eventReportIp, [ipPart], { failOpen: false });
  if (perIp.status === "unavailable") return { kind: "unavailable" };
  if (perIp.status === "blocked") return { kind: "limited", retryAfter: perIp.retryAfter };

  let event: LiveEvent | undefined;
  try {
    event = await findPublishedEvent(deps, rawKey);
  } catch (error) {
    deps.log.error("reports", "Events unreadable while receiving a report", undefined, error);
    return { kind: "unavailable" };
  }
  if (!event) return { kind: "not_found" };

  const parsed = parseReport(body);
  if (!parsed.ok) return { kind: "invalid", issues: parsed.issues, event };

  const perEvent = await deps.limiter.check(RATE_LIMITS.eventReportEventIp, [event.eventKey, ipPart], { failOpen: false });
  if (perEvent.status === "unavailable") return { kind: "unavailable" };
  if (perEvent.status === "blocked") return { kind: "limited", retryAfter: perEvent.retryAfter, event };

  const now = deps.now();
  const signals = evaluateSpamSignals(parsed.honeypot, parsed.formStartedAt, now);
  const spam = signals.reasons.length > 0;
  try {
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
      })
      .returning({ id: eventReports.id });
    if (spam) deps.log.info("reports", "Report flagged by spam signals", { id: row.id, reasons: signals.reasons });
    return { kind: "received", id: row.id, spam, event };
  } catch (error) {
    deps.log.error("reports", "Could not store a report", { error: dbErrorSummary(error) });
    return { kind: "unavailable" };
  }
}
