// Sheet dates (see docs/sheet.md, "Dates"): the accepted spellings, ambiguity, the inferred year,
// weekdays and date labels.

import { parisYear } from "../paris-time.ts";
import { fold } from "./text.ts";
import type { Weekday } from "./types.ts";
import { formatDay, formatDayRange } from "../i18n/index.ts";

/** Why a non-empty date cell gave no date. */
export type DateProblem = "ambiguous" | "invalid" | "unparseable";

/** A day/month pair read from a cell. */
export interface DayMonth {
  day: number;
  month: number;
}

/** What a date cell says before the sheet's inferred year is known. */
export type DateCellReading =
  | { kind: "empty" }
  | { kind: "error"; problem: "invalid" | "unparseable" }
  /** One reading, or two for a slash numeric that could be day-first or month-first. */
  | { kind: "parts"; year: number | null; readings: DayMonth[] };

/** A date cell resolved against the sheet's inferred year. */
export type ResolvedDate =
  | { ok: true; iso: string; inferredYear: boolean }
  | { ok: false; problem: DateProblem | "empty" };

const WEEKDAYS: readonly Weekday[] = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

const MONTH_BY_NAME: ReadonlyMap<string, number> = new Map(
  (
    [
      [1, "january jan janvier janv"],
      [2, "february feb fevrier fevr fev"],
      [3, "march mar mars"],
      [4, "april apr avril avr"],
      [5, "may mai"],
      [6, "june jun juin"],
      [7, "july jul juillet juil"],
      [8, "august aug aout"],
      [9, "september sep sept septembre"],
      [10, "october oct octobre"],
      [11, "november nov novembre"],
      [12, "december dec decembre"],
    ] as const
  ).flatMap(([month, names]) => names.split(" ").map((name) => [name, month] as const)),
);

const ORDINAL_SUFFIX = /(\d)(?:st|nd|rd|th|er|re|eme|e)\b/g;
const COMMAS = /,/g;
const SPACES = /\s+/g;
const LEADING_WEEKDAY =
  /^(?:monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu|friday|fri|saturday|sat|sunday|sun|lundi|lun|mardi|mar|mercredi|mer|jeudi|jeu|vendredi|ven|samedi|sam|dimanche|dim)\.?\s+/;
