// Public events API: the filtered list, one event, its calendar file, and the subscribable feed.
// Responses come from the render cache (tag live-events, 300 s) like the homepage, so festival
// traffic does not re-read the sources per request; admin writes invalidate them with the homepage.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { HttpError } from "../lib/http/errors.ts";
import { refusalBody } from "../lib/http/responses.ts";
import { memoised } from "../lib/memo/memo.ts";
import { LIVE_EVENTS_TAG } from "../lib/serving/invalidation.ts";
import { renderedFromRead, type CachePolicy, type Rendered } from "../lib/serving/render-cache.ts";
import { canonicalFilterQuery, parseFilters, type EventFilters } from "../lib/events/filter-query.ts";
import { activeFilterChips } from "../lib/events/filter-labels.ts";
import { filterEvents, searchSuggestion } from "../lib/events/filter-match.ts";
import { buildCalendarFeed, buildEventCalendar, calendarFileName, CALENDAR_CONTENT_TYPE } from "../lib/events/ics.ts";
import { normaliseEventKey } from "../lib/sheet/keys.ts";
import { findEventByKey } from "../lib/events/lookup.ts";
import { shareUrl, siteHost, SITE_NAME } from "../lib/links.ts";
import type { LiveRead } from "../lib/events/pipeline.ts";
import { FILTER_QUERY_PARAMETERS, LANG_PARAMETER, LANG_QUERY } from "./openapi.ts";
import { currentLanguage, languageCacheKey, t } from "../lib/i18n/index.ts";
import { currentEdition } from "../lib/events/editions.ts";

const POLICY: CachePolicy = { revalidate: 300, tags: [LIVE_EVENTS_TAG] };
/** Calendar files are written in the request's language. */
const CALENDAR_POLICY: CachePolicy = { ...POLICY };

const JSON_TYPE = { "content-type": "application/json; charset=utf-8" };

function jsonRender(body: unknown, status = 200): Rendered {
  return { body: JSON.stringify(body), status, headers: JSON_TYPE };
}

/** The calendar name's suffix for a filtered feed: the search and the active filter labels. */
function feedSummary(filters: EventFilters): string {
  const parts = activeFilterChips(filters).map((chip) => chip.label);
  if (filters.q) parts.unshift(`“${filters.q}”`);
  return parts.join(", ").slice(0, 120);
}

/** What a GET /api/events URL asks for: its filters and its render-cache key. */
interface EventsListRequest {
  filters: EventFilters;
  key: string;
}

/**
 * Reads a GET /api/events URL, memoised per URL (at most 2,000 kept): the same few filter URLs
 * come back again and again, and the reading is a pure function of the URL. The route and the
 * server's own hit path (eventsListHit) both read it here, so they always agree on the cache key.
 */
const eventsListRequest = memoised(2000, (url): EventsListRequest => {
  const filters = parseFilters(new URL(url).searchParams);
  const canonical = canonicalFilterQuery(filters);
  return { filters, key: `/api/events${canonical ? `?${canonical}` : ""}` };
});

/**
 * The events list's hit path, taken by the server before any routing (see app.ts): the fresh
 * cached response of a GET /api/events request, or undefined to let the route handle it.
 * `headers` (the security headers) are added to the cached header set once, not per hit.
 */
export function eventsListHit(deps: Pick<Deps, "renderCache">, request: Request, headers?: Readonly<Record<string, string>>): Response | undefined {
  return deps.renderCache.peek(request, eventsListRequest(request.url).key, POLICY, headers);
}

