// The application: security headers, error handling, the body cap, then the two route tables
// (api/index.ts and pages/index.ts).

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandler, HttpError } from "./lib/errors.ts";
import { MAX_BODY_BYTES } from "./lib/http.ts";
import { securityHeaders } from "./lib/security-headers.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { apiRoutes } from "./api/index.ts";
import { pageRoutes } from "./pages/index.ts";

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

/** Builds the whole application over its dependencies (no port is opened here). */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const headers = options.securityHeaders === false ? new Elysia({ name: "security-headers-off" }) : securityHeaders({ production: deps.config.nodeEnv === "production" });
  return new Elysia({ name: "finder" })
    .use(headers)
    .use(errorHandler(deps.log, errorViews))
    .use(bodyCap())
    .use(apiRoutes(deps))
    .use(pageRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
