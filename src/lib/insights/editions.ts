// Insights per edition (see docs/insights.md, "Editions"): the one definition of an edition's
// insights window (its lead-up and its days), the `edition` parameter, and the comparison of an
// edition with the one before at the same distance from the night.

import { addDays, daysBetween } from "../sheet/dates.ts";
import { parisClock, parisDate, parisInstant } from "../paris-time.ts";
import { refused, type Refused } from "../outcome.ts";
import { EDITION_YEARS, currentEdition, editionOf, type Edition, type EditionWindows } from "../events/editions.ts";
import { nextDate, parisDayStart, type InsightsWindow } from "./window.ts";

/** How many days before an edition's first day its insights window starts (the lead-up: programme published, visitors planning). */
export const EDITION_LEAD_DAYS = 60;

/** The first Paris day of an edition's insights window: EDITION_LEAD_DAYS before its first day. */
export function editionLeadFrom(edition: Edition): string {
  return addDays(edition.from, -EDITION_LEAD_DAYS);
}

/** The Paris days an edition's insights cover: from its lead-up's first day through its last day. */
export interface EditionSpan {
  year: number;
  /** First day of the lead-up (EDITION_LEAD_DAYS before `from`). */
  leadFrom: string;
  from: string;
  to: string;
  night: string;
}

export function editionSpan(edition: Edition): EditionSpan {
  return { year: edition.year, leadFrom: editionLeadFrom(edition), from: edition.from, to: edition.to, night: edition.night };
}

/** Builds the window [start, end) whose daily series runs from the day of `start` through `lastDay`, the end clamped to [start, …]. */
function spanWindow(start: Date, end: Date, lastDay: string): InsightsWindow {
  const clamped = end.getTime() < start.getTime() ? start : end;
  const first = parisDate(start);
  const last = lastDay < first ? first : lastDay;
  return { windowDays: (daysBetween(first, last) ?? 0) + 1, start, end: clamped, lastDay: last };
}

/**
 * The insights window of an edition: from the Paris midnight that starts its lead-up to the Paris
 * midnight after its last day, cut at `now` while the edition is under way or to come (a window
 * that has not started yet is empty). Its daily series runs from the lead-up's first day through
 * the last day of the edition, or through today when cut at `now`.
 */
export function editionWindow(edition: Edition, now: Date): InsightsWindow {
  const start = parisDayStart(editionLeadFrom(edition));
  const end = parisDayStart(nextDate(edition.to));
  if (now.getTime() >= end.getTime()) return spanWindow(start, end, edition.to);
  return spanWindow(start, now, parisDate(now));
}

/** The result of reading an `edition` parameter: absent, a year, or why it is unusable. */
export type EditionParse = { ok: true; edition: number | undefined } | Refused<"invalid">;

export const EDITION_PARAMETER_MESSAGE = `edition must be a year of 4 digits from ${EDITION_YEARS.min} to ${EDITION_YEARS.max}`;

/** Reads `edition`: absent or blank → none; 4 digits from 2000 to 2100 → that year; anything else is refused. */
export function parseEditionYear(raw: unknown): EditionParse {
  if (raw === undefined || raw === null) return { ok: true, edition: undefined };
  if (typeof raw !== "string" && typeof raw !== "number") return refused("invalid", EDITION_PARAMETER_MESSAGE);
  const text = String(raw).trim();
  if (text === "") return { ok: true, edition: undefined };
  if (!/^\d{4}$/.test(text)) return refused("invalid", EDITION_PARAMETER_MESSAGE);
  const year = Number(text);
  if (year < EDITION_YEARS.min || year > EDITION_YEARS.max) return refused("invalid", EDITION_PARAMETER_MESSAGE);
  return { ok: true, edition: year };
}

/** How the two sides of a comparison were cut. */
export type ComparisonBasis = "sameDistance" | "wholeWindow";

/** The two ranges a comparison reads, and why. */
export interface ComparisonRanges {
  basis: ComparisonBasis;
  /** Paris days from today to the edition's night (0 on the night, negative after it). */
  daysBeforeNight: number;
  current: { edition: EditionSpan; window: InsightsWindow };
  previous: { edition: EditionSpan; window: InsightsWindow };
}

/**
 * "This edition against the last at the same distance from the night". With d the Paris days from
 * today to the edition's night: until the night (d ≥ 0) the edition's lead-up up to now, against the
 * previous edition's lead-up up to the same Paris time d days before its own night; after the night
 * (d < 0), both whole windows (the edition's cut at now until its last day is over).
 */
export function comparisonRanges(edition: Edition, windows: EditionWindows, now: Date): ComparisonRanges {
  const previous = editionOf(edition.year - 1, windows);
  const d = daysBetween(parisDate(now), edition.night) ?? 0;
  const current = editionWindow(edition, now);
  if (d < 0) {
    return { basis: "wholeWindow", daysBeforeNight: d, current: { edition: editionSpan(edition), window: current }, previous: { edition: editionSpan(previous), window: editionWindow(previous, now) } };
  }
  const previousDay = addDays(previous.night, -d);
  // The same Paris wall-clock time to the millisecond (Paris offsets are whole minutes).
  const previousEnd = new Date(parisInstant(previousDay, parisClock(now)).getTime() + (now.getTime() % 60_000));
  const previousWindow = spanWindow(parisDayStart(editionLeadFrom(previous)), previousEnd, previousDay);
  return { basis: "sameDistance", daysBeforeNight: d, current: { edition: editionSpan(edition), window: current }, previous: { edition: editionSpan(previous), window: previousWindow } };
}

/** The editions the page's picker offers: the current edition and the three before it, newest first. */
export function pickerEditions(now: Date, windows: EditionWindows): number[] {
  const current = currentEdition(now, windows).year;
  return [current, current - 1, current - 2, current - 3].filter((year) => year >= EDITION_YEARS.min);
}
