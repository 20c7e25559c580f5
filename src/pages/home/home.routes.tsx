// The homepage and the share route (see docs/public-pages.md, "Homepage", "Share route" and "Render cache").
// GET / (and /en/, language.plugin.ts) is served from the render cache (300 s) per normalised filter
// query and language: the full page, the results fragment for htmx, or the event-modal fragment for
// htmx with `event`; Vary: Accept-Encoding, HX-Request (the language is in the URL).
// GET /event/<key>/<slug> is answered per request with a 307 to the modal URL.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { BANNER_CACHE_TAG, defaultBannerSettings, findBannerSettings, publicBanner } from "../../lib/site/banner.ts";
import { HX_REQUEST_HEADER, isHtmx } from "../../lib/http/htmx.ts";
import { markup, PER_REQUEST_HEADERS } from "../../lib/http/responses.ts";
import { formDecoded } from "../../lib/http/forms.ts";
import { memoisedWhenRepeated } from "../../lib/memo/memo.ts";
import { LIVE_EVENTS_TAG } from "../../lib/serving/invalidation.ts";
import type { CachePolicy, Rendered } from "../../lib/serving/render-cache.ts";
import { isValidIsoDate } from "../../lib/sheet/dates.ts";
import { filterFacets, quickDates } from "../../lib/events/filter-match.ts";
import { FILTER_PARAMS, type EventFilters } from "../../lib/events/filter-query.ts";
import { queryWithoutSearch } from "../../lib/events/filter-links.ts";
import { EVENT_PARAM, eventModalHref, homeHref, SLUG_PARAM } from "../../lib/links.ts";
import { homeFiltersOf, homeListing, pagedQuery, pageOf, queryOfParts, scriptJson, type HomeListing } from "./listing.ts";
import { searchResultsBody } from "./results-template.ts";
import { normaliseEventKey } from "../../lib/sheet/keys.ts";
import { EventsUnavailableError, type LiveRead } from "../../lib/events/pipeline.ts";
import { findEventByKey } from "../../lib/events/lookup.ts";
import { shareUrl } from "../../lib/links.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import type { Moment } from "../../lib/events/filter-moment.ts";
import { EventModal, MissingEventModal } from "../components/event-modal.view.tsx";
import { MAP_DATA_PARAM_VALUE, mapJson } from "../components/map.view.tsx";
import { HomePage, HomeResults, MoreCards, UnavailablePage, UnavailableResults } from "./home.view.tsx";
import { NEAR_PARAM, NEAR_PARAM_VALUE, NearMeResults } from "./near-me.view.tsx";
import { nearMeEvents, nearVenues } from "../../lib/events/near-me.ts";
import { PREVIEW_HEADERS, previewOf, type PreviewClock } from "../../lib/preview-clock.ts";
import { homeHead, unavailableHead } from "./home-head.view.tsx";
import { publicUrl } from "../../lib/config.ts";
import { cookieLanguage, currentLanguage, inSite, type Language, languagePrefix, LANGUAGES, queryLanguage } from "../../lib/i18n/index.ts";
import { pageHref } from "../../lib/links.ts";
import { siteRootOf } from "../language.plugin.ts";

/** Seconds a homepage render stays fresh: 300. */
export const HOME_REVALIDATE_SECONDS = 300;

/** Which homepage response a request gets: "more" is the next list page for "Show more" (htmx). */
export type HomeVariant = "page" | "fragment" | "modal" | "more" | "map" | "near";

const PAGE_POLICY: CachePolicy = { revalidate: HOME_REVALIDATE_SECONDS, tags: [BANNER_CACHE_TAG, LIVE_EVENTS_TAG], vary: ["HX-Request"] };
const FRAGMENT_POLICY: CachePolicy = { revalidate: HOME_REVALIDATE_SECONDS, tags: [LIVE_EVENTS_TAG], vary: ["HX-Request"] };
// A search is kept once it is asked again: most distinct searches are asked once (render-cache.ts).
const SEARCH_PAGE_POLICY: CachePolicy = { ...PAGE_POLICY, keepWhenAskedAgain: true };
const SEARCH_FRAGMENT_POLICY: CachePolicy = { ...FRAGMENT_POLICY, keepWhenAskedAgain: true };

