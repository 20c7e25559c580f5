// /robots.txt (static) and /sitemap.xml (regenerated with the calendar: tag live-events, 300 s);
// see docs/public-pages.md, "Robots and sitemap".

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { HttpError } from "../../lib/http/errors.ts";
import { LIVE_EVENTS_TAG } from "../../lib/serving/invalidation.ts";
import { renderedFromRead } from "../../lib/serving/render-cache.ts";
import { createStaticPage } from "../../lib/serving/static-page.ts";
import { robotsTxt, sitemapXml } from "../../lib/site/crawlers.ts";
import { EDITIONS_CACHE_TAG } from "../../lib/site/edition-settings.ts";
import { currentEdition, editionYearOfDate, eventsOfEdition } from "../../lib/events/editions.ts";
import { listEditionArchives } from "../../lib/store/edition-archive.ts";

const SITEMAP_POLICY = { revalidate: 300, tags: [LIVE_EVENTS_TAG, EDITIONS_CACHE_TAG] };

export function crawlerRoutes(deps: Deps) {
  const robots = createStaticPage(robotsTxt(deps.config), undefined, "text/plain; charset=utf-8");
  return new Elysia({ name: "crawler-files" })
    .get("/robots.txt", ({ request }) => robots(request))
    .get("/sitemap.xml", ({ request }) =>
      deps.renderCache.serve(request, "/sitemap.xml", SITEMAP_POLICY, async () => {
        const read = await deps.events.load().catch(() => {
          throw new HttpError(503, "The sitemap is unavailable right now.");
        });
        // The upcoming part is the current edition's events; each earlier edition is its archive page.
        const now = deps.now();
        const current = currentEdition(now, deps.editions.windows);
        // A read from the saved list (the database stalled or down) asks the database nothing more.
        const archives = read.degraded ? [] : await listEditionArchives(deps.db);
        const years = new Set(archives.map((archive) => archive.year));
        for (const event of read.events) {
          const year = editionYearOfDate(event.date);
          if (year !== null && year < current.year) years.add(year);
        }
        const archiveYears = [...years].filter((year) => year < current.year).sort((a, b) => b - a);
        return renderedFromRead(read, { body: sitemapXml(deps.config, eventsOfEdition(read.events, current.year), now, archiveYears), headers: { "content-type": "application/xml; charset=utf-8" } });
      }),
    );
}
