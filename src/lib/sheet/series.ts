// Multi-day rows (§2.12): Date To expansion, series keys and the occurrence fields.

import { addDays, daysBetween } from "./dates.ts";
import { shortSha256 } from "./keys.ts";
import { fold } from "./text.ts";

const SERIES_KEY = /^ser_[a-z0-9]{12,20}$/;
/** A row expands to at most this many days after its start (both ends included: 32 days at most). */
export const MAX_SERIES_SPAN_DAYS = 31;

/** A Series Key cell lower-cased and trimmed when valid (`ser_` + 12–20 lowercase letters or digits), else null. */
export function normaliseSeriesKey(raw: string | null | undefined): string | null {
  const key = (raw ?? "").trim().toLowerCase();
  return SERIES_KEY.test(key) ? key : null;
}

/** The raw cells a generated series key is derived from. */
export interface SeriesCells {
  title: string;
  startTime: string;
  location: string;
  area: string;
  primaryUrl: string;
}

/** `ser_` + first 16 hex of SHA-256 over "series" and the folded title, start time, location, area and URL, joined with `|`. */
export function generateSeriesKey(cells: SeriesCells): string {
  const parts = ["series", cells.title, cells.startTime, cells.location, cells.area, cells.primaryUrl].map((part, i) =>
    i === 0 ? part : fold(part),
  );
  return `ser_${shortSha256(parts.join("|"))}`;
}

/** Why a Date To did not expand the row. */
export type DateToProblem = "same_day" | "before_start" | "too_long";

/** The calendar days a row covers: one day, or each day from start to end when end is 1–31 days later. */
export function expandDateRange(startIso: string, endIso: string): { dates: string[]; problem?: DateToProblem } {
  const span = daysBetween(startIso, endIso);
  if (span === null) return { dates: [startIso] };
  if (span === 0) return { dates: [startIso], problem: "same_day" };
  if (span < 0) return { dates: [startIso], problem: "before_start" };
  if (span > MAX_SERIES_SPAN_DAYS) return { dates: [startIso], problem: "too_long" };
  const dates: string[] = [];
  for (let day = 0; day <= span; day++) dates.push(addDays(startIso, day));
  return { dates };
}