/** How a homepage variant is cached, with or without a search. */
function policyOf(variant: HomeVariant, searching: boolean): CachePolicy {
  if (variant === "page") return searching ? SEARCH_PAGE_POLICY : PAGE_POLICY;
  return searching ? SEARCH_FRAGMENT_POLICY : FRAGMENT_POLICY;
}
const PER_REQUEST = PER_REQUEST_HEADERS;
const MAX_SLUG_PARAM = 120;

/**
 * The render-cache key of a homepage variant: "/?<canonical filter query>[&p=<page>]", then
 * "|event=<key>", "#fragment" / "#modal" / "#more" / "#map", then "@<language>". Always "/?…" so
 * path invalidation of "/" drops every variant.
 */
export function homeCacheKey(query: string, eventKey: string | null, variant: HomeVariant, page = 1, language: Language = "en"): string {
  let key = `/?${variant === "modal" ? "" : variant === "fragment" || variant === "map" || variant === "near" ? query : pagedQuery(query, page)}`;
  if (eventKey) key += `|event=${eventKey}`;
  if (variant !== "page") key += `#${variant}`;
  return `${key}@${language}`;
}

/**
 * The canonical address of a plain (non-htmx) homepage request, or undefined when it already is
 * canonical. The GET form sends every field (empty ones, slider ends); the redirect gives one URL,
 * and one cache entry, per filter state. `event` and `slug` are kept as given. A `lang` parameter
 * is left for the language plugin (language.plugin.ts), which sends it to the URL form first.
 */
export function canonicalHomeLocation(url: URL, query: string, page = 1): string | undefined {
  const params = new URLSearchParams(pagedQuery(query, page));
  const eventKey = normaliseEventKey((url.searchParams.get(EVENT_PARAM) ?? "").slice(0, 64));
  if (eventKey) {
    params.set(EVENT_PARAM, eventKey);
    const slug = url.searchParams.get(SLUG_PARAM);
    if (slug) params.set(SLUG_PARAM, slug.slice(0, MAX_SLUG_PARAM));
  }
  const target = params.toString();
  if (target === url.searchParams.toString()) return undefined;
  return target === "" ? "/" : `/?${target}`;
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
  const now = clock.now;
  const event = eventKey ? findEventByKey(read.events, eventKey) : undefined;
  if (variant === "modal") {
    const body = event ? EventModal({ event, shareUrl: shareUrl(deps.config, event), closeHref: pageHref("/"), now }) : MissingEventModal({ closeHref: pageHref("/") });
    return { body: markup(body) };
  }
  const listing = homeListing(read.events, filters, now, variant === "fragment" ? 1 : page, moment, searchlessQuery);
  if (variant === "more") return { body: markup(MoreCards({ listing, now })) };
  if (variant === "map") return { body: mapJson(listing.matching, filters), headers: { "content-type": "application/json; charset=utf-8" } };
  if (variant === "near") {
    const near = nearMeEvents(listing.matching, filters, now, listing.festival.on);
    return { body: markup(NearMeResults({ scope: near.scope, venues: nearVenues(near.events), festivalDays: listing.festival.days, now })) };
  }
  if (variant === "fragment") {
    const feedUrl = publicUrl(deps.config, "/calendar.ics");
    const { bytes, gzip } = searchResultsBody(read.events, listing, now, feedUrl, (shown) => markup(HomeResults({ listing: shown, now, feedUrl, oob: true })), { transient });
    return { body: bytes, gzip, transient, headers: { "hx-push-url": homeHref(listing.query) } };
  }
  return renderPage(deps, read, listing, event, eventKey, clock);
}

