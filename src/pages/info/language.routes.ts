// The FR/EN switch (see docs/languages.md): GET /language/fr|en keeps the choice in the `lang`
// cookie for a year (SameSite=Lax) and sends the visitor back to the page the switch was on.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { NO_STORE_HEADERS } from "../../lib/http.ts";
import { isLanguage, languageCookie, LANGUAGE_PARAM } from "../../lib/i18n/index.ts";

/**
 * Where the switch returns: the same-origin page it was clicked on (from Referer), without a
 * `lang` parameter (the cookie now decides), else the homepage. Never a path a browser reads as
 * another host (`//host`, `/\host`).
 */
export function switchReturnPath(request: Request): string {
  try {
    const referer = new URL(request.headers.get("referer") ?? "");
    if (referer.host !== new URL(request.url).host || referer.pathname.startsWith("/language/")) return "/";
    referer.searchParams.delete(LANGUAGE_PARAM);
    const path = referer.pathname + referer.search;
    if (/^\/(?![/\\])/.test(path)) return path;
  } catch {}
  return "/";
}

/** GET /language/:language */
export function languageRoutes(deps: Deps) {
  return new Elysia({ name: "language-switch" }).get("/language/:language", ({ params, request }) => {
    if (!isLanguage(params.language)) return new Response("Unknown language", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", ...NO_STORE_HEADERS } });
    return new Response(null, {
      status: 303,
      headers: { location: switchReturnPath(request), "set-cookie": languageCookie(params.language, deps.config.isProduction), ...NO_STORE_HEADERS },
    });
  });
}
