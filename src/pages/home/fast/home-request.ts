// What a homepage URL asks for (see docs/public-pages.md, "Homepage" and "Render cache"): the
// variant, the filter state, the render-cache key in each language and how it is cached, read
// once per URL and memoised, for the server's hit path (hit.ts) and the route alike.

import { memoisedWhenRepeated } from "../../../lib/memo/memo.ts";
import { formDecoded } from "../../../lib/http/forms.ts";
import { LIVE_EVENTS_TAG } from "../../../lib/serving/invalidation.ts";
import type { CachePolicy } from "../../../lib/serving/render-cache.ts";
import { BANNER_CACHE_TAG } from "../../../lib/site/banner.ts";
import { FILTER_PARAMS, type EventFilters } from "../../../lib/events/filter-query.ts";
import { queryWithoutSearch } from "../../../lib/events/filter-links.ts";
import type { Moment } from "../../../lib/events/filter-moment.ts";
import { EVENT_PARAM, SLUG_PARAM } from "../../../lib/links.ts";
import { normaliseEventKey } from "../../../lib/sheet/keys.ts";
import { type Language, LANGUAGES, queryLanguage } from "../../../lib/i18n/index.ts";
import { MAP_DATA_PARAM_VALUE } from "../../components/map.view.tsx";
import { NEAR_PARAM, NEAR_PARAM_VALUE } from "../near-me.view.tsx";
import { homeFiltersOf, pagedQuery, pageOf, queryOfParts } from "../listing.ts";

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

/** What a homepage URL asks for, read once per URL. */
export interface HomeRequest {
  /** Where a plain request with a non-canonical query is sent instead. */
  redirect?: string;
  variant: HomeVariant;
  /** The cache key in each language. */
  cacheKeys: Readonly<Record<Language, string>>;
  /** The language the URL's `lang=` names (an old link the language plugin may redirect), else null. */
  queryLanguage: Language | null;
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
    queryLanguage: queryLanguage(url),
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

/** The reading of a homepage URL, memoised (`htmx`: the request says HX-Request). */
export function resolveHomeRequest(url: string, htmx: boolean): HomeRequest {
  return htmx ? resolveHtmx(url) : resolvePlain(url);
}
