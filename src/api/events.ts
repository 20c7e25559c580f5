// Public events API: the filtered list, one event, its calendar file, and the subscribable feed.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { json } from "../lib/http.ts";
import { HttpError, NotFoundError } from "../lib/errors.ts";
import { filterEvents, parseFilters } from "../lib/events/filters.ts";
import { buildCalendarFeed, buildEventCalendar, calendarFileName, CALENDAR_CONTENT_TYPE } from "../lib/events/ics.ts";
import { findEventByKey, shareUrl, siteHost, SITE_NAME } from "../lib/events/public-links.ts";
import type { LiveRead } from "../lib/events/pipeline.ts";

const PUBLIC_CACHE = { "cache-control": "public, max-age=0, s-maxage=60, stale-while-revalidate=300" };

/** GET /api/events, /api/events/:eventKey, /api/events/:eventKey/calendar.ics, /calendar.ics */
export function eventsApi(deps: Deps) {
  const live = async (): Promise<LiveRead> => {
    try {
      return await deps.events.load();
    } catch {
      throw new HttpError(503, "Events are unavailable right now.");
    }
  };
  const calendarOptions = () => ({ siteName: SITE_NAME, siteHost: siteHost(deps.config), now: deps.now() });

  return new Elysia({ name: "events-api" })
    .get("/api/events", async ({ query }) => {
      const { events } = await live();
      const matching = filterEvents(events, parseFilters(query as Record<string, string>));
      return json({ success: true, count: matching.length, events: matching }, 200, PUBLIC_CACHE);
    })
    .get("/api/events/:eventKey", async ({ params }) => {
      const event = findEventByKey((await live()).events, params.eventKey);
      if (!event) throw new NotFoundError("Event not found");
      return json({ success: true, event }, 200, PUBLIC_CACHE);
    })
    .get("/api/events/:eventKey/calendar.ics", async ({ params }) => {
      const event = findEventByKey((await live()).events, params.eventKey);
      if (!event) throw new NotFoundError("Event not found");
      const body = buildEventCalendar(event, { ...calendarOptions(), shareUrl: shareUrl(deps.config, event) });
      const fileName = calendarFileName(event);
      if (!body || !fileName) throw new HttpError(422, "Add an unambiguous date to enable calendar export.");
      return new Response(body, {
        headers: { "content-type": CALENDAR_CONTENT_TYPE, "content-disposition": `attachment; filename="${fileName}"`, ...PUBLIC_CACHE },
      });
    })
    .get("/calendar.ics", async () => {
      const { events } = await live();
      const body = buildCalendarFeed(events, { ...calendarOptions(), shareUrlFor: (event) => shareUrl(deps.config, event), calendarName: `${SITE_NAME} · Fête de la Musique` });
      return new Response(body, { headers: { "content-type": CALENDAR_CONTENT_TYPE, "content-disposition": 'inline; filename="finder.ics"', ...PUBLIC_CACHE } });
    });
}
