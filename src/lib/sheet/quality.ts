// Quality checks, the verified flag, source validity (80 % rule) and the schema report (see
// docs/sheet.md: "Verified", "Quality checks", "Schema report", "Source validity").

import { isValidIsoDate } from "./dates.ts";
import { isUnknownLocation } from "./location.ts";
import { isPriceUnknown } from "./price.ts";
import { fold } from "./text.ts";
import { isValidTime } from "./times.ts";
import type { Arrondissement, BlockingIssue, LiveEvent, SheetWarning } from "./types.ts";

const PLACEHOLDER_NAME = /^(?:tba|tbc|(?:new )?event(?: ?\d+)?)$/;
/** Share of events that must carry a key, a name and a valid date for a source to count. */
export const SOURCE_VALIDITY_THRESHOLD = 0.8;

/** The four quality checks, by name. */
export type QualityCheck = "missingLocation" | "missingStartTime" | "placeholderName" | "missingNotes";

/** The checks in report order. */
export const QUALITY_CHECKS: readonly QualityCheck[] = ["missingLocation", "missingStartTime", "placeholderName", "missingNotes"];

/** What one read's quality checks found: the average score and how many events fail each check. */
export interface QualityReport {
  eventCount: number;
  /** Mean of per-event scores, one decimal; 0 for an empty list. */
  averageScore: number;
  counts: Record<QualityCheck, number>;
}

/** True for an empty, TBA, TBC or "Event"/"New Event" (+ optional number) name. */
export function isPlaceholderName(name: string | null | undefined): boolean {
  const text = fold(name);
  return text === "" || PLACEHOLDER_NAME.test(text);
}

/** The quality checks an event fails. */
export function failedQualityChecks(event: Pick<LiveEvent, "location" | "time" | "eventName" | "description">): QualityCheck[] {
  const failed: QualityCheck[] = [];
  if (isUnknownLocation(event.location)) failed.push("missingLocation");
  if (!isValidTime(event.time)) failed.push("missingStartTime");
  if (isPlaceholderName(event.eventName)) failed.push("placeholderName");
  if ((event.description ?? "").trim() === "") failed.push("missingNotes");
  return failed;
}

/** Score of one event: round((1 − failing checks ÷ 4) × 100). */
export function qualityScore(event: Pick<LiveEvent, "location" | "time" | "eventName" | "description">): number {
  return Math.round((1 - failedQualityChecks(event).length / QUALITY_CHECKS.length) * 100);
}

/** Runs the quality checks over the assembled list (log-only; nothing is dropped). */
export function runQualityChecks(events: readonly LiveEvent[]): QualityReport {
  const counts: Record<QualityCheck, number> = { missingLocation: 0, missingStartTime: 0, placeholderName: 0, missingNotes: 0 };
  let scoreTotal = 0;
  for (const event of events) {
    const failed = failedQualityChecks(event);
    for (const check of failed) counts[check]++;
    scoreTotal += Math.round((1 - failed.length / QUALITY_CHECKS.length) * 100);
  }
  const averageScore = events.length === 0 ? 0 : Math.round((scoreTotal / events.length) * 10) / 10;
  return { eventCount: events.length, averageScore, counts };
}

/** The verified flag: known venue, arrondissement 1–20, valid date, and two of {start time, link, price}. */
export function isVerifiedEvent(event: {
  location?: string;
  arrondissement: Arrondissement;
  date: string;
  time?: string;
  link: string | null;
  price: string;
}): boolean {
  if (isUnknownLocation(event.location) || event.arrondissement === "unknown" || !isValidIsoDate(event.date)) return false;
  const details = [isValidTime(event.time), event.link !== null, !isPriceUnknown(event.price)].filter(Boolean).length;
  return details >= 2;
}

/** The 80 % rule in detail: how many events are usable and whether the source passes. */
export interface SourceValidity {
  valid: boolean;
  total: number;
  usable: number;
  reason?: string;
}

/** Checks a source's events against the 80 % rule: a non-empty eventKey, eventName and valid ISO date. */
export function checkSourceValidity(events: readonly Pick<LiveEvent, "eventKey" | "eventName" | "date">[]): SourceValidity {
  const total = events.length;
  if (total === 0) return { valid: false, total, usable: 0, reason: "Source yielded no events" };
  const usable = events.filter(
    (event) => (event.eventKey ?? "").trim() !== "" && (event.eventName ?? "").trim() !== "" && isValidIsoDate(event.date),
  ).length;
  if (usable / total >= SOURCE_VALIDITY_THRESHOLD) return { valid: true, total, usable };
  return { valid: false, total, usable, reason: `Only ${usable} of ${total} events have a key, a name and a valid date` };
}

/** True when a source's events pass the 80 % rule. */
export function isValidSource(events: readonly Pick<LiveEvent, "eventKey" | "eventName" | "date">[]): boolean {
  return checkSourceValidity(events).valid;
}

/**
 * The 80 % rule as a blocking issue of the schema report: a sheet the live reader would refuse as
 * a source is refused before it is published, instead of publishing it and leaving visitors on the
 * last good list. A sheet without events is left to the "no_rows" check.
 */
export function tooFewUsableIssue(events: readonly Pick<LiveEvent, "eventKey" | "eventName" | "date">[]): BlockingIssue[] {
  if (events.length === 0) return [];
  const validity = checkSourceValidity(events);
  if (validity.valid) return [];
  return [{ type: "too_few_usable", message: `${validity.reason}: at least ${Math.round(SOURCE_VALIDITY_THRESHOLD * 100)} % need them for the site to use the sheet`, rows: [] }];
}

/** The schema report shown before every admin save, upload and import: only blocking issues stop a write. */
export interface SchemaReport {
  ok: boolean;
  blocking: BlockingIssue[];
  warnings: SheetWarning[];
  blockingCount: number;
  warningCount: number;
}

/** Builds a schema report from blocking issues and row warnings. */
export function buildSchemaReport(blocking: readonly BlockingIssue[], warnings: readonly SheetWarning[]): SchemaReport {
  return {
    ok: blocking.length === 0,
    blocking: [...blocking],
    warnings: [...warnings],
    blockingCount: blocking.length,
    warningCount: warnings.length,
  };
}
