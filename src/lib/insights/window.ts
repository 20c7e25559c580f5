// The dashboard window and Paris calendar days (see docs/insights.md, "Window"): windowDays is
// clamped to 1–365 (default 30), the window is [now − N days, now), and the daily series covers
// every Paris calendar day the window touches, the last one being today in Paris.

import { parisDate, parisInstant } from "../paris-time.ts";
import { refused, type Refused } from "../outcome.ts";

export const DEFAULT_WINDOW_DAYS = 30;
export const MIN_WINDOW_DAYS = 1;
export const MAX_WINDOW_DAYS = 365;
const DAY_MS = 86_400_000;

/** A resolved window: its length in days and the half-open range of instants. */
export interface InsightsWindow {
  windowDays: number;
  start: Date;
  end: Date;
  /**
   * The last Paris day of the daily series when it is not the date of `end`: an edition window
   * ends at the Paris midnight after its last day, which belongs to the next day (editions.ts).
   */
  lastDay?: string;
}

/** The result of reading a windowDays parameter: a clamped number, or why it is unusable. */
export type WindowDaysParse = { ok: true; windowDays: number } | Refused<"invalid">;

/**
 * Reads `windowDays` from a query value. Absent or blank → 30. A number (including `1e9`,
 * `-5`, `7.6`) is rounded and clamped to 1–365. Anything that is not a number is refused as invalid.
 */
export function parseWindowDays(raw: unknown): WindowDaysParse {
  if (raw === undefined || raw === null) return { ok: true, windowDays: DEFAULT_WINDOW_DAYS };
  if (typeof raw !== "string" && typeof raw !== "number") return refused("invalid", "windowDays must be a number of days");
  const text = String(raw).trim();
  if (text === "") return { ok: true, windowDays: DEFAULT_WINDOW_DAYS };
  if (text.length > 32) return refused("invalid", "windowDays must be a number of days");
  const value = Number(text);
  if (!Number.isFinite(value)) {
    // ±Infinity is a number too large or small; NaN is not a number at all.
    if (Number.isNaN(value)) return refused("invalid", "windowDays must be a number of days");
    return { ok: true, windowDays: value > 0 ? MAX_WINDOW_DAYS : MIN_WINDOW_DAYS };
  }
  return { ok: true, windowDays: clampWindowDays(value) };
}

/** Rounds and clamps a number of days to 1–365. */
export function clampWindowDays(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_WINDOW_DAYS;
  return Math.min(MAX_WINDOW_DAYS, Math.max(MIN_WINDOW_DAYS, Math.round(value)));
}

/** The window ending at `now`. */
export function windowEndingAt(now: Date, windowDays: number): InsightsWindow {
  const days = clampWindowDays(windowDays);
  return { windowDays: days, start: new Date(now.getTime() - days * DAY_MS), end: new Date(now.getTime()) };
}

/** The calendar date after an ISO date (YYYY-MM-DD), by calendar arithmetic (no time zone). */
export function nextDate(isoDate: string): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Every Paris calendar date the window touches, oldest first; the last is today in Paris (the date of `end`), or `lastDay` when set. */
export function parisDaysOf(window: InsightsWindow): string[] {
  const first = parisDate(window.start);
  const last = window.lastDay ?? parisDate(window.end);
  const days: string[] = [];
  for (let day = first; day <= last; day = nextDate(day)) days.push(day);
  return days;
}

/** The instant a Paris calendar day starts (23, 24 or 25 hours before the next one). */
export function parisDayStart(isoDate: string): Date {
  return parisInstant(isoDate, "00:00");
}

/** percent(n, d): 0 when d is 0, else 100·n/d rounded half-up to one decimal, capped at 100. */
export function percent(n: number, d: number): number {
  if (!(d > 0)) return 0;
  const value = Math.floor((1000 * n) / d + 0.5) / 10;
  return Math.min(100, value);
}