async function renderPage(deps: Deps, read: LiveRead, listing: HomeListing, event: LiveEvent | undefined, eventKey: string | null, clock: RenderClock): Promise<Rendered> {
  const now = clock.now;
  // A read the database could not serve (an outage, a stall) does not wait on it for the banner either.
  const banner = publicBanner(read.degraded ? defaultBannerSettings() : await findBannerSettings(deps));
  const body = HomePage({
    listing,
    facets: filterFacets(read.events),
    quickDates: quickDates(read.events),
    dateBounds: dateBounds(read.events),
    banner,
    now,
    preview: clock.preview,
    showFallbackNotice: deps.config.dataMode === "remote" && read.source !== "store",
    degraded: read.degraded !== undefined,
    head: homeHead(deps.config, read.events.length, event, listing.query),
    feedUrl: publicUrl(deps.config, "/calendar.ics"),
    // A shared link to an event that is no longer listed says so instead of showing the list silently.
    modal: event
      ? EventModal({ event, shareUrl: shareUrl(deps.config, event), closeHref: homeHref(listing.query), open: true, now })
      : eventKey
        ? MissingEventModal({ closeHref: homeHref(listing.query), open: true })
        : undefined,
  });
  return { body: markup(body) };
}

/** What a homepage URL asks for, read once per URL. */
interface HomeRequest {
  /** Where a plain request with a non-canonical query is sent instead. */
  redirect?: string;
  variant: HomeVariant;
  /** The cache key in each language. */
  cacheKeys: Readonly<Record<Language, string>>;
  /** True when the URL carries `lang=`: an old link the language plugin redirects (never a hit). */
  oldLanguageLink: boolean;
  policy: CachePolicy;
  filters: EventFilters;
  /** The canonical filter query without the search (and without the moment). */
  searchlessQuery: string;
  moment: Moment | null;
  eventKey: string | null;
  page: number;
}

/** URLs whose reading is memoised (the memo is dropped when full). */
const MAX_RESOLVED_URLS = 2000;

/** Reads a homepage URL (`htmx`: the request says HX-Request). Exported for its tests. */
export function readHomeRequest(url: URL, htmx: boolean): HomeRequest {
  const { filters, moment, query } = homeFiltersOf(url.searchParams);
  const eventKey = normaliseEventKey((url.searchParams.get(EVENT_PARAM) ?? "").slice(0, 64));
  const page = pageOf(url.searchParams);
  const map = url.searchParams.get("map") === MAP_DATA_PARAM_VALUE;
  const near = url.searchParams.get(NEAR_PARAM) === NEAR_PARAM_VALUE;
  const variant: HomeVariant = map ? "map" : near ? "near" : !htmx ? "page" : eventKey ? "modal" : page > 1 ? "more" : "fragment";
  return {
    redirect: htmx || map || near ? undefined : canonicalHomeLocation(url, query, page),
    variant,
    cacheKeys: cacheKeysOf(query, eventKey, variant, page),
    oldLanguageLink: queryLanguage(url) !== null,
    policy: policyOf(variant, filters.q !== ""),
    filters,
    searchlessQuery: queryWithoutSearch(filters),
    moment,
    eventKey,
    page,
  };
}

function cacheKeysOf(query: string, eventKey: string | null, variant: HomeVariant, page: number): Record<Language, string> {
  const keys = {} as Record<Language, string>;
  for (const language of LANGUAGES) keys[language] = homeCacheKey(query, eventKey, variant, page, language);
  return keys;
}

/**
 * The reading of an htmx URL whose search is its one `q` parameter, from the reading of the same
 * URL without it and the search text: what readHomeRequest gives, without reading the filter
 * groups again. Search as you type sends one filter state with search after search, and the
 * state's reading is memoised (resolveHtmx). Undefined, so the URL is read in full, when the
 * URL has no `q`, more than one, or another parameter with an encoded name (which might read as
 * `q`). Exported for its tests, which hold it to readHomeRequest.
 */
