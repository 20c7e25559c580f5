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
import { currentEdition, EDITION_YEARS, editionOf, editionState } from "../../lib/events/editions.ts";
import { eventsOfYear } from "../../lib/events/edition-events.ts";
import { findEventByKey } from "../../lib/events/lookup.ts";
import { normaliseEventKey } from "../../lib/sheet/keys.ts";
import { EVENT_PARAM, pageHref, shareUrl } from "../../lib/links.ts";
import { EventModal } from "../components/event-modal.view.tsx";
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
    const search = new URL(request.url).searchParams;
    const filters = parseFilters(search);
    const query = canonicalFilterQuery(filters);
    // A share link to one of the edition's events opens it over the archive (the modal says it is finished).
    const eventKey = normaliseEventKey((search.get(EVENT_PARAM) ?? "").slice(0, 64));
    const language = currentLanguage();
    // The edition's state is part of the key: a render made while the edition was current (five
    // minutes' freshness, perhaps without events) is never served under the hour-long past policy.
    const key = `/${year}/?${query ? `${query}&` : ""}${eventKey ? `${EVENT_PARAM}=${eventKey}&` : ""}lang=${language}&edition=${state}`;
    return deps.renderCache.serve(request, key, state === "past" ? PAST_POLICY : CURRENT_POLICY, async () => {
      const read = await deps.events.load({ recent: true });
      // The edition's own events (undated ones belong to no archive): from its archive once the
      // next edition was started, else from the live list.
      const events = await eventsOfYear(deps.db, read.events, year, deps.editions.windows);
      const totalCount = events.length;
      // Thrown, not rendered: a 404 is never kept, and the error handler answers the site's page.
      if (totalCount === 0 && year !== current.year) throw new NotFoundError();
      const found = filterEvents(events, filters, deps.now());
      const opened = eventKey ? findEventByKey(events, eventKey) : undefined;
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
            modal={opened ? EventModal({ event: opened, shareUrl: shareUrl(deps.config, opened), closeHref: pageHref(`/${year}/`), open: true, now: deps.now() }) : undefined}
          />,
        ),
      });
    });
  });
}
