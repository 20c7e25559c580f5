// The homepage as the server answers it before any routing (see app.ts and docs/public-pages.md,
// "Render cache"): the server routes of "<base>/" and "<base>/en/", each with its language, and
// the answer of a GET there from the render cache, fresh, or rendered into it (a miss: a new
// search, mostly), or nothing, to let the app's router take the request.

import type { Deps } from "../../../deps.ts";
import { HX_REQUEST_HEADER } from "../../../lib/http/htmx.ts";
import { previewOf } from "../../../lib/preview-clock.ts";
import { inSite, type Language, languagePrefix, LANGUAGES } from "../../../lib/i18n/index.ts";
import { legacyLanguageOf, siteRootOf } from "../../language.plugin.ts";
import { resolveHomeRequest } from "./home-request.ts";
import { serveHome } from "./render.ts";

/**
 * The server routes of the hit path (app.ts): the homepage of each language ("<base>/",
 * "<base>/en/"), each with its language, so a hit needs no routing and no language lookup.
 */
export function homeHitRoutes(deps: Pick<Deps, "config">, hit: (request: Request, language: Language) => Response | Promise<Response>) {
  const site = siteRootOf(deps);
  return Object.fromEntries(LANGUAGES.map((language) => [`${site.basePath}${languagePrefix(language, site)}/`, { GET: (request: Request) => hit(request, language) }]));
}

/** How the server's route table answers what it serves itself (app.ts). */
export interface FastAnswer {
  /** Headers added to every answer (the security headers). */
  headers: Readonly<Record<string, string>>;
  /** Holds an answer under way to the request deadline, and answers its errors as the app does. */
  guard: (request: Request, answer: Promise<Response>) => Promise<Response>;
}

/**
 * A GET / (or /en/) in `language` from the render cache, fresh, stale or rendered into it, or
 * undefined to let the router handle it: a redirect to the canonical URL, an old language link or
 * cookie the language plugin sends on (its own rule, legacyLanguageOf), a preview. The request's
 * URL and headers are read once each: in Bun each read builds them from the raw request, and they
 * are most of what a hit costs. A miss runs in the language's context, as the language plugin
 * would run it, with the answer's own headers added to the cached set.
 */
export function homeFast(deps: Deps, request: Request, language: Language, answer: FastAnswer): Response | Promise<Response> | undefined {
  const requestHeaders = request.headers;
  const home = resolveHomeRequest(request.url, requestHeaders.get(HX_REQUEST_HEADER) === "true");
  if (home.redirect) return undefined;
  const site = siteRootOf(deps);
  if (legacyLanguageOf(site, language, home.queryLanguage, requestHeaders) !== null) return undefined;
  // A preview clock (never in production) is rendered per request: the router takes it.
  if (previewOf(deps.config, requestHeaders)) return undefined;
  const hit = deps.renderCache.peek(request, home.cacheKeys[language], home.policy, answer.headers, requestHeaders);
  if (hit) return hit;
  return inSite(site, language, "/", () => {
    const served = serveHome(deps, request, home, language, answer.headers);
    return served instanceof Response ? served : answer.guard(request, served);
  });
}
