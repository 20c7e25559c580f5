// The render context of a homepage request (see docs/public-pages.md, "Render cache"): everything
// a card, a chip or the results fragment shows besides the listing itself, read once per request,
// and the one key every memo of the fast path is kept by.
//
// A live read's list and its events are never changed once handed out (a new read, an update or
// a projection brings new objects), so the list object stands for its data and its generation.
// What a render of that list shows then changes only with the language, the site's addresses,
// and the clock: at whole minutes (event times, the live states' minutes, Paris midnight) and at
// the instants of the list's own changes (a publication and its "new" day ending, an update, a
// placement window ending, an event's live clock leaving its card). The stretch is the minute
// around the render cut at those instants: two renders in the same context and stretch draw the
// same text (test/pages/home/fast/render-context.test.ts sweeps a festival night to hold it).

import type { LiveEvent } from "../../../lib/sheet/types.ts";
import { currentLanguage, currentSite, type Language, type SiteRoot } from "../../../lib/i18n/index.ts";
import { memoisedPerObject } from "../../../lib/memo/memo.ts";
import { LIVE_ENDED_MS, NEW_FOR_MS } from "../../../lib/events/event-status.ts";
import { eventSpan } from "../../../lib/events/filter-moment.ts";

/** What a homepage render draws from besides its listing. */
export interface RenderContext {
  /** The live list shown: its identity is its data (and the read's generation). */
  events: readonly LiveEvent[];
  language: Language;
  /** The site's base path and root language (every address); undefined outside any request. */
  site: SiteRoot | undefined;
  /** Absolute URL of /calendar.ics (the subscribe links). */
  feedUrl: string;
  now: Date;
  /** From `from` (inclusive) to `until` (exclusive), epoch ms: nothing the list shows changes by itself in between. */
  stretch: Stretch;
  /** The language, the site, the feed and the stretch as one text: with the list, what every kept view is keyed by. */
  key: string;
}

export interface Stretch {
  from: number;
  until: number;
}

/** The context of a render of `events` at `now` in the current language and site: built once per request. */
export function renderContextOf(events: readonly LiveEvent[], now: Date, feedUrl: string): RenderContext {
  const language = currentLanguage();
  const site = currentSite();
  const stretch = stretchAt(events, now.getTime());
  return { events, language, site, feedUrl, now, stretch, key: `${language}|${site ? `${site.basePath}|${site.rootLanguage}` : "-"}|${feedUrl}|${stretch.from}` };
}

const MINUTE_MS = 60_000;

/** The instants, sorted, at which something an event of the list shows changes by itself. */
const changeInstantsOf = memoisedPerObject((events: readonly LiveEvent[]): Float64Array => {
  const instants: number[] = [];
  const add = (iso: string | null, after = 0) => {
    const at = iso === null ? Number.NaN : Date.parse(iso);
    if (Number.isFinite(at)) instants.push(at + after);
  };
  for (const event of events) {
    add(event.firstPublishedAt);
    add(event.firstPublishedAt, NEW_FOR_MS);
    add(event.changedAt);
    add(event.featuredEndsAt);
    add(event.promotedEndsAt);
    // Every live state and its clock change at whole minutes (an event's times are whole minutes),
    // but one: the clock a card carries for the browser goes a millisecond after the
    // end's six hours ("ended" itself goes at them).
    const span = event.status === "cancelled" ? null : eventSpan(event);
    if (span) instants.push(span.end + LIVE_ENDED_MS + 1);
  }
  return Float64Array.from(instants).sort();
});

/** The stretch around `at`: its minute, cut at the list's change instants. */
export function stretchAt(events: readonly LiveEvent[], at: number): Stretch {
  const instants = changeInstantsOf(events);
  let low = 0;
  let high = instants.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (instants[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  const minute = Math.floor(at / MINUTE_MS) * MINUTE_MS;
  return { from: Math.max(minute, low > 0 ? instants[low - 1]! : minute), until: Math.min(minute + MINUTE_MS, low < instants.length ? instants[low]! : Number.POSITIVE_INFINITY) };
}
