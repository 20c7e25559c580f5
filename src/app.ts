// The application: security headers, error handling, the body cap, the OpenAPI document of the
// public API, then the two route tables (api/index.ts and pages/index.ts).

import { Elysia } from "elysia";
import type { Deps } from "./deps.ts";
import { errorAnswer, errorHandler, errorResponse, HttpError, type ErrorViews } from "./lib/http/errors.ts";
import { MAX_BODY_BYTES, UNAVAILABLE_HEADERS } from "./lib/http/responses.ts";
import { securityHeaders, securityHeaderSet } from "./lib/http/security-headers.ts";
import { errorViews } from "./pages/components/error.view.tsx";
import { apiRoutes } from "./api/index.ts";
import { pageRoutes } from "./pages/index.ts";
import { OPENAPI_PATH, openapiDocument } from "./api/openapi.ts";
import { apiDocsRoutes } from "./pages/developers/api-docs.routes.tsx";
import type { OpenApiDocument } from "./pages/developers/api-docs.view.tsx";
import { homeFast, homeHitRoutes } from "./pages/home/fast/hit.ts";
import { eventsListHit } from "./api/events.ts";
import { urlEncodingCheck } from "./lib/http/url-encoding.ts";
import { startRequestDeadline, type RequestDeadline } from "./lib/db/write-deadline.ts";

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
 * stopped answering mid-query. A write never gets this 503 once its COMMIT is sent, and never
 * commits once the 503 is out (src/lib/db/write-deadline.ts).
 */
export const REQUEST_DEADLINE_MS = 4_500;

/**
 * Races an answer under way against the deadline: past it, a 503 with Retry-After (and `headers`)
 * goes out and the late answer is dropped; unless the request's write is committing (`deadline`):
 * then the answer waits for the commit and says what became of it.
 */
function withinDeadline(deps: Deps, views: ErrorViews, headers: Record<string, string>, request: Request, answer: Promise<Response>, deadline?: RequestDeadline): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Response>((resolve) => {
    const pathOf = () => {
      try {
        return new URL(request.url).pathname;
      } catch {
        return "";
      }
    };
    const unavailable = () => {
      deps.log.warn("http", "Request over its deadline; answered 503", { method: request.method, path: pathOf(), deadlineMs: REQUEST_DEADLINE_MS });
      resolve(errorResponse(request, 503, "Service temporarily unavailable", {}, { ...headers, ...UNAVAILABLE_HEADERS }, views));
    };
    deadline?.onExpired(unavailable);
    timer = setTimeout(() => {
      if (!deadline) return unavailable();
      if (!deadline.expire()) deps.log.warn("http", "Request over its deadline after its write committed or while committing; the answer waits for it", { method: request.method, path: pathOf(), deadlineMs: REQUEST_DEADLINE_MS });
    }, REQUEST_DEADLINE_MS);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** Races each answer against the deadline, started before the handler runs (an Elysia higher-order function around its fetch). */
function withDeadline(deps: Deps, views: ErrorViews, headers: Record<string, string>) {
  return (handle: (request: Request) => Response | Promise<Response>) =>
    (request: Request): Response | Promise<Response> => {
      const deadline = startRequestDeadline(request, REQUEST_DEADLINE_MS);
      const answer = handle(request);
      return answer instanceof Promise ? withinDeadline(deps, views, headers, request, answer, deadline) : answer;
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
 * path (NEXT_PUBLIC_BASE_PATH) when one is set. When it listens, the two addresses read most on
 * festival night are answered by the server's own route table before Elysia's request handling
 * (with the same security headers): the homepage in each language, fresh from the render cache or
 * rendered into it (pages/home/fast/hit.ts: a hit, or a miss such as a new search, under the same
 * deadline and error answers), and a fresh cached events list (api/events.ts, eventsListHit).
 * Anything else (a redirect, an old language link, a preview, a stale or missing events list)
 * goes through the app as usual. `app.handle` (the tests) always takes the full path.
 */
export function createApp(deps: Deps, options: AppOptions = {}) {
  const withHeaders = options.securityHeaders !== false;
  const hitHeaders = withHeaders ? securityHeaderSet({ production: deps.config.nodeEnv === "production" }) : {};
  const views = errorViews(deps.config.defaultLanguage);
  // An answer under way on the server's route table: the deadline, and errors answered as the app's handler does.
  const guard = (request: Request, answer: Promise<Response>) =>
    withinDeadline(deps, views, hitHeaders, request, answer).catch((error: unknown) => errorAnswer(deps.log, views, request, error, undefined, hitHeaders));
  const app: ReturnType<typeof build> = build(
    deps,
    withHeaders,
    views,
    hitHeaders,
    {
      ...homeHitRoutes(deps, (request, language) => homeFast(deps, request, language, { headers: hitHeaders, guard }) ?? app.fetch(request)),
      [`${deps.config.basePath}/api/events`]: { GET: (request: Request) => eventsListHit(deps, request, hitHeaders) ?? app.fetch(request) },
    },
    // The docs page reads the document the OpenAPI plugin generates from the app's own routes.
    async () => (await app.handle(new Request(`http://localhost${deps.config.basePath}${OPENAPI_PATH}`))).json(),
  );
  return app;
}

/** The Elysia app; `lateHeaders` are the security headers (none when left out) of a deadline's 503. */
function build(deps: Deps, withHeaders: boolean, views: ErrorViews, lateHeaders: Record<string, string>, routes: ServerRoutes, readApiDocument: () => Promise<OpenApiDocument>) {
  const headers = withHeaders ? securityHeaders({ production: deps.config.nodeEnv === "production" }) : new Elysia({ name: "security-headers-off" });
  return new Elysia({ name: "finder", serve: { routes } })
    .wrap(withDeadline(deps, views, lateHeaders) as never)
    .use(headers)
    .use(errorHandler(deps.log, views))
    .use(bodyCap())
    .use(urlEncodingCheck(deps.config.basePath))
    .use(
      new Elysia({ prefix: deps.config.basePath })
        .use(openapiDocument(deps.config.siteUrl))
        .use(apiRoutes(deps))
        .use(apiDocsRoutes(OPENAPI_PATH, readApiDocument)),
    )
    .use(pageRoutes(deps));
}

export type App = ReturnType<typeof createApp>;