const YEAR_FIRST = /^(\d{4})([-/])(\d{1,2})\2(\d{1,2})$/;
const DAY_MONTH_NAME = /^(\d{1,2}) ([a-z]+)\.?(?: (\d+))?$/;
const MONTH_NAME_DAY = /^([a-z]+)\.? (\d{1,2})(?: (\d+))?$/;
const NUMERIC = /^(\d{1,2})([/.-])(\d{1,2})(?:\2(\d+))?$/;
const FOUR_DIGITS = /^\d{4}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when year-month-day is a real calendar date with a year in 1900–2099. */
export function isValidCalendarDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < 1900 || year > 2099) return false;
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  if (!Number.isInteger(day) || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True for a `YYYY-MM-DD` string naming a real calendar date. */
export function isValidIsoDate(value: string | null | undefined): boolean {
  if (!value) return false;
  // Asked for every listed event several times per render; a sheet has a few dozen distinct dates.
  let valid = VALID_ISO_DATES.get(value);
  if (valid === undefined) {
    const match = ISO_DATE.exec(value);
    valid = match !== null && isValidCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
    if (VALID_ISO_DATES.size >= 10_000) VALID_ISO_DATES.clear();
    VALID_ISO_DATES.set(value, valid);
  }
  return valid;
}

const VALID_ISO_DATES = new Map<string, boolean>();

/** Formats a calendar date as `YYYY-MM-DD`. */
export function toIsoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

// Kept apart so a leading "mar" can be retried as March when it is not Tuesday ("Mar 21 2026").
function readPrepared(text: string): DateCellReading {
  let match = YEAR_FIRST.exec(text);
  if (match) return { kind: "parts", year: Number(match[1]), readings: [{ month: Number(match[3]), day: Number(match[4]) }] };

  match = DAY_MONTH_NAME.exec(text);
  if (match) return namedMonth(match[2], match[1], match[3]);
  match = MONTH_NAME_DAY.exec(text);
  if (match) return namedMonth(match[1], match[2], match[3]);

  match = NUMERIC.exec(text);
  if (match) {
    const year = readYear(match[4]);
    if (year === "invalid") return { kind: "error", problem: "invalid" };
    const first = Number(match[1]);
    const second = Number(match[3]);
    const dayFirst = { day: first, month: second };
    // Only slash numerics may be month-first; dash and dot numerics are always day-first.
    if (match[2] !== "/" || first === second) return { kind: "parts", year, readings: [dayFirst] };
    return { kind: "parts", year, readings: [dayFirst, { day: second, month: first }] };
  }
  return { kind: "error", problem: "unparseable" };
}

function namedMonth(name: string, dayText: string, yearText: string | undefined): DateCellReading {
  const month = MONTH_BY_NAME.get(name);
  if (month === undefined) return { kind: "error", problem: "unparseable" };
  const year = readYear(yearText);
  if (year === "invalid") return { kind: "error", problem: "invalid" };
  return { kind: "parts", year, readings: [{ day: Number(dayText), month }] };
}

function readYear(text: string | undefined): number | null | "invalid" {
  if (text === undefined) return null;
  if (!FOUR_DIGITS.test(text)) return "invalid";
  const year = Number(text);
  return year >= 1900 && year <= 2099 ? year : "invalid";
}

/** Reads a date cell (preparation and accepted forms) without resolving a missing year. */
export function readDateCell(cell: string | null | undefined): DateCellReading {
  const folded = fold(cell);
  if (folded === "") return { kind: "empty" };
  const prepared = folded.replace(ORDINAL_SUFFIX, "$1").replace(COMMAS, " ").replace(SPACES, " ").trim();
  const withoutWeekday = prepared.replace(LEADING_WEEKDAY, "");
  if (withoutWeekday !== prepared) {
    const reading = readPrepared(withoutWeekday);
    if (reading.kind !== "error" || reading.problem !== "unparseable") return reading;
  }
  return readPrepared(prepared);
}

/** Resolves a reading to an ISO date, using `inferredYear` when no year was written. */
export function resolveDate(reading: DateCellReading, inferredYear: number): ResolvedDate {
  if (reading.kind === "empty") return { ok: false, problem: "empty" };
  if (reading.kind === "error") return { ok: false, problem: reading.problem };
  const year = reading.year ?? inferredYear;
  const valid = reading.readings.filter((r) => isValidCalendarDate(year, r.month, r.day));
  if (valid.length === 0) return { ok: false, problem: "invalid" };
  if (valid.length > 1) return { ok: false, problem: "ambiguous" };
  return { ok: true, iso: toIsoDate(year, valid[0].month, valid[0].day), inferredYear: reading.year === null };
}

/** Parses one date cell on its own; a missing year comes from the current Paris year at `now`. */
export function parseDateCell(cell: string | null | undefined, now: Date = new Date()): ResolvedDate {
  return resolveDate(readDateCell(cell), parisYear(now));
}

/**
 * The year for dates written without one: the most common explicit year of the sheet, ties to the
 * year closest to the current Paris year then the later one; the current Paris year when none is written.
 */
export function inferSheetYear(explicitYears: readonly number[], currentYear: number): number {
  const counts = new Map<number, number>();
  for (const year of explicitYears) counts.set(year, (counts.get(year) ?? 0) + 1);
  let best: number | null = null;
  let bestCount = 0;
  for (const [year, count] of counts) {
    if (best === null || count > bestCount || (count === bestCount && closerOrLater(year, best, currentYear))) {
      best = year;
      bestCount = count;
    }
  }
  return best ?? currentYear;
}

function closerOrLater(candidate: number, current: number, target: number): boolean {
  const a = Math.abs(candidate - target);
  const b = Math.abs(current - target);
  return a < b || (a === b && candidate > current);
}

function isoParts(iso: string): [number, number, number] | null {
  const match = ISO_DATE.exec(iso);
  if (!match) return null;
  const parts: [number, number, number] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isValidCalendarDate(...parts) ? parts : null;
}

function utcOf(iso: string): number | null {
  const parts = isoParts(iso);
  return parts ? Date.UTC(parts[0], parts[1] - 1, parts[2]) : null;
}

/** The weekday of a calendar date (no time-zone conversion), or `tbc` when the date is not valid. */
export function weekdayOf(iso: string): Weekday | "tbc" {
  const time = utcOf(iso);
  return time === null ? "tbc" : WEEKDAYS[new Date(time).getUTCDay()];
}

/** The ISO date `days` calendar days after `iso`. */
export function addDays(iso: string, days: number): string {
  const time = utcOf(iso);
  if (time === null) return "";
  const date = new Date(time + days * 86_400_000);
  return toIsoDate(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier); null when either is invalid. */
export function daysBetween(from: string, to: string): number | null {
  const a = utcOf(from);
  const b = utcOf(to);
  return a === null || b === null ? null : Math.round((b - a) / 86_400_000);
}

/** Date label in the current language, by Intl: "dim. 21 juin" / "Sun 21 June"; "à confirmer" / "TBC" when not valid. */
export function formatDateLabel(iso: string): string {
  return formatDay(iso);
}

/** Range label for a series, by Intl: "19–21 juin" / "19–21 Jun", across months and years too; one day gives "21 June". */
export function formatDateRangeLabel(startIso: string, endIso: string): string {
  return formatDayRange(startIso, endIso);
}

