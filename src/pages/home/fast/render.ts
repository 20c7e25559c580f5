// Homepage renders into the render cache (see docs/public-pages.md, "Homepage" and "Render
// cache"): a request's variant drawn from a live read in one render context (render-context.ts)
// with the pieces the fast path keeps for it (kept-views.ts), the unavailable notice when every
// source failed, and a preview minute's render that is never stored.

import type { Deps } from "../../../deps.ts";
import { defaultBannerSettings, findBannerSettings, publicBanner } from "../../../lib/site/banner.ts";
import { markup, PER_REQUEST_HEADERS } from "../../../lib/http/responses.ts";
import type { Rendered } from "../../../lib/serving/render-cache.ts";
import { isValidIsoDate } from "../../../lib/sheet/dates.ts";
import { filterFacets, quickDates } from "../../../lib/events/filter-match.ts";
import { homeHref, pageHref, shareUrl } from "../../../lib/links.ts";
import { EventsUnavailableError, type LiveRead } from "../../../lib/events/pipeline.ts";
import { findEventByKey } from "../../../lib/events/lookup.ts";
import { nearMeEvents, nearVenues } from "../../../lib/events/near-me.ts";
import type { LiveEvent } from "../../../lib/sheet/types.ts";
import { PREVIEW_HEADERS, type PreviewClock } from "../../../lib/preview-clock.ts";
import { publicUrl } from "../../../lib/config.ts";
import type { Language } from "../../../lib/i18n/index.ts";
import { EventModal, MissingEventModal } from "../../components/event-modal.view.tsx";
import { mapJson } from "../../components/map.view.tsx";
import { HomePage, HomeResults, MoreCards, UnavailablePage, UnavailableResults, type EditionNotice, type HomePieces } from "../home.view.tsx";
import { NearMeResults } from "../near-me.view.tsx";
import { homeHead, unavailableHead } from "../home-head.view.tsx";
import { homeListing, type HomeListing } from "../listing.ts";
import { countOfEdition, currentEdition, editionState, eventsOfEdition, previousEdition, type Edition, type EditionWindows } from "../../../lib/events/editions.ts";
import type { HomeRequest, HomeVariant } from "./home-request.ts";
import { renderContextOf, type RenderContext } from "./render-context.ts";
import { keptPieces } from "./kept-views.ts";
import { searchResultsBody } from "./results-template.ts";

/** Headers of an answer made for one request only. */
const PER_REQUEST = PER_REQUEST_HEADERS;

/** The clock of a render: the instant, and the preview minute it comes from (null on the real clock). */
interface RenderClock {
  now: Date;
  preview: PreviewClock | null;
}

/**
 * Renders what a homepage request asks for (in the request's language) from a fresh live read;
 * throws when the read fails (keeps the old render). A burst of misses (distinct searches) shares
 * one read, for READ_REUSE_MS at most, and the render says when that read began: the render cache
 * keeps it only if no invalidation came since (docs/live-events.md, "What a read costs"). With
 * such a read at hand, everything but the full page (which reads the banner) renders at once.
 */
function renderHome(deps: Deps, home: HomeRequest, clock: RenderClock = { now: deps.now(), preview: null }): Rendered | Promise<Rendered> {
  const kept = clock.preview === null ? deps.events.recentRead() : undefined;
  // Returned at once, so a search's fragment may be written into reused buffers (Rendered.transient).
  if (kept) return withGenerationOf(kept, renderFromRead(deps, kept, home, clock, true));
  return deps.events.load({ recent: true }).then((read) => withGenerationOf(read, renderFromRead(deps, read, home, clock)));
}

function withGenerationOf(read: LiveRead, rendering: Rendered | Promise<Rendered>): Rendered | Promise<Rendered> {
  if (rendering instanceof Promise) return rendering.then((rendered) => ({ ...rendered, generation: read.generation }));
  rendering.generation = read.generation;
  return rendering;
}

function renderFromRead(deps: Deps, read: LiveRead, home: HomeRequest, clock: RenderClock, transient = false): Rendered | Promise<Rendered> {
  const { variant, filters, moment, eventKey, page, searchlessQuery } = home;
  // The homepage lists the current edition's events (docs/editions.md); a shared link still opens
  // any listed event, a past edition's included.
  const edition = currentEdition(clock.now, deps.editions.windows);
  const listed = eventsOfEdition(read.events, edition.year);
  // Built once for the whole render: every kept piece is looked up by its key.
  const context = renderContextOf(listed, clock.now, publicUrl(deps.config, "/calendar.ics"));
  const { now, feedUrl } = context;
  const event = eventKey ? findEventByKey(read.events, eventKey) : undefined;
  if (variant === "modal") {
    const body = event ? EventModal({ event, shareUrl: shareUrl(deps.config, event), closeHref: pageHref("/"), now }) : MissingEventModal({ closeHref: pageHref("/") });
    return { body: markup(body) };
  }
  const pieces = keptPieces(context);
  const listing = homeListing(listed, filters, now, variant === "fragment" ? 1 : page, moment, searchlessQuery, { from: edition.from, to: edition.to });
  if (variant === "more") return { body: markup(MoreCards({ listing, now, pieces })) };
  if (variant === "map") return { body: mapJson(listing.matching, filters), headers: { "content-type": "application/json; charset=utf-8" } };
  if (variant === "near") {
    const near = nearMeEvents(listing.matching, filters, now, listing.festival.on);
    return { body: markup(NearMeResults({ scope: near.scope, venues: nearVenues(near.events), festivalDays: listing.festival.days, now, card: pieces.card })) };
  }
  if (variant === "fragment") {
    const { bytes, gzip } = searchResultsBody(context, listing, (shown) => markup(HomeResults({ listing: shown, now, feedUrl, oob: true, pieces })), { transient });
    return { body: bytes, gzip, transient, headers: { "hx-push-url": homeHref(listing.query) } };
  }
  return renderPage(deps, read, listing, event, eventKey, clock, context, pieces, editionNoticeOf(read.events, edition, now, deps.editions.windows));
}

