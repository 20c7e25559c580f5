// The application: error handling, the body cap, then the two route tables (api/index.ts and
// pages/index.ts).

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandler, errorResponse } from "./lib/errors.ts";
import { MAX_BODY_BYTES } from "./lib/http.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { apiRoutes } from "./api/index.ts";
import { pageRoutes } from "./pages/index.ts";

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
    .use(apiRoutes(deps))
    .use(pageRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
