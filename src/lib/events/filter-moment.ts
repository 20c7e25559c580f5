// Time-of-visit views of the list (see docs/filters-and-search.md, "Now, Tonight and Finished"):
// "Happening now" (running at this Paris minute), "Tonight" (running at any time from 18:00 to
// 06:00 of this festival night, by the event's whole span) and the "Finished" split. Pure
// functions of an event and one clock reading; the day/night filter and icon follow their own
// rule, `dayPeriodOf` in sheet/times.ts.

import { isValidIsoDate } from "../sheet/dates.ts";
import { parisDate, parisInstant } from "../paris-time.ts";
import { DEFAULT_EVENT_LENGTH_MINUTES, endsNextDay, isValidTime } from "../sheet/times.ts";
import type { LiveEvent } from "../sheet/types.ts";
import { t } from "../i18n/index.ts";
import { listedEventsSpan, NIGHT_END, NIGHT_START } from "./festival-window.ts";

/** The `when` parameter of the homepage: `now` or `tonight`. */
export type Moment = "now" | "tonight";
export const MOMENTS: readonly Moment[] = ["now", "tonight"];
export const MOMENT_PARAM = "when";

/** Chip label of a moment in the current language ("Happening now", "Tonight"). */
export function momentLabel(moment: Moment): string {
  return t(`moment.${moment}`);
}

/** Length given to an event without an end time (as in the calendar files). */
const DEFAULT_LENGTH_MS = DEFAULT_EVENT_LENGTH_MINUTES * 60_000;

/** The `when` value of a URL, or null when absent or unknown. */
export function momentOf(search: URLSearchParams): Moment | null {
  const value = search.get(MOMENT_PARAM);
  return value === "now" || value === "tonight" ? value : null;
}

/**
 * When an event runs, as instants: from its start to its end (the next day when the end is not
 * after the start; start + 3 h without an end). A date without a start time counts as 20:00–23:59.
 * Null without a valid date.
 */
export function eventSpan(event: Pick<LiveEvent, "date" | "time" | "endTime">): Readonly<{ start: number; end: number }> | null {
  // A pure function of three cells, asked for every listed event on every render (the moment
  // filters, the "Finished" split, the spotlight picks, the status order): each distinct
  // combination is worked out once, since a Paris instant costs an Intl call.
  const key = `${event.date}|${event.time}|${event.endTime}`;
  let span = SPANS.get(key);
  if (span === undefined) {
    if (SPANS.size >= MAX_SPANS) SPANS.clear();
    span = computeSpan(event);
    SPANS.set(key, span);
  }
  return span;
}

const SPANS = new Map<string, Readonly<{ start: number; end: number }> | null>();
/** A sheet has a few hundred distinct date and time combinations; the memo is emptied past this. */
const MAX_SPANS = 20_000;

function computeSpan(event: Pick<LiveEvent, "date" | "time" | "endTime">): Readonly<{ start: number; end: number }> | null {
  if (!isValidIsoDate(event.date)) return null;
  if (!isValidTime(event.time)) return Object.freeze({ start: parisInstant(event.date, "20:00").getTime(), end: parisInstant(event.date, "23:59").getTime() });
  const start = parisInstant(event.date, event.time).getTime();
  if (!isValidTime(event.endTime)) return Object.freeze({ start, end: start + DEFAULT_LENGTH_MS });
  const endDate = endsNextDay(event.time, event.endTime) ? nextDate(event.date) : event.date;
  return Object.freeze({ start, end: parisInstant(endDate, event.endTime).getTime() });
}

function nextDate(isoDate: string): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** This festival night at an instant: 18:00 of the Paris date (the day before, before 06:00) to 06:00 after. */
export const festivalNight = keptForLastInstant((now: Date): Readonly<{ start: number; end: number; date: string }> => {
  const today = parisDate(now);
  const date = now.getTime() < parisInstant(today, NIGHT_END).getTime() ? previousDate(today) : today;
  return Object.freeze({ start: parisInstant(date, NIGHT_START).getTime(), end: parisInstant(nextDate(date), NIGHT_END).getTime(), date });
});

// The night and day of an instant are asked for once per listed event with the render's one
// instant ("Tonight", today's spotlight picks, "Finished"): the answer for the last instant is
// kept (a Paris date costs an Intl call).
function keptForLastInstant<T>(compute: (now: Date) => T): (now: Date) => T {
  let lastAt = Number.NaN;
  let last: T;
  return (now) => {
    const at = now.getTime();
    if (at !== lastAt) {
      last = compute(now);
      lastAt = at;
    }
    return last;
  };
}

function previousDate(isoDate: string): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * This festival day at an instant: 06:00 of the Paris date (of the day before, before 06:00) to
 * 06:00 the next morning, so a night belongs to the day it started on.
 */
export const festivalDay = keptForLastInstant((now: Date): Readonly<{ start: number; end: number; date: string }> => {
  const date = festivalNight(now).date;
  return Object.freeze({ start: parisInstant(date, NIGHT_END).getTime(), end: parisInstant(nextDate(date), NIGHT_END).getTime(), date });
});

/**
 * True when an event is one of today's that is still to see: it has not ended and runs at some
 * time of this festival day (06:00 to 06:00). A multi-day event is so on the day of its occurrence.
 */
export function isTodayAndOpen(event: Pick<LiveEvent, "date" | "time" | "endTime">, now: Date): boolean {
  const span = eventSpan(event);
  if (!span || span.end <= now.getTime()) return false;
  const day = festivalDay(now);
  return span.start < day.end && span.end > day.start;
}

/** True when an event runs at some time of the moment. */
export function runsAt(event: Pick<LiveEvent, "date" | "time" | "endTime">, moment: Moment, now: Date): boolean {
  const span = eventSpan(event);
  if (!span) return false;
  if (moment === "now") return span.start <= now.getTime() && now.getTime() < span.end;
  const night = festivalNight(now);
  return span.start < night.end && span.end > night.start;
}

/** True when an event has ended at this instant. */
export function hasEnded(event: Pick<LiveEvent, "date" | "time" | "endTime">, now: Date): boolean {
  const span = eventSpan(event);
  return span !== null && span.end <= now.getTime();
}

/**
 * True while the festival is on: inside the span of the listed events, from the first listed
 * date's midnight to 06:00 after the last (listedEventsSpan); the ended events then drop below a
 * "Finished" divider.
 */
export function isFestivalOn(events: readonly Pick<LiveEvent, "date">[], now: Date): boolean {
  const window = listedEventsSpan(events);
  const t = now.getTime();
  return window !== null && t >= window.start && t < window.end;
}

/** Splits a list (order kept) into events still to come or running, then the ended ones. */
export function splitFinished<T extends Pick<LiveEvent, "date" | "time" | "endTime">>(events: readonly T[], now: Date): { open: T[]; finished: T[] } {
  const open: T[] = [];
  const finished: T[] = [];
  for (const event of events) (hasEnded(event, now) ? finished : open).push(event);
  return { open, finished };
}
