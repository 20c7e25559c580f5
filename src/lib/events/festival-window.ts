// When the festival is (docs/public-pages.md, "/submit-event", and docs/filters-and-search.md,
// "Now, Tonight and Finished"): one rule, Fête de la Musique week, with its two answers. The
// calendar answer, `festivalWindow`, gives the dates of the coming festival from the rule alone: a
// host's submission must fall inside it. The listed answer, `listedEventsSpan`, gives the span the
// calendar's events actually cover: while the clock is inside it the homepage splits off the
// finished events and the spotlight keeps to today's. The festival's dates are set once, in
// FESTIVAL_DATES, and every answer takes them from there.

import { memoisedPerObject } from "../memo/memo.ts";
import { addDays, isValidIsoDate } from "../sheet/dates.ts";
import { parisDate, parisInstant } from "../paris-time.ts";
import type { LiveEvent } from "../sheet/types.ts";

/** The first and last day of a festival, as month and day of the Paris calendar. */
export interface FestivalDates {
  from: { month: number; day: number };
  to: { month: number; day: number };
}

/** The festival each year: Fête de la Musique week, 15 to 22 June (the night of the 21st ends on the 22nd). */
export const FESTIVAL_DATES: Readonly<FestivalDates> = { from: { month: 6, day: 15 }, to: { month: 6, day: 22 } };

/** Hours of a festival night: 18:00 to 06:00 the next morning (Paris time). */
export const NIGHT_START = "18:00";
export const NIGHT_END = "06:00";

const pad = (n: number) => String(n).padStart(2, "0");

/** The calendar window of the coming (or current) festival at `now`: this year's until its last day (Paris), then next year's. */
export function festivalWindow(now: Date, dates: Readonly<FestivalDates> = FESTIVAL_DATES): { from: string; to: string } {
  const today = parisDate(now);
  let year = Number(today.slice(0, 4));
  const end = (y: number) => `${y}-${pad(dates.to.month)}-${pad(dates.to.day)}`;
  if (today > end(year)) year++;
  return { from: `${year}-${pad(dates.from.month)}-${pad(dates.from.day)}`, to: end(year) };
}

/**
 * The span the listed events cover, in epoch milliseconds: from the first listed date's midnight
 * to 06:00 after the last listed date (Paris); null when no event has a date. Worked out once per
 * list (a live read's list is never changed once built).
 */
export const listedEventsSpan = memoisedPerObject((events: readonly Pick<LiveEvent, "date">[]): { start: number; end: number } | null => {
  let first: string | undefined;
  let last: string | undefined;
  for (const event of events) {
    if (!isValidIsoDate(event.date)) continue;
    if (!first || event.date < first) first = event.date;
    if (!last || event.date > last) last = event.date;
  }
  if (!first || !last) return null;
  return { start: parisInstant(first, "00:00").getTime(), end: parisInstant(addDays(last, 1), NIGHT_END).getTime() };
});
