// The archive of one edition, GET /<year>/ (and /en/<year>/, language.plugin.ts); see
// docs/editions.md, "The archive". Served from the render cache per year, normalised filter query
// and language: for an hour once the edition is over, five minutes while it is the current one.
// A publish (LIVE_EVENTS_TAG) or an edition-window save (EDITIONS_CACHE_TAG) drops every render.
// Anything that is not a year from 2000 to 2100, a year after the current edition, and a year
// without events that is not the current edition answer the site's 404 page.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { markup } from "../../lib/http/responses.ts";
import { NotFoundError } from "../../lib/http/errors.ts";
import { currentLanguage } from "../../lib/i18n/index.ts";
import { publicUrl } from "../../lib/config.ts";
import { countOfEdition, currentEdition, EDITION_YEARS, editionOf, editionState, editionYearOfDate, eventsOfEdition } from "../../lib/events/editions.ts";
import { canonicalFilterQuery, hasSearch, isFilterActive, parseFilters } from "../../lib/events/filter-query.ts";
import { filterEvents } from "../../lib/events/filter-match.ts";
import { LIVE_EVENTS_TAG } from "../../lib/serving/invalidation.ts";
import { renderedFromRead, type CachePolicy } from "../../lib/serving/render-cache.ts";
import { EDITIONS_CACHE_TAG } from "../../lib/site/edition-settings.ts";
import { alternateLinks } from "../components/layout.tsx";
import { ArchivePage, groupByDay } from "./archive.view.tsx";

/** Freshness of a finished edition's archive: it changes only when a publish or a window save drops it. */
const PAST_SECONDS = 3600;
/** Freshness of the current edition's page ("Finished" marks move with the clock). */
const CURRENT_SECONDS = 300;
const TAGS = [LIVE_EVENTS_TAG, EDITIONS_CACHE_TAG];
const PAST_POLICY: CachePolicy = { revalidate: PAST_SECONDS, tags: TAGS };
const CURRENT_POLICY: CachePolicy = { revalidate: CURRENT_SECONDS, tags: TAGS };

/** The year a path segment names: four digits from 2000 to 2100, else null. */
export function archiveYearOf(segment: string): number | null {
  if (!/^\d{4}$/.test(segment)) return null;
  const year = Number(segment);
  return year >= EDITION_YEARS.min && year <= EDITION_YEARS.max ? year : null;
}

/** GET /:year/ */
export function archiveRoutes(deps: Deps) {
  return new Elysia({ name: "archive" }).get("/:year/", ({ params, request }) => {
    const year = archiveYearOf(params.year);
    if (year === null) throw new NotFoundError();
    const now = deps.now();
    const current = currentEdition(now, deps.editions.windows);
    if (year > current.year) throw new NotFoundError();
    const state = editionState(editionOf(year, deps.editions.windows), now);
    const filters = parseFilters(new URL(request.url).searchParams);
    const query = canonicalFilterQuery(filters);
    const language = currentLanguage();
    // The edition's state is part of the key: a render made while the edition was current (five
    // minutes' freshness, perhaps without events) is never served under the hour-long past policy.
    const key = `/${year}/?${query ? `${query}&` : ""}lang=${language}&edition=${state}`;
    return deps.renderCache.serve(request, key, state === "past" ? PAST_POLICY : CURRENT_POLICY, async () => {
      const read = await deps.events.load({ recent: true });
      // The edition's own events: undated ones belong to no archive. The search runs on the list
      // eventsOfEdition keeps for the year (its search index is built once per list), then drops them.
      const totalCount = countOfEdition(read.events, year);
      // Thrown, not rendered: a 404 is never kept, and the error handler answers the site's page.
      if (totalCount === 0 && year !== current.year) throw new NotFoundError();
      const found = filterEvents(eventsOfEdition(read.events, year), filters, deps.now()).filter((event) => editionYearOfDate(event.date) === year);
      const narrowed = isFilterActive(filters) || hasSearch(filters);
      return renderedFromRead(read, {
        body: markup(
          <ArchivePage
            year={year}
            state={state}
            q={filters.q}
            narrowed={narrowed}
            totalCount={totalCount}
            foundCount={found.length}
            days={groupByDay(found)}
            now={deps.now()}
            alternates={alternateLinks(publicUrl(deps.config, `/${year}/`))}
          />,
        ),
      });
    });
  });
}
