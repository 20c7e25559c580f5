// The information pages: /partner-success (cached 300 s), /privacy, /terms and /offline (fully
// static, rendered and compressed once when the routes are built); see docs/public-pages.md,
// "Caching rules". /offline is what the service worker shows for a page it does not keep when the
// network fails ("Offline").

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { markup } from "../../lib/http/responses.ts";
import { createStaticPage, STATIC_PAGE_CACHE_CONTROL } from "../../lib/serving/static-page.ts";
import { currentLanguage, inSite, type Language, languageCacheKey, LANGUAGES } from "../../lib/i18n/index.ts";
import { publicUrl } from "../../lib/config.ts";
import { alternateLinks } from "../components/layout.tsx";
import { siteHost } from "../../lib/links.ts";
import { siteRootOf } from "../language.plugin.ts";
import { OfflinePage, PartnerSuccessPage, PrivacyPage, TermsPage } from "./info.view.tsx";

const SHELL_SECONDS = 300;

/** One static page per language, built once (in that language's site, so its links carry the prefix), chosen per request. */
function perLanguage(deps: Deps, path: string, render: () => JSX.Element): (request: Request) => Response {
  const site = siteRootOf(deps);
  const pages = Object.fromEntries(LANGUAGES.map((language) => [language, createStaticPage(inSite(site, language, path, () => markup(render())))])) as Record<Language, (request: Request) => Response>;
  return (request) => pages[currentLanguage()](request);
}

export function infoRoutes(deps: Deps) {
  const host = siteHost(deps.config);
  const privacy = perLanguage(deps, "/privacy", () => <PrivacyPage contactEmail={deps.config.partnerEmail} siteHost={host} retentionDays={deps.config.trackingRetentionDays} alternates={alternateLinks(publicUrl(deps.config, "/privacy"))} />);
  const offline = perLanguage(deps, "/offline", () => <OfflinePage />);
  const terms = perLanguage(deps, "/terms", () => <TermsPage contactEmail={deps.config.partnerEmail} siteHost={host} alternates={alternateLinks(publicUrl(deps.config, "/terms"))} />);

  return new Elysia({ name: "info-pages" })
    .get("/partner-success", ({ request }) => {
      const language = currentLanguage();
      return deps.renderCache.serve(request, languageCacheKey("/partner-success", language), { revalidate: SHELL_SECONDS }, async () => ({ body: markup(<PartnerSuccessPage partnerEmail={deps.config.partnerEmail} />) }));
    })
    .get("/privacy", ({ request }) => privacy(request))
    .get("/terms", ({ request }) => terms(request))
    .get("/offline", ({ request }) => offline(request));
}