function dateBounds(events: readonly LiveEvent[]): { min?: string; max?: string } {
  let min: string | undefined;
  let max: string | undefined;
  for (const event of events) {
    if (!isValidIsoDate(event.date)) continue;
    if (!min || event.date < min) min = event.date;
    if (!max || event.date > max) max = event.date;
  }
  return { min, max };
}

/** What the hero says about the editions: the one the page lists, and the last one when it is over and had events. */
function editionNoticeOf(events: readonly LiveEvent[], edition: Edition, now: Date, windows: EditionWindows): EditionNotice {
  const state = editionState(edition, now);
  const previous = previousEdition(now, windows);
  const previousCount = countOfEdition(events, previous.year);
  return { edition, state, previous: previousCount > 0 ? { year: previous.year, count: previousCount } : null };
}

async function renderPage(deps: Deps, read: LiveRead, listing: HomeListing, event: LiveEvent | undefined, eventKey: string | null, clock: RenderClock, context: RenderContext, pieces: HomePieces, edition: EditionNotice): Promise<Rendered> {
  const now = context.now;
  // A read the database could not serve (an outage, a stall) does not wait on it for the banner either.
  const banner = publicBanner(read.degraded ? defaultBannerSettings() : await findBannerSettings(deps));
  const body = HomePage({
    listing,
    facets: filterFacets(context.events),
    quickDates: quickDates(context.events),
    dateBounds: dateBounds(context.events),
    edition,
    banner,
    now,
    preview: clock.preview,
    showFallbackNotice: deps.config.dataMode === "remote" && read.source !== "store",
    degraded: read.degraded !== undefined,
    head: homeHead(deps.config, context.events.length, event, listing.query),
    feedUrl: context.feedUrl,
    // A shared link to an event that is no longer listed says so instead of showing the list silently.
    modal: event
      ? EventModal({ event, shareUrl: shareUrl(deps.config, event), closeHref: homeHref(listing.query), open: true, now })
      : eventKey
        ? MissingEventModal({ closeHref: homeHref(listing.query), open: true })
        : undefined,
    pieces,
  });
  return { body: markup(body) };
}

/**
 * A homepage request from the render cache in the current language (a hit comes back at once;
 * a miss renders), `headers` added to the answer; when every source failed and nothing was
 * rendered before, the unavailable notice.
 */
export function serveHome(deps: Deps, request: Request, home: HomeRequest, language: Language, headers?: Readonly<Record<string, string>>): Response | Promise<Response> {
  const served = deps.renderCache.serve(request, home.cacheKeys[language], home.policy, () => renderHome(deps, home), headers);
  if (served instanceof Response) return served;
  return served.catch((error: unknown) => {
    if (error instanceof EventsUnavailableError) return unavailable(deps, home.variant, headers);
    throw error;
  });
}

/** The answer when every source failed and no render exists yet: the notice, 503, retry in 30 s. */
async function unavailable(deps: Deps, variant: HomeVariant, extra?: Readonly<Record<string, string>>): Promise<Response> {
  const headers = { "content-type": "text/html; charset=utf-8", vary: "HX-Request", "retry-after": "30", ...PER_REQUEST, ...extra };
  if (variant !== "page") return new Response(markup(UnavailableResults()), { status: 503, headers });
  const banner = publicBanner(await findBannerSettings(deps));
  return new Response(markup(UnavailablePage({ banner, now: deps.now(), night: currentEdition(deps.now(), deps.editions.windows).night, head: unavailableHead() })), { status: 503, headers });
}

/**
 * A homepage variant at a preview minute (docs/public-pages.md, "Preview clock"): rendered for this
 * request only, never stored in the render cache, and sent `private, no-store` so no shared cache
 * keeps it either.
 */
export async function servePreview(deps: Deps, home: HomeRequest, preview: PreviewClock): Promise<Response> {
  try {
    const rendered = await renderHome(deps, home, { now: preview.at, preview });
    const headers = { "content-type": "text/html; charset=utf-8", vary: "HX-Request", ...rendered.headers, ...PREVIEW_HEADERS };
    return new Response(rendered.body, { status: rendered.status ?? 200, headers });
  } catch (error) {
    if (error instanceof EventsUnavailableError) return unavailable(deps, home.variant);
    throw error;
  }
}
