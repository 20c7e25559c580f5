// Editions of the festival (see docs/editions.md): the festival comes back every June, and each
// year is an edition with its own window (its first and last day, and the night itself, 21 June
// unless the team sets another). An event belongs to the edition of its date's year; the edition's
// state comes from the Paris clock. This file is the one home of "which edition, which window":
// submissions, the homepage, the archive, the countdown and the banner all ask it.

import { addDays, isValidIsoDate } from "../sheet/dates.ts";
import { parisDate } from "../paris-time.ts";
import type { LiveEvent } from "../sheet/types.ts";

/** One year of the festival: ISO dates of the Paris calendar. */
export interface Edition {
  year: number;
  /** First day hosts may date an event on (submissions, the calendar's window). */
  from: string;
  /** Last day of the window (the night of the 21st ends on the 22nd). */
  to: string;
  /** The night itself: what the countdown counts to and the banner names. */
  night: string;
}

/** Where an edition stands at an instant: before its window, inside it, or after it. */
export type EditionState = "upcoming" | "live" | "past";

/** A window the team set for one year; every other year takes the default. */
export type EditionWindow = Pick<Edition, "from" | "to" | "night">;

/** The windows set in the console, by year. */
export type EditionWindows = Readonly<Record<string, EditionWindow>>;

/** Earliest and latest years an edition may be set for (a typo of 20227 is refused, not stored). */
export const EDITION_YEARS = { min: 2000, max: 2100 } as const;

/** The default window: Fête de la Musique week, 15 to 22 June, the night on the 21st. */
export const DEFAULT_WINDOW = { from: "06-15", to: "06-22", night: "06-21" } as const;

/** The longest window the console accepts, in days (a festival week with room to spare). */
export const MAX_WINDOW_DAYS = 31;

/** The edition of `year`: the window the team set for it, else the default. */
export function editionOf(year: number, windows: EditionWindows = {}): Edition {
  const set = windows[String(year)];
  if (set) return { year, ...set };
  return { year, from: `${year}-${DEFAULT_WINDOW.from}`, to: `${year}-${DEFAULT_WINDOW.to}`, night: `${year}-${DEFAULT_WINDOW.night}` };
}

/** The year of the edition an event dated `iso` belongs to; null for an undated event. */
export function editionYearOfDate(iso: string): number | null {
  return isValidIsoDate(iso) ? Number(iso.slice(0, 4)) : null;
}

/** The edition's state on the Paris calendar at `now`. */
export function editionState(edition: Edition, now: Date): EditionState {
  const today = parisDate(now);
  if (today < edition.from) return "upcoming";
  return today > edition.to ? "past" : "live";
}

/** The edition the site leads with at `now`: this year's until its last day is over, then next year's. */
export function currentEdition(now: Date, windows: EditionWindows = {}): Edition {
  const year = Number(parisDate(now).slice(0, 4));
  const edition = editionOf(year, windows);
  return editionState(edition, now) === "past" ? editionOf(year + 1, windows) : edition;
}

/** The edition before the current one (the one the archive link points at). */
export function previousEdition(now: Date, windows: EditionWindows = {}): Edition {
  return editionOf(currentEdition(now, windows).year - 1, windows);
}

/** The days of an edition's window, in order. */
export function editionDays(edition: Edition): string[] {
  const days: string[] = [];
  for (let day = edition.from; day <= edition.to && days.length <= MAX_WINDOW_DAYS; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Why a window cannot be stored (the field at fault and the message), or null when it can: real dates of the year, in order, the night inside, at most 31 days. */
export function windowProblem(year: number, window: EditionWindow): { field: "year" | keyof EditionWindow; message: string } | null {
  if (!Number.isInteger(year) || year < EDITION_YEARS.min || year > EDITION_YEARS.max) return { field: "year", message: `The year must be between ${EDITION_YEARS.min} and ${EDITION_YEARS.max}` };
  for (const field of ["from", "to", "night"] as const) {
    if (!isValidIsoDate(window[field])) return { field, message: `The ${field} date must be a real date (YYYY-MM-DD)` };
    if (!window[field].startsWith(`${year}-`)) return { field, message: `The ${field} date must fall in ${year}` };
  }
  if (window.from > window.to) return { field: "from", message: "The first day must not come after the last" };
  if (window.night < window.from || window.night > window.to) return { field: "night", message: "The night must fall inside the window" };
  if (editionDays({ year, ...window }).length > MAX_WINDOW_DAYS) return { field: "from", message: `The window may last ${MAX_WINDOW_DAYS} days at most` };
  return null;
}

// The events of one edition, by list and year: a list is never changed once built, so its split by
// edition is worked out once. When every dated event falls in the year (the festival's own weeks),
// the answer is the list itself, so every memo kept by the list stays warm.
const BY_EDITION = new WeakMap<readonly Pick<LiveEvent, "date">[], Map<number, readonly Pick<LiveEvent, "date">[]>>();

/** The events of `events` that belong to the edition of `year`, in list order; undated events belong to every edition's list. */
export function eventsOfEdition<E extends Pick<LiveEvent, "date">>(events: readonly E[], year: number): readonly E[] {
  let perYear = BY_EDITION.get(events);
  if (!perYear) BY_EDITION.set(events, (perYear = new Map()));
  let kept = perYear.get(year);
  if (!kept) {
    const inYear = events.filter((event) => (editionYearOfDate(event.date) ?? year) === year);
    kept = inYear.length === events.length ? events : inYear;
    perYear.set(year, kept);
  }
  return kept as readonly E[];
}

/** How many events of `events` belong to the edition of `year` (undated ones not counted). */
export function countOfEdition(events: readonly Pick<LiveEvent, "date">[], year: number): number {
  return eventsOfEdition(events, year).filter((event) => editionYearOfDate(event.date) === year).length;
}
