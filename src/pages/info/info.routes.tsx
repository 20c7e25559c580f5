// The information pages: /partner-success (cached 300 s), /privacy and /terms (fully static,
// rendered and compressed once when the routes are built); see docs/public-pages.md, "Caching rules".

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { markup } from "../../lib/http.ts";
import { createStaticPage } from "../../lib/static-page.ts";
import { siteHost } from "../../lib/links.ts";
import { PartnerSuccessPage, PrivacyPage, TermsPage } from "./info.view.tsx";

const SHELL_SECONDS = 300;

export function infoRoutes(deps: Deps) {
  const privacy = createStaticPage(markup(<PrivacyPage contactEmail={deps.config.partnerEmail} siteHost={siteHost(deps.config)} retentionDays={deps.config.trackingRetentionDays} />));
  const terms = createStaticPage(markup(<TermsPage contactEmail={deps.config.partnerEmail} siteHost={siteHost(deps.config)} />));

  return new Elysia({ name: "info-pages" })
    .get("/partner-success", ({ request }) =>
      deps.renderCache.serve(request, "/partner-success", { revalidate: SHELL_SECONDS }, async () => ({ body: markup(<PartnerSuccessPage partnerEmail={deps.config.partnerEmail} />) })),
    )
    .get("/privacy", ({ request }) => privacy(request))
    .get("/terms", ({ request }) => terms(request));
}
