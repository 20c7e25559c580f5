// The former FR/EN switch (see docs/languages.md, "Addresses"): GET /language/fr|en was the switch
// when the language lived in a cookie. Old links to it still work: it answers 303 to the page it
// was clicked on in that language's URL form and clears the old cookie.

import { Elysia } from "elysia";
import type { Deps } from "../../deps.ts";
import { NO_STORE_HEADERS } from "../../lib/http/responses.ts";
import { isLanguage, LANGUAGE_COOKIE, LANGUAGE_PARAM, pathLanguage, type Language, type SiteRoot } from "../../lib/i18n/index.ts";
import { siteRootOf } from "../language.plugin.ts";

/**
 * Where the switch returns: the same-origin page it was clicked on (from Referer), in `language`'s
 * URL form (`lang` parameter dropped), else that language's homepage. Never a path a browser reads
 * as another host (`//host`, `/\host`).
 */
export function switchReturnPath(request: Request, language: Language, site: SiteRoot): string {
  const home = `${site.basePath}${language === site.rootLanguage ? "" : `/${language}`}/`;
  try {
    const referer = new URL(request.headers.get("referer") ?? "");
    if (referer.host !== new URL(request.url).host || !referer.pathname.startsWith(site.basePath)) return home;
    let path = referer.pathname.slice(site.basePath.length) || "/";
    const from = pathLanguage(path, site);
    if (from !== site.rootLanguage) path = path.slice(from.length + 1) || "/";
    if (path.startsWith("/language/")) return home;
    referer.searchParams.delete(LANGUAGE_PARAM);
    const target = `${home.slice(0, -1)}${path}${referer.search}`;
    if (/^\/(?![/\\])/.test(target)) return target;
  } catch {}
  return home;
}

/** GET /language/:language */
export function languageRoutes(deps: Deps) {
  const site = siteRootOf(deps);
  return new Elysia({ name: "language-switch" }).get("/language/:language", ({ params, request }) => {
    if (!isLanguage(params.language)) return new Response("Unknown language", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", ...NO_STORE_HEADERS } });
    return new Response(null, {
      status: 303,
      headers: { location: switchReturnPath(request, params.language, site), "set-cookie": `${LANGUAGE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`, ...NO_STORE_HEADERS },
    });
  });
}
