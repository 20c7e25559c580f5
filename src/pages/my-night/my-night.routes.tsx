// "My night" (see docs/public-pages.md, "My night"): GET /my-night?e=<keys> renders the saved
// events (the keys come from the browser; nothing is stored on the server) and GET
// /my-night.ics?e=<keys> is one calendar file of them. Both come from the render cache per set of
// valid keys (tag live-events, 300 s), so a night shared around a crowd is rendered once.
// Whatever the parameter holds, the answer is a page: bad or unknown keys are left out with a notice.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { publicUrl } from "../../lib/config.ts";
import { EventsUnavailableError } from "../../lib/events/pipeline.ts";
import { markup, PER_REQUEST_HEADERS } from "../../lib/http/responses.ts";
import { buildCalendarFeed, CALENDAR_CONTENT_TYPE } from "../../lib/events/ics.ts";
import { currentEdition } from "../../lib/events/editions.ts";
import { webcalUrl } from "../components/calendar-feed.view.tsx";
import { LIVE_EVENTS_TAG } from "../../lib/serving/invalidation.ts";
import { pageHref, pageUrl, shareUrl, SITE_NAME, siteHost } from "../../lib/links.ts";
import { renderedFromRead, type CachePolicy, type Rendered } from "../../lib/serving/render-cache.ts";
import { isValidIsoDate } from "../../lib/sheet/dates.ts";
import { MyNightPage, MY_NIGHT_TEXT } from "./my-night.view.tsx";
import { nightEvents, nightPath, NIGHT_PARAM, readNightKeys, walkingRoutes, type NightKeys } from "./night.ts";
import { currentLanguage } from "../../lib/i18n/index.ts";
import { PREVIEW_HEADERS, previewOf, type PreviewClock } from "../../lib/preview-clock.ts";

const POLICY: CachePolicy = { revalidate: 300, tags: [LIVE_EVENTS_TAG] };
const HTML = { "content-type": "text/html; charset=utf-8" };

/** The name of the night's calendar file inside calendar apps, in the current language ("finder · Ma soirée"). */
export function nightCalendarName(): string {
  return `${SITE_NAME} · ${MY_NIGHT_TEXT.title}`;
}

const TEXT = { "content-type": "text/plain; charset=utf-8" };

/**
 * The render-cache key of a night: the valid keys in the order given plus the counts of ignored
 * parts (they change the notice). The order is kept because it is the order of the share link.
 */
function cacheKey(path: string, night: NightKeys): string {
  return `${path}?${NIGHT_PARAM}=${night.keys.join(",")}|${night.malformed}|${night.overCap}`;
}

/** The `e` parameter of a request (a repeated parameter counts as one list). */
function nightParam(request: Request): NightKeys {
  return readNightKeys(new URL(request.url).searchParams.getAll(NIGHT_PARAM).join(","));
}

/** GET /my-night, GET /my-night.ics */
export function myNightRoutes(deps: Deps) {
  const renderPage = async (night: NightKeys, preview: PreviewClock | null = null): Promise<Rendered> => {
    const read = await deps.events.load();
    const { events, missing } = nightEvents(read.events, night.keys);
    const { routes, unplaced } = walkingRoutes(events);
    const keys = events.map((event) => event.eventKey);
    const path = nightPath(keys);
    const body = MyNightPage({
      events,
      missing: missing.length,
      malformed: night.malformed,
      overCap: night.overCap,
      routes,
      unplaced: unplaced.length,
      path: pageHref(path),
      shareUrl: pageUrl(deps.config, path),
      calendarPath: pageHref(nightPath(keys, ".ics")),
      // The same file as a subscription: the keys in the address are the whole list, nothing is stored.
      subscribeUrl: webcalUrl(pageUrl(deps.config, nightPath(keys, ".ics"))),
      renderedAt: preview ? preview.at : deps.now(),
      preview,
    });
    return renderedFromRead(read, { body: markup(body), headers: HTML });
  };

  const renderCalendar = async (night: NightKeys): Promise<Rendered> => {
    const read = await deps.events.load();
    const { events } = nightEvents(read.events, night.keys);
    if (!events.some((event) => isValidIsoDate(event.date))) {
      return renderedFromRead(read, { body: MY_NIGHT_TEXT.calendarNoEvents, status: 404, headers: TEXT });
    }
    const now = deps.now();
    const body = buildCalendarFeed(events, {
      siteName: SITE_NAME,
      siteHost: siteHost(deps.config),
      now,
      edition: currentEdition(now, deps.editions.windows),
      // The visitor picked these events: each one reminds (unlike the whole-city /calendar.ics).
      reminderMinutes: deps.config.calendarReminderMinutes,
      shareUrlFor: (event) => shareUrl(deps.config, event),
      calendarName: nightCalendarName(),
    });
    return renderedFromRead(read, { body, headers: { "content-type": CALENDAR_CONTENT_TYPE, "content-disposition": 'attachment; filename="my-night.ics"' } });
  };

  // Every source down and nothing rendered before: the page with the notice (503), never an error page.
  const unavailablePage = () =>
    new Response(
      markup(MyNightPage({ events: [], missing: 0, malformed: 0, overCap: 0, routes: [], unplaced: 0, path: pageHref("/my-night"), shareUrl: pageUrl(deps.config, "/my-night"), calendarPath: pageHref("/my-night.ics"), subscribeUrl: webcalUrl(pageUrl(deps.config, "/my-night.ics")), renderedAt: deps.now(), unavailable: true })),
      { status: 503, headers: { ...HTML, ...PER_REQUEST_HEADERS, "retry-after": "30" } },
    );

  return new Elysia({ name: "my-night" })
    .get("/my-night", ({ request }) => {
      const night = nightParam(request);
      const language = currentLanguage();
      // At a preview minute (never in production) the page is this visitor's alone: not cached.
      const preview = previewOf(deps.config, request.headers);
      if (preview) {
        return renderPage(night, preview).then(
          (rendered) => new Response(rendered.body, { headers: { ...HTML, ...PREVIEW_HEADERS } }),
          (error: unknown) => {
            if (error instanceof EventsUnavailableError) return unavailablePage();
            throw error;
          },
        );
      }
      const served = deps.renderCache.serve(request, `${cacheKey("/my-night", night)}@${language}`, POLICY, () => renderPage(night));
      if (served instanceof Response) return served;
      return served.catch((error: unknown) => {
        if (error instanceof EventsUnavailableError) return unavailablePage();
        throw error;
      });
    })
    .get("/my-night.ics", ({ request }) => {
      const night = nightParam(request);
      const language = currentLanguage();
      if (night.keys.length === 0) return new Response(MY_NIGHT_TEXT.calendarNoKeys, { status: 404, headers: { ...TEXT, ...PER_REQUEST_HEADERS } });
      const served = deps.renderCache.serve(request, `${cacheKey("/my-night.ics", night)}@${language}`, POLICY, () => renderCalendar(night));
      if (served instanceof Response) return served;
      return served.catch((error: unknown) => {
        if (error instanceof EventsUnavailableError) return new Response(MY_NIGHT_TEXT.unavailable, { status: 503, headers: { ...TEXT, ...PER_REQUEST_HEADERS, "retry-after": "30" } });
        throw error;
      });
    });
}