/** GET /api/events, /api/events/:eventKey, /api/events/:eventKey/calendar.ics, /calendar.ics */
export function eventsApi(deps: Deps) {
  const live = async (): Promise<LiveRead> => {
    try {
      return await deps.events.load();
    } catch {
      throw new HttpError(503, "Events are unavailable right now.");
    }
  };
  // The refresh hint follows the current edition's window (the team's, when set in the console).
  const calendarOptions = () => {
    const now = deps.now();
    return { siteName: SITE_NAME, siteHost: siteHost(deps.config), now, edition: currentEdition(now, deps.editions.windows) };
  };
  // Keys of the wrong shape are answered at once, without a live read.
  const keyOrNotFound = (raw: string) => {
    const key = normaliseEventKey(raw.length > 64 ? "" : raw);
    if (!key) throw new HttpError(404, "Event not found");
    return key;
  };
  const notFound = jsonRender(refusalBody("Event not found"), 404);

  return new Elysia({ name: "events-api" })
    .get("/api/events", ({ request }) => {
      const { filters, key } = eventsListRequest(request.url);
      return deps.renderCache.serve(request, key, POLICY, async () => {
        const read = await live();
        const now = deps.now();
        const matching = filterEvents(read.events, filters, now);
        const suggestion = searchSuggestion(read.events, filters, matching.length, now);
        return renderedFromRead(read, jsonRender({ success: true, count: matching.length, events: matching, ...(suggestion ? { suggestion } : {}) }));
      });
    }, { detail: { tags: ["events"], summary: "Events matching the homepage's filters", description: "`{success, count, events}` in homepage order (with `q`: exact matches first, then folded, then typo matches); when a search finds fewer than 3 events and a respelling finds more, `suggestion: {q, count}` (\"Did you mean\"). Cached 300 s per canonical query.", parameters: [...FILTER_QUERY_PARAMETERS] } })
    .get("/api/events/:eventKey", ({ request, params }) => {
      const key = keyOrNotFound(params.eventKey);
      return deps.renderCache.serve(request, `/api/events/${key}`, POLICY, async () => {
        const read = await live();
        const event = findEventByKey(read.events, key);
        return renderedFromRead(read, event ? jsonRender({ success: true, event }) : notFound);
      });
    }, { detail: { tags: ["events"], summary: "One event by its key", description: "`{success, event}`; 404 `{success:false, error}` for an unknown key (case-insensitive)." } })
    .get("/api/events/:eventKey/calendar.ics", ({ request, params }) => {
      const key = keyOrNotFound(params.eventKey);
      const language = currentLanguage();
      return deps.renderCache.serve(request, languageCacheKey(`/api/events/${key}/calendar.ics`, language), CALENDAR_POLICY, async () => {
        const read = await live();
        const event = findEventByKey(read.events, key);
        if (!event) return renderedFromRead(read, notFound);
        // A file the visitor adds by hand carries the reminder; the feed below never does.
        const body = buildEventCalendar(event, { ...calendarOptions(), shareUrl: shareUrl(deps.config, event), reminderMinutes: deps.config.calendarReminderMinutes });
        const fileName = calendarFileName(event);
        if (!body || !fileName) return renderedFromRead(read, jsonRender(refusalBody("Add an unambiguous date to enable calendar export."), 422));
        return renderedFromRead(read, { body, headers: { "content-type": CALENDAR_CONTENT_TYPE, "content-disposition": `attachment; filename="${fileName}"` } });
      });
    }, { detail: { tags: ["calendar"], summary: "One event as an iCalendar file", description: "Paris wall-clock times, texts in `lang` (fr or en; else the site's root language), a reminder CALENDAR_REMINDER_MINUTES before the start; 422 when the event has no unambiguous date." }, query: LANG_QUERY })
    .get("/calendar.ics", ({ request, query }) => {
      // The homepage's filter parameters choose the events, so "house in the 11e" can be subscribed to.
      const filters = parseFilters(query as Record<string, string>);
      const canonical = canonicalFilterQuery(filters);
      const language = currentLanguage();
      return deps.renderCache.serve(request, `/calendar.ics?${canonical ? `${canonical}&` : ""}lang=${language}`, CALENDAR_POLICY, async () => {
        const read = await live();
        const matching = filterEvents(read.events, filters, deps.now());
        const summary = feedSummary(filters);
        const calendarName = `${t("ics.feedName", { site: SITE_NAME })}${summary ? ` · ${summary}` : ""}`;
        // No reminderMinutes: a subscribed feed of the whole city ringing for every event would be hostile.
        const body = buildCalendarFeed(matching, { ...calendarOptions(), shareUrlFor: (event) => shareUrl(deps.config, event), calendarName });
        return renderedFromRead(read, { body, headers: { "content-type": CALENDAR_CONTENT_TYPE, "content-disposition": 'inline; filename="finder.ics"' } });
      });
    }, { detail: { tags: ["calendar"], summary: "Subscribable feed of the events matching the filters", description: "The same events as /api/events for the same query, texts in `lang` (fr or en; else the site's root language); subscribe with the webcal:// scheme. No reminders (VALARM).", parameters: [...FILTER_QUERY_PARAMETERS, LANG_PARAMETER] } });
}
