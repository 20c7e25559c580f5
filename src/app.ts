// The application: security headers, error handling, the body cap, the OpenAPI document of the
// public API, then the two route tables (api/index.ts and pages/index.ts).

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorHandler, errorResponse, HttpError } from "./lib/errors.ts";
import { MAX_BODY_BYTES, UNAVAILABLE_HEADERS } from "./lib/http.ts";
import { securityHeaders, securityHeaderSet } from "./lib/security-headers.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { apiRoutes } from "./api/index.ts";
import { pageRoutes } from "./pages/index.ts";
import { OPENAPI_PATH, openapiDocument } from "./api/openapi.ts";
import { apiDocsRoutes } from "./pages/developers/api-docs.routes.tsx";
import type { OpenApiDocument } from "./pages/developers/api-docs.view.tsx";
import { homeHit, homeHitRoutes } from "./pages/home/home.routes.tsx";
import { eventsListHit } from "./api/events.ts";

/** Refuses bodies over the server-wide cap before any handler reads them (answered by the error handler). */
function bodyCap() {
  return new Elysia({ name: "body-cap" }).onRequest(({ request }) => {
    const length = Number(request.headers.get("content-length") ?? "0");
    if (Number.isFinite(length) && length > MAX_BODY_BYTES) throw new HttpError(413, "Request body too large");
  });
}

/**
 * Every request is answered within this long (docs/operations.md, "When the database is down"):
 * past it a 503 with Retry-After goes out and the late work's answer is dropped. The database
 * part of a request fails sooner (the breaker fails at once while the server is known down, and a
 * connection attempt gets 3 s), so this only catches what is stuck in between: a connection that
 * stopped answering mid-query.
 */
export const REQUEST_DEADLINE_MS = 4_500;

/** Races each answer against the deadline (an Elysia higher-order function around its fetch). */
function withDeadline(deps: Deps, views: ReturnType<typeof errorViews>, headers: Record<string, string>) {
  return (handle: (request: Request) => Response | Promise<Response>) =>
    (request: Request): Response | Promise<Response> => {
      const answer = handle(request);
      if (!(answer instanceof Promise)) return answer;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<Response>((resolve) => {
        timer = setTimeout(() => {
          let path = "";
          try {
            path = new URL(request.url).pathname;
          } catch {}
          deps.log.warn("http", "Request over its deadline; answered 503", { method: request.method, path, deadlineMs: REQUEST_DEADLINE_MS });
          resolve(errorResponse(request, 503, "Service temporarily unavailable", {}, { ...headers, ...UNAVAILABLE_HEADERS }, views));
        }, REQUEST_DEADLINE_MS);
      });
      return Promise.race([answer, late]).finally(() => clearTimeout(timer));
    };
}

export interface AppOptions {
  /**
   * False leaves out the security headers. Only the benchmark's baseline uses it, to measure what
   * the headers cost; every real server sends them.
   */
  securityHeaders?: boolean;
}

type ServerRoutes = Record<string, Record<string, (request: Request) => Response | Promise<Response>>>;

/**
 * Builds the whole application over its dependencies (no port is opened here), under the base
 * path (NEXT_PUBLIC_BASE_PATH) when one is set. When it listens,
 * a fresh cached homepage (in each language) or events list (`/`, `/api/events`, the two read most on festival
 * night) is answered straight from the render cache by the server's own route table, before
 * Elysia's request handling (with the same security headers); anything else
 * (stale, miss, redirect) goes through the app as usual. `app.handle` (the tests) always takes
 * the full path.
 */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const withHeaders = options.securityHeaders !== false;
  const hitHeaders = withHeaders ? securityHeaderSet({ production: deps.config.nodeEnv === "production" }) : undefined;
  const app: ReturnType<typeof build> = build(
    deps,
    withHeaders,
    {
      ...homeHitRoutes(deps, (request, language) => homeHit(deps, request, language, hitHeaders) ?? app.fetch(request)),
      [`${deps.config.basePath}/api/events`]: { GET: (request: Request) => eventsListHit(deps, request, hitHeaders) ?? app.fetch(request) },
    },
    // The docs page reads the document the OpenAPI plugin generates from the app's own routes.
    async () => (await app.handle(new Request(`http://localhost${deps.config.basePath}${OPENAPI_PATH}`))).json(),
  );
  return app;
}

function build(deps: Deps, withHeaders: boolean, routes: ServerRoutes, readApiDocument: () => Promise<OpenApiDocument>) {
  const headers = withHeaders ? securityHeaders({ production: deps.config.nodeEnv === "production" }) : new Elysia({ name: "security-headers-off" });
  const views = errorViews(deps.config.defaultLanguage);
  const lateHeaders = withHeaders ? securityHeaderSet({ production: deps.config.nodeEnv === "production" }) : {};
  return new Elysia({ name: "finder", serve: { routes } })
    .wrap(withDeadline(deps, views, lateHeaders) as never)
    .use(headers)
    .use(errorHandler(deps.log, views))
    .use(bodyCap())
    .use(
      new Elysia({ prefix: deps.config.basePath })
        .use(openapiDocument(deps.config.siteUrl))
        .use(apiRoutes(deps))
        .use(apiDocsRoutes(OPENAPI_PATH, readApiDocument)),
    )
    .use(pageRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
