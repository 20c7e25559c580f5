// The application: security headers, error handling, the body cap, then the two route tables
// (api/index.ts and pages/index.ts).

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandler, HttpError } from "./lib/errors.ts";
import { MAX_BODY_BYTES } from "./lib/http.ts";
import { securityHeaders, securityHeadersFiller } from "./lib/security-headers.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { apiRoutes } from "./api/index.ts";
import { pageRoutes } from "./pages/index.ts";
import { homeHit } from "./pages/home/home.routes.tsx";

/** Refuses bodies over the server-wide cap before any handler reads them (answered by the error handler). */
function bodyCap() {
  return new Elysia({ name: "body-cap" }).onRequest(({ request }) => {
    const length = Number(request.headers.get("content-length") ?? "0");
    if (Number.isFinite(length) && length > MAX_BODY_BYTES) throw new HttpError(413, "Request body too large");
  });
}

export interface AppOptions {
  /**
   * False leaves out the security headers. Only the benchmark's baseline uses it, to measure what
   * the headers cost; every real server sends them.
   */
  securityHeaders?: boolean;
}

/**
 * Builds the whole application over its dependencies (no port is opened here). When it listens,
 * a fresh cached homepage is answered straight from the render cache by the server's own route
 * table, before Elysia's request handling (the security headers are added there too); anything
 * else (stale, miss, redirect) goes through the app as usual. `app.handle` (the tests) always
 * takes the full path.
 */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const on = options.securityHeaders !== false;
  const production = deps.config.nodeEnv === "production";
  const fill = on ? securityHeadersFiller({ production }) : (response: Response) => response;
  const app: ReturnType<typeof build> = build(deps, on ? securityHeaders({ production }) : new Elysia({ name: "security-headers-off" }), {
    "/": {
      GET: (request: Request) => {
        const hit = homeHit(deps, request);
        return hit ? fill(hit) : app.fetch(request);
      },
    },
  });
  return app;
}

function build(deps: Deps, headers: Elysia<any, any, any, any, any, any, any>, routes: Record<string, Record<string, (request: Request) => Response | Promise<Response>>>) {
  return new Elysia({ name: "finder", serve: { routes } })
    .use(headers as Elysia)
    .use(errorHandler(deps.log, errorViews))
    .use(bodyCap())
    .use(apiRoutes(deps))
    .use(pageRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