export function readSearchedRequest(url: string, readSearchless: (url: string) => HomeRequest): HomeRequest | undefined {
  const mark = url.indexOf("?");
  if (mark < 0) return undefined;
  const segments = url.slice(mark + 1).split("&");
  let search = -1;
  let value = "";
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const equals = segment.indexOf("=");
    const name = equals < 0 ? segment : segment.slice(0, equals);
    if (name === SEARCH_NAME) {
      if (search >= 0) return undefined;
      search = i;
      value = equals < 0 ? "" : segment.slice(equals + 1);
    } else if (name.includes("%") || name.includes("+")) return undefined;
  }
  if (search < 0) return undefined;
  const q = FILTER_PARAMS.q.parse({ [SEARCH_NAME]: formDecoded(value) });
  segments.splice(search, 1);
  const searchless = readSearchless(segments.length === 0 ? url.slice(0, mark) : `${url.slice(0, mark)}?${segments.join("&")}`);
  if (q === "") return searchless;
  const query = queryOfParts(searchless.searchlessQuery, q, searchless.moment);
  return {
    ...searchless,
    cacheKeys: cacheKeysOf(query, searchless.eventKey, searchless.variant, searchless.page),
    policy: policyOf(searchless.variant, true),
    filters: { ...searchless.filters, q },
  };
}
const SEARCH_NAME = FILTER_PARAMS.q.name;

// Reading the URL (filters, canonical form, variant) is memoised per URL, one memo for htmx
// requests and one for plain ones: the cached page is served at thousands of requests a second and
// the same few URLs come back again and again. A URL is kept from its second request on, so the
// one-off searches of a festival night are read and forgotten. The reading is a pure function of
// the URL, so one memo serves every app in the process.
const resolvePlain = memoisedWhenRepeated(MAX_RESOLVED_URLS, (url) => readHomeRequest(new URL(url), false));
// An htmx URL with a search is read from its reading without the search (readSearchedRequest).
const resolveHtmx: (url: string) => HomeRequest = memoisedWhenRepeated(MAX_RESOLVED_URLS, (url) => readSearchedRequest(url, resolveHtmx) ?? readHomeRequest(new URL(url), true));
function resolve(url: string, htmx: boolean): HomeRequest {
  return htmx ? resolveHtmx(url) : resolvePlain(url);
}

/**
 * The server routes of the hit path (app.ts): the homepage of each language ("<base>/",
 * "<base>/en/"), each with its language, so a hit needs no routing and no language lookup.
 */
export function homeHitRoutes(deps: Pick<Deps, "config">, hit: (request: Request, language: Language) => Response | Promise<Response>) {
  const site = siteRootOf(deps);
  return Object.fromEntries(LANGUAGES.map((language) => [`${site.basePath}${languagePrefix(language, site)}/`, { GET: (request: Request) => hit(request, language) }]));
}

/** How the server's route table answers what it serves itself (app.ts). */
export interface FastAnswer {
  /** Headers added to every answer (the security headers). */
  headers: Readonly<Record<string, string>>;
  /** Holds an answer under way to the request deadline, and answers its errors as the app does. */
  guard: (request: Request, answer: Promise<Response>) => Promise<Response>;
}

/**
 * The homepage as the server answers it before any routing (see app.ts): a GET / (or /en/) in
 * `language` from the render cache, fresh, stale or rendered into it (a miss: a new search, mostly),
 * or undefined to let the router handle it (a redirect, an old language link or cookie, a
 * preview). The request's URL and headers are read once each: in Bun each read builds them from
 * the raw request, and they are most of what a hit costs. A miss runs in the language's context,
 * as the language plugin would run it, with the answer's own headers added to the cached set.
 */
