// The route table: one plugin per area, in one place.

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandler, errorResponse } from "./lib/errors.ts";
import { MAX_BODY_BYTES } from "./lib/http.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { staticRoutes } from "./pages/static.routes.ts";
import { healthApi } from "./api/health.ts";
import { homeRoutes } from "./pages/home/home.routes.tsx";
import { eventsApi } from "./api/events.ts";
import { trackingApi } from "./api/track.ts";
import { eventSubmissionsApi } from "./api/event-submissions.ts";
import { submitRoutes } from "./pages/submit/submit.routes.tsx";
import { cronApi } from "./api/cron.ts";
import { ogApi } from "./api/og.ts";
import { partnerRoutes } from "./pages/partners/feature-event.routes.tsx";
import { authApi } from "./api/auth.ts";
import { adminAuthApi } from "./api/admin-auth.ts";
import { adminSessionsApi } from "./api/admin-sessions.ts";
import { adminStatusApi } from "./api/admin-status.ts";
import { accountRoutes } from "./pages/account/account.routes.tsx";
import { adminRoutes } from "./pages/admin/admin.routes.tsx";
import { operationsRoutes } from "./pages/admin/operations/operations.routes.tsx";

/** Refuses bodies over the server-wide cap before any handler reads them. */
function bodyCap() {
  return new Elysia({ name: "body-cap" }).onRequest(({ request }) => {
    const length = Number(request.headers.get("content-length") ?? "0");
    if (Number.isFinite(length) && length > MAX_BODY_BYTES) {
      return errorResponse(request, 413, "Request body too large", {}, {}, errorViews);
    }
  });
}

/** Builds the whole application over its dependencies (no port is opened here). */
export function createApp(deps: Deps) {
  return new Elysia({ name: "finder" })
    .use(errorHandler(deps.log, errorViews))
    .use(bodyCap())
    .use(staticRoutes())
    .use(healthApi())
    .use(eventsApi(deps))
    .use(trackingApi(deps))
    .use(eventSubmissionsApi(deps))
    .use(submitRoutes(deps))
    .use(cronApi(deps))
    .use(ogApi(deps))
    .use(partnerRoutes(deps))
    .use(authApi(deps))
    .use(adminAuthApi(deps))
    .use(adminSessionsApi(deps))
    .use(adminStatusApi(deps))
    .use(accountRoutes(deps))
    .use(adminRoutes(deps))
    .use(operationsRoutes(deps))
    .use(homeRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
