// The information pages: /partner-success (cached 300 s), /privacy, /terms and /offline (fully
// static, rendered and compressed once when the routes are built); see docs/public-pages.md,
// "Caching rules". /offline is what the service worker shows for a page it does not keep when the
// network fails ("Offline").

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { markup } from "../../lib/http.ts";
import { createStaticPage, STATIC_PAGE_CACHE_CONTROL } from "../../lib/static-page.ts";
import { inLanguage, languageCacheKey, LANGUAGE_VARY, LANGUAGES, requestLanguage, type Language } from "../../lib/i18n/index.ts";
import { publicUrl } from "../../lib/config.ts";
import { alternateLinks } from "../components/layout.tsx";
import { siteHost } from "../../lib/links.ts";
import { OfflinePage, PartnerSuccessPage, PrivacyPage, TermsPage } from "./info.view.tsx";

const SHELL_SECONDS = 300;

/** One static page per language, chosen per request. */
function perLanguage(deps: Deps, render: () => JSX.Element): (request: Request) => Response {
  const pages = Object.fromEntries(
    LANGUAGES.map((language) => [language, createStaticPage(markup(inLanguage(language, render)), STATIC_PAGE_CACHE_CONTROL, "text/html; charset=utf-8", ["Accept-Encoding", ...LANGUAGE_VARY].join(", "))]),
  ) as Record<Language, (request: Request) => Response>;
  return (request) => pages[requestLanguage(request, deps.config.defaultLanguage)](request);
}

export function infoRoutes(deps: Deps) {
  const host = siteHost(deps.config);
  const privacy = perLanguage(deps, () => <PrivacyPage contactEmail={deps.config.partnerEmail} siteHost={host} retentionDays={deps.config.trackingRetentionDays} alternates={alternateLinks(publicUrl(deps.config, "/privacy"))} />);
  const offline = perLanguage(deps, () => <OfflinePage />);
  const terms = perLanguage(deps, () => <TermsPage contactEmail={deps.config.partnerEmail} siteHost={host} alternates={alternateLinks(publicUrl(deps.config, "/terms"))} />);

  return new Elysia({ name: "info-pages" })
    .get("/partner-success", ({ request }) => {
      const language = requestLanguage(request, deps.config.defaultLanguage);
      return deps.renderCache.serve(request, languageCacheKey("/partner-success", language), { revalidate: SHELL_SECONDS, vary: [...LANGUAGE_VARY] }, () =>
        inLanguage(language, async () => ({ body: markup(<PartnerSuccessPage partnerEmail={deps.config.partnerEmail} />) })),
      );
    })
    .get("/privacy", ({ request }) => privacy(request))
    .get("/terms", ({ request }) => terms(request))
    .get("/offline", ({ request }) => offline(request));
}