export function homeFast(deps: Deps, request: Request, language: Language, answer: FastAnswer): Response | Promise<Response> | undefined {
  const requestHeaders = request.headers;
  const home = resolve(request.url, requestHeaders.get(HX_REQUEST_HEADER) === "true");
  if (home.redirect || home.oldLanguageLink) return undefined;
  // A preview clock (never in production) is rendered per request: the router takes it.
  if (previewOf(deps.config, requestHeaders)) return undefined;
  // The former switch's cookie naming the other language is redirected by the language plugin.
  if (language === deps.config.defaultLanguage && (cookieLanguage(requestHeaders.get("cookie")) ?? language) !== language) return undefined;
  const hit = deps.renderCache.peek(request, home.cacheKeys[language], home.policy, answer.headers, requestHeaders);
  if (hit) return hit;
  return inSite(siteRootOf(deps), language, "/", () => {
    const served = serveHome(deps, request, home, language, answer.headers);
    return served instanceof Response ? served : answer.guard(request, served);
  });
}

/**
 * A homepage request from the render cache in the current language (a hit comes back at once;
 * a miss renders), `headers` added to the answer; when every source failed and nothing was
 * rendered before, the unavailable notice.
 */
function serveHome(deps: Deps, request: Request, home: HomeRequest, language: Language, headers?: Readonly<Record<string, string>>): Response | Promise<Response> {
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
  return new Response(markup(UnavailablePage({ banner, now: deps.now(), head: unavailableHead() })), { status: 503, headers });
}

/**
 * A homepage variant at a preview minute (docs/public-pages.md, "Preview clock"): rendered for this
 * request only, never stored in the render cache, and sent `private, no-store` so no shared cache
 * keeps it either.
 */
async function servePreview(deps: Deps, home: HomeRequest, preview: PreviewClock): Promise<Response> {
  try {
    const rendered = await renderHome(deps, home, { now: preview.at, preview });
    const headers = { "content-type": "text/html; charset=utf-8", vary: "HX-Request", ...rendered.headers, ...PREVIEW_HEADERS };
    return new Response(rendered.body, { status: rendered.status ?? 200, headers });
  } catch (error) {
    if (error instanceof EventsUnavailableError) return unavailable(deps, home.variant);
    throw error;
  }
}

/** GET /, GET /event/:eventKey/* */
export function homeRoutes(deps: Deps) {
  const shareRedirect = async (rawKey: string): Promise<Response> => {
    const key = normaliseEventKey(rawKey.slice(0, 64));
    if (!key) return new Response(null, { status: 307, headers: { location: pageHref("/"), ...PER_REQUEST } });
    let location: string;
    try {
      const event = findEventByKey((await deps.events.load()).events, key);
      // An event no longer listed opens the homepage with the "no longer listed" notice.
      location = event ? eventModalHref(event) : pageHref(`/?${new URLSearchParams({ [EVENT_PARAM]: key }).toString()}`);
    } catch {
      // The store is down: the cached homepage may still hold the event.
      location = pageHref(`/?${new URLSearchParams({ [EVENT_PARAM]: key }).toString()}`);
    }
    return new Response(null, { status: 307, headers: { location, ...PER_REQUEST } });
  };

  return new Elysia({ name: "home" })
    .get("/", ({ request }) => {
      const home = resolve(request.url, isHtmx(request));
      if (home.redirect) return new Response(null, { status: 302, headers: { location: pageHref(home.redirect), vary: "HX-Request", ...PER_REQUEST } });
      const language = currentLanguage();
      const preview = previewOf(deps.config, request.headers);
      if (preview) return servePreview(deps, home, preview);
      // A hit comes back synchronously; only a miss waits for a render.
      return serveHome(deps, request, home, language);
    })
    .get("/event/:eventKey", ({ params }) => shareRedirect(params.eventKey))
    .get("/event/:eventKey/*", ({ params }) => shareRedirect(params.eventKey));
}
