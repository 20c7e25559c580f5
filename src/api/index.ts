// Every JSON, file and webhook endpoint of finder, in one table.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { healthApi } from "./health.ts";
import { eventsApi } from "./events.ts";
import { trackingApi } from "./track.ts";
import { eventSubmissionsApi } from "./event-submissions.ts";
import { eventReportsApi } from "./event-reports.ts";
import { adminReportsApi } from "./admin-reports.ts";
import { cronApi } from "./cron.ts";
import { ogApi } from "./og.ts";
import { authApi } from "./auth.ts";
import { adminAuthApi } from "./admin-auth.ts";
import { adminSessionsApi } from "./admin-sessions.ts";
import { adminStatusApi } from "./admin-status.ts";
import { adminStoreApi } from "./admin-store.ts";
import { adminVenuesApi } from "./admin-venues.ts";
import { adminSubmissionsApi } from "./admin-submissions.ts";
import { adminHostChangesApi } from "./admin-host-changes.ts";
import { adminBannerApi } from "./admin-banner.ts";
import { adminEditionsApi } from "./admin-editions.ts";
import { adminSheetApi } from "./admin-sheet.ts";
import { webhooksApi } from "./webhooks.ts";
import { partnerStatsApi } from "./partner-stats.ts";
import { adminOrdersApi } from "./admin-orders.ts";
import { adminMailApi } from "./admin-mail.ts";
import { adminPlacementsApi } from "./admin-placements.ts";
import { adminInsightsApi } from "./admin-insights.ts";

/** The API: public reads, tracking, submissions, sign-in, cron and the admin JSON API. */
export function apiRoutes(deps: Deps) {
  return new Elysia({ name: "api" })
    .use(healthApi()) //                    /api/health
    .use(eventsApi(deps)) //                /api/events, /api/events/:key(.ics), /calendar.ics
    .use(trackingApi(deps)) //              /api/track, /api/track/discovery, /api/user/preference
    .use(eventSubmissionsApi(deps)) //      /api/event-submissions
    .use(eventReportsApi(deps)) //          /api/events/:key/reports
    .use(cronApi(deps)) //                  /api/cron/:task, /api/revalidate/deploy
    .use(ogApi(deps)) //                    /api/og
    .use(authApi(deps)) //                  /api/auth/*
    .use(adminAuthApi(deps)) //             /api/admin/login, /api/admin/logout
    .use(adminSessionsApi(deps)) //         /api/admin/sessions
    .use(adminStatusApi(deps)) //           /api/admin/health, data-store status, KV
    .use(adminStoreApi(deps)) //            /api/admin/sheet/{upload,export,import}, backups, revalidate, recovery/*, jobs/:id
    .use(adminSubmissionsApi(deps)) //      /api/admin/submissions, …/:id/{accept,decline}, …/settings
    .use(adminHostChangesApi(deps)) //      /api/admin/changes, …/:id/{accept,refuse}; /api/admin/submissions/:id/edit-link[/revoke]
    .use(adminReportsApi(deps)) //          /api/admin/reports, …/:eventKey/{cancel,dismiss}
    .use(adminBannerApi(deps)) //           /api/admin/banner
    .use(adminEditionsApi(deps)) //         /api/admin/editions
    .use(adminVenuesApi(deps)) //           /api/admin/venues, /api/admin/venues/:id/pin
    .use(adminSheetApi(deps)) //            /api/admin/sheet (GET, PATCH, PUT), /api/admin/sheet/revisions[/:id[/restore]]
    .use(adminOrdersApi(deps)) //           /api/admin/orders, /api/admin/orders/:id(/fulfil), /api/admin/orders/test
    .use(adminMailApi(deps)) //             /api/admin/outbox[/:id[/resend]], /api/admin/activity
    .use(adminPlacementsApi(deps)) //       /api/admin/placements/:tier(/:id/cancel|reschedule, /clear-queue, /clear-history)
    .use(partnerStatsApi(deps)) //          /api/partner-stats/:activationId
    .use(webhooksApi(deps)) //              /api/webhooks/payment
    .use(adminInsightsApi(deps)); //        /api/admin/insights(/audience.csv), /api/admin/users(.csv), /api/admin/users/erase
}
