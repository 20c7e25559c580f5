// /feature-event (static shell, 300 s) and its spotlight status (cached 60 s); see
// docs/public-pages.md, "Caching rules".

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { markup, PER_REQUEST_HEADERS } from "../../lib/http/responses.ts";
import { isHtmx } from "../../lib/http/htmx.ts";
import { readSpotlightStatus } from "../../lib/placements/spotlight-status.ts";
import { readAudienceFigures } from "../../lib/placements/audience.ts";
import { currentLanguage } from "../../lib/i18n/index.ts";
import { publicUrl } from "../../lib/config.ts";
import { alternateLinks } from "../components/layout.tsx";
import { BANNER_CACHE_TAG, findBannerSettings, publicBanner } from "../../lib/site/banner.ts";
import { FeatureEventPage, packages, SpotlightStatusBlock, SpotlightStatusPage, type PackageOffer } from "./feature-event.view.tsx";

const SHELL_SECONDS = 300;
const STATUS_SECONDS = 60;

/** The partner offer page and its live spotlight status. */
export function partnerRoutes(deps: Deps) {
  const offers = (): PackageOffer[] =>
    packages().map((offer) => ({
      ...offer,
      href: deps.config.paymentLinks[offer.key] ?? `mailto:${deps.config.partnerEmail}?subject=${encodeURIComponent(`Booking: ${offer.name}`)}`,
    }));

  const names = async () => {
    try {
      const { events } = await deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false });
      return events;
    } catch (error) {
      // The partner pages stay up without the calendar: names fall back to keys, counts are hidden.
      deps.log.warn("feature-event", "Live events unavailable while rendering the partner page", undefined, error);
      return undefined;
    }
  };

  const engagement = async () => {
    try {
      return await readAudienceFigures(deps.db, deps.now());
    } catch (error) {
      deps.log.warn("feature-event", "Audience figures unavailable; the hero shows the calendar figures only", undefined, error);
      return {};
    }
  };

  const status = async () => {
    const events = (await names()) ?? [];
    return readSpotlightStatus(deps.db, { now: deps.now(), slots: deps.config.spotlightSlots, names: new Map(events.map((e) => [e.eventKey, e.eventName])) });
  };

  return new Elysia({ name: "partner-pages" })
    .get("/feature-event", ({ request }) => {
      const language = currentLanguage();
      return deps.renderCache.serve(request, `/feature-event?lang=${language}`, { revalidate: SHELL_SECONDS, tags: [BANNER_CACHE_TAG] }, async () => {
        const events = (await names()) ?? [];
        const audience = {
          eventCount: events.length,
          arrondissementCount: new Set(events.map((e) => e.arrondissement).filter((a) => a !== "unknown")).size,
          ...(await engagement()),
        };
        // The sliding banner as on the homepage; a save drops this page (path and tag).
        const banner = publicBanner(await findBannerSettings(deps));
        return { body: markup(<FeatureEventPage packages={offers()} partnerEmail={deps.config.partnerEmail} audience={audience} alternates={alternateLinks(publicUrl(deps.config, "/feature-event"))} banner={banner} />) };
      });
    })
    .get("/feature-event/status", async ({ request }) => {
      const fragment = isHtmx(request);
      const language = currentLanguage();
      try {
        return await deps.renderCache.serve(request, `/feature-event?status=${fragment ? "fragment" : "page"}&lang=${language}`, { revalidate: STATUS_SECONDS, vary: ["HX-Request"] }, async () => {
          const now = deps.now();
          const current = await status();
          return { body: markup(fragment ? <SpotlightStatusBlock status={current} now={now} /> : <SpotlightStatusPage status={current} now={now} />) };
        });
      } catch (error) {
        // No earlier render and the schedule cannot be read (database down): say so, uncached.
        deps.log.warn("feature-event", "Spotlight status unavailable", undefined, error);
        const body = markup(fragment ? <SpotlightStatusBlock status={undefined} now={deps.now()} /> : <SpotlightStatusPage status={undefined} now={deps.now()} />);
        return new Response(body, { headers: { "content-type": "text/html; charset=utf-8", ...PER_REQUEST_HEADERS, vary: "HX-Request" } });
      }
    });
}
