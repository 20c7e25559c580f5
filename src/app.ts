// The application: error handling, the body cap, then the two route tables (api/index.ts and
// pages/index.ts).

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandler, errorResponse } from "./lib/errors.ts";
import { MAX_BODY_BYTES } from "./lib/http.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { apiRoutes } from "./api/index.ts";
import { pageRoutes } from "./pages/index.ts";
import { homeHit } from "./pages/home/home.routes.tsx";

/** Refuses bodies over the server-wide cap before any handler reads them. */
function bodyCap() {
  return new Elysia({ name: "body-cap" }).onRequest(({ request }) => {
    const length = Number(request.headers.get("content-length") ?? "0");
    if (Number.isFinite(length) && length > MAX_BODY_BYTES) {
      return errorResponse(request, 413, "Request body too large", {}, {}, errorViews);
    }
  });
}

/**
 * Builds the whole application over its dependencies (no port is opened here). When it listens,
 * a fresh cached homepage is answered straight from the render cache by the server's own route
 * table, before Elysia's request handling; anything else (stale, miss, redirect) goes through the
 * app as usual. `app.handle` (the tests) always takes the full path.
 */
export function createApp(deps: Deps) {
  const app: ReturnType<typeof build> = build(deps, {
    "/": { GET: (request: Request) => homeHit(deps, request) ?? app.fetch(request) },
  });
  return app;
}

function build(deps: Deps, routes: Record<string, Record<string, (request: Request) => Response | Promise<Response>>>) {
  return new Elysia({ name: "finder", serve: { routes } })
    .use(errorHandler(deps.log, errorViews))
    .use(bodyCap())
    .use(apiRoutes(deps))
    .use(pageRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
