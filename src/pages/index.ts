// Every HTML page of finder, in one table. Each routes file serves the pages its name says.
// The home routes come last: they own `/` and the share route `/event/:eventKey`. The public pages
// are served once per language (language.plugin.ts); everything else once, under the base path.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { staticRoutes } from "./static.routes.ts";
import { submitRoutes } from "./submit/submit.routes.tsx";
import { reportRoutes } from "./report/report.routes.tsx";
import { partnerRoutes } from "./partners/feature-event.routes.tsx";
import { infoRoutes } from "./info/info.routes.tsx";
import { partnerStatsRoutes } from "./partners/partner-stats.routes.tsx";
import { hostEditRoutes } from "./host-edit/edit.routes.tsx";
import { crawlerRoutes } from "./info/crawlers.routes.ts";
import { languageRoutes } from "./info/language.routes.ts";
import { accountRoutes } from "./account/account.routes.tsx";
import { adminRoutes } from "./admin/admin.routes.tsx";
import { operationsRoutes } from "./admin/operations/operations.routes.tsx";
import { mailRoutes } from "./admin/operations/mail.routes.tsx";
import { editionsRoutes } from "./admin/operations/editions.routes.tsx";
import { moderationRoutes } from "./admin/content/moderation.routes.tsx";
import { contentRoutes } from "./admin/content/content.routes.tsx";
import { placementsRoutes } from "./admin/placements/placements.routes.tsx";
import { insightsRoutes } from "./admin/insights/insights.routes.tsx";
import { myNightRoutes } from "./my-night/my-night.routes.tsx";
import { manifestRoutes, serviceWorkerRoutes } from "./pack.routes.ts";
import { languagePlugin } from "./language.plugin.ts";
import { homeRoutes } from "./home/home.routes.tsx";
import { archiveRoutes } from "./archive/archive.routes.tsx";
import { previewRoutes } from "./preview.routes.ts";

/**
 * The public pages, one table per language (language.plugin.ts mounts a fresh one at the site's
 * root and under each other language's prefix): every page a visitor reads and its fragments.
 */
export function publicPageRoutes(deps: Deps) {
  return new Elysia()
    .use(submitRoutes(deps)) //             /submit-event
    .use(reportRoutes(deps)) //             POST /event/:eventKey/report
    .use(partnerRoutes(deps)) //            /feature-event, /feature-event/status
    .use(infoRoutes(deps)) //               /partner-success, /privacy, /terms
    .use(accountRoutes(deps)) //            /account/genres, /sign-in, /sign-out
    .use(myNightRoutes(deps)) //            /my-night, /my-night.ics
    .use(manifestRoutes(deps)) //           /manifest.webmanifest
    .use(archiveRoutes(deps)) //            /:year/ (an edition's archive; anything else 404)
    .use(homeRoutes(deps)); //              /, /event/:eventKey
}

/** Pages: the public pages in each language, static files, the account page and the admin console. */
export function pageRoutes(deps: Deps) {
  return new Elysia({ name: "pages" })
    .use(previewRoutes(deps)) // ?at= on any public page (outside production)
    .use(languagePlugin(deps, () => publicPageRoutes(deps))) // the public pages at / and /en/ (language.plugin.ts)
    .use(
      new Elysia({ prefix: deps.config.basePath })
        .use(staticRoutes()) //                 /static/*
        .use(crawlerRoutes(deps)) //            /robots.txt, /sitemap.xml
        .use(languageRoutes(deps)) //           /language/:language (the former FR/EN switch)
        .use(partnerStatsRoutes(deps)) //       /partner-stats/:activationId
        .use(hostEditRoutes(deps)) //           /edit-event/:linkId (the host's private edit link, in the host's language)
        .use(adminRoutes(deps)) //              /admin, /admin/login, /admin/logout, console areas
        .use(operationsRoutes(deps)) //         /admin/operations and its card actions, /admin/operations/jobs/:id
        .use(mailRoutes(deps)) //               /admin/operations/outbox[/:id[/resend]], /admin/operations/activity
        .use(editionsRoutes(deps)) //           /admin/operations/editions (+ /window, /start): edition windows, archives, rollover
        .use(contentRoutes(deps)) //            /admin/content, /admin/content/revisions[/:id[/restore]]
        .use(moderationRoutes(deps)) //         /admin/content/submissions*, /admin/content/banner
        .use(placementsRoutes(deps)) //         /admin/placements (orders queue, scheduler) and its form actions
        .use(insightsRoutes(deps)) //           /admin/insights (+ /stats, /discovery, /events, /users, /erase)
        .use(serviceWorkerRoutes()), //         /sw.js
    );
}
