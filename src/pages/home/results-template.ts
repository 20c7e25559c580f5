// The results fragment of a search, from the fragment of the same results under another search
// (see docs/public-pages.md, "Render cache"). Distinct searches often find the same events:
// every misspelt or unknown word finds nothing, and "Kompa", "kompa ", "KOMPA" find the same list.
// Their fragments differ only where the search is written into a link (`q=` in the chip, feed,
// quick-chip and map links, always in URL form), so the fragment is rendered once per result with
// a stand-in search, kept cut at the stand-in, and joined with each new search's `q=` value.

import type { LiveEvent } from "../../lib/sheet/types.ts";
import { FILTER_PARAMS } from "../../lib/events/filter-query.ts";
import { withSearch } from "../../lib/events/filter-links.ts";
import { withMoment, type HomeListing } from "./listing.ts";
import { currentLanguage } from "../../lib/i18n/index.ts";
import { pageHref } from "../../lib/links.ts";

/**
 * The search a template is rendered with: letters only, so it is written the same way in every
 * URL, and no word an event holds. Its written form is what a template is cut at.
 */
export const SEARCH_STAND_IN = "zqxsearchstandinzqx";

/** Result templates a live list keeps (dropped all at once when full, as memo.ts does). */
const MAX_TEMPLATES = 200;

/** The templates of one live list in one Paris minute. */
interface KeptTemplates {
  minute: number;
  templates: Map<string, readonly string[]>;
}

// Per live list: a read's events never change once handed out, and a list is replaced when the
// placements' windows open or close (docs/live-events.md), so what a fragment shows of an event
// depends only on the list and the clock's minute (event times are whole minutes).
const keptPerList = new WeakMap<readonly LiveEvent[], KeptTemplates>();

/**
 * The fragment of `listing` (a search's results over the live list `events` at `now`): kept per
 * list, minute, language, site, filter state without its search, and everything the search
 * decided (the events found in order, the spotlight, "Did you mean", the page); `render` draws a
 * listing. Without a search the fragment is rendered as is (it is cached by its URL anyway).
 */
export function searchResultsMarkup(events: readonly LiveEvent[], listing: HomeListing, now: Date, feedUrl: string, render: (listing: HomeListing) => string): string {
  const q = listing.filters.q;
  if (q === "") return render(listing);
  const minute = Math.floor(now.getTime() / 60_000);
  let kept = keptPerList.get(events);
  if (kept === undefined || kept.minute !== minute) keptPerList.set(events, (kept = { minute, templates: new Map() }));
  const key = templateKey(listing, feedUrl);
  let parts = kept.templates.get(key);
  if (parts === undefined) {
    parts = render(withStandIn(listing)).split(SEARCH_STAND_IN);
    if (kept.templates.size >= MAX_TEMPLATES) kept.templates.clear();
    kept.templates.set(key, parts);
  }
  return parts.join(searchValue(q));
}

/** The listing as drawn with the stand-in search: only what writes the search changes. */
function withStandIn(listing: HomeListing): HomeListing {
  return {
    ...listing,
    filters: { ...listing.filters, q: SEARCH_STAND_IN },
    query: withMoment(withSearch(listing.searchlessQuery, SEARCH_STAND_IN), listing.moment),
  };
}

// The search as a URL writes it after `q=` (filter-links.ts, withSearch).
function searchValue(q: string): string {
  return withSearch("", q).slice(FILTER_PARAMS.q.name.length + 1);
}

const SEPARATOR = "\u0000";

function keysOf(events: readonly LiveEvent[]): string {
  let keys = "";
  for (const event of events) keys += `${event.eventKey},`;
  return keys;
}

/** Everything a results fragment is drawn from besides the list, the minute and the search's own text. */
function templateKey(listing: HomeListing, feedUrl: string): string {
  const suggestion = listing.suggestion ? `${listing.suggestion.q}${SEPARATOR}${listing.suggestion.count}` : "";
  return [currentLanguage(), pageHref("/"), feedUrl, listing.searchlessQuery, listing.moment ?? "", listing.page, listing.finishedFrom ?? "", suggestion, keysOf(listing.spotlight), keysOf(listing.matching)].join(SEPARATOR);
}
