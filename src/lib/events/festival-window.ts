// When the festival is (docs/editions.md, and docs/filters-and-search.md, "Now, Tonight and
// Finished"): two answers of the edition rule (editions.ts). The calendar answer, `festivalWindow`,
// gives the window of the current edition: a host's submission must fall inside it. The listed
// answer, `listedEventsSpan`, gives the span the calendar's events actually cover: while the clock
// is inside it the homepage splits off the finished events and the spotlight keeps to today's.

import { memoisedPerObject } from "../memo/memo.ts";
import { currentEdition, type EditionWindows } from "./editions.ts";
import { addDays, isValidIsoDate } from "../sheet/dates.ts";
import { parisInstant } from "../paris-time.ts";
import type { LiveEvent } from "../sheet/types.ts";

/** Hours of a festival night: 18:00 to 06:00 the next morning (Paris time). */
export const NIGHT_START = "18:00";
export const NIGHT_END = "06:00";

/** The first and last day a host may date an event on (ISO dates, Paris). */
export interface FestivalWindow {
  from: string;
  to: string;
}

/** The calendar window of the coming (or current) festival at `now`: the current edition's (this year's until its last day, then next year's). */
export function festivalWindow(now: Date, windows: EditionWindows): FestivalWindow {
  const { from, to } = currentEdition(now, windows);
  return { from, to };
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
