// The homepage and the share route (see docs/public-pages.md, "Homepage", "Share route" and "Render cache").
// GET / (and /en/, language.plugin.ts) is served from the render cache (300 s) per normalised filter
// query and language: the full page, the results fragment for htmx, or the event-modal fragment for
// htmx with `event`; Vary: Accept-Encoding, HX-Request (the language is in the URL). The server
// answers most of these before this route (fast/hit.ts); the URL reading, the renders and what
// they keep live in fast/ too.
// GET /event/<key>/<slug> is answered per request with a 307 to the modal URL.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { isHtmx } from "../../lib/http/htmx.ts";
import { EVENT_PARAM, eventModalHref, pageHref } from "../../lib/links.ts";
import { normaliseEventKey } from "../../lib/sheet/keys.ts";
import { findEventByKey } from "../../lib/events/lookup.ts";
import { findArchivedEvent } from "../../lib/events/edition-events.ts";
import { previewOf } from "../../lib/preview-clock.ts";
import { currentLanguage } from "../../lib/i18n/index.ts";
import { resolveHomeRequest } from "./fast/home-request.ts";
import { PER_REQUEST_HEADERS as PER_REQUEST } from "../../lib/http/responses.ts";
import { serveHome, servePreview } from "./fast/render.ts";

/** GET /, GET /event/:eventKey/* */
export function homeRoutes(deps: Deps) {
  const shareRedirect = async (rawKey: string): Promise<Response> => {
    const key = normaliseEventKey(rawKey.slice(0, 64));
    if (!key) return new Response(null, { status: 307, headers: { location: pageHref("/"), ...PER_REQUEST } });
    let location: string;
    try {
      const event = findEventByKey((await deps.events.load()).events, key);
      // An event of an archived edition opens over its archive; one no longer listed anywhere opens
      // the homepage with the "no longer listed" notice.
      const archived = event ? undefined : await findArchivedEvent(deps.db, key, deps.editions.windows);
      location = event
        ? eventModalHref(event)
        : archived
          ? pageHref(`/${archived.year}/?${new URLSearchParams({ [EVENT_PARAM]: archived.event.eventKey }).toString()}`)
          : pageHref(`/?${new URLSearchParams({ [EVENT_PARAM]: key }).toString()}`);
    } catch {
      // The store is down: the cached homepage may still hold the event.
      location = pageHref(`/?${new URLSearchParams({ [EVENT_PARAM]: key }).toString()}`);
    }
    return new Response(null, { status: 307, headers: { location, ...PER_REQUEST } });
  };

  return new Elysia({ name: "home" })
    .get("/", ({ request }) => {
      const home = resolveHomeRequest(request.url, isHtmx(request));
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
