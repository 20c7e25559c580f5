// The language of a request, in one place (docs/languages.md, "Addresses"). The language comes
// from the URL only: the root language (DEFAULT_LANGUAGE, French unless configured) at
// "<base path>/", the other under "<base path>/<language>/". A public page therefore depends on
// its URL alone and varies on nothing but Accept-Encoding (and HX-Request where a fragment shares
// its URL), so a shared cache can hold it (docs/operations.md, "Behind a shared cache").
//
// The plugin reads the language once per request and runs the whole handling in it (the app's
// fetch is wrapped), mounts the public pages once per language under the language's prefix, and
// sends old links (`?lang=`, the `lang` cookie of the former switch) to their URL form.

import { Elysia, type AnyElysia } from "elysia";
import type { Deps } from "../deps.ts";
import { NO_STORE_HEADERS } from "../lib/http/responses.ts";
import { cookieLanguage, FALLBACK_LANGUAGE, inSite, type Language, LANGUAGE_COOKIE, LANGUAGE_PARAM, languagePrefix, LANGUAGES, pathLanguage, queryLanguage, type SiteRoot } from "../lib/i18n/index.ts";

/** Where a request's path starts in its URL ("http://host:port/…"). */
function pathStart(url: string): number {
  const at = url.indexOf("/", url.indexOf("//") + 2);
  return at === -1 ? url.length : at;
}

/** The request's path and query after the base path ("/en/submit-event?x=1"), or null when the request is outside the site. */
function sitePath(url: string, site: SiteRoot): string | null {
  const path = url.slice(pathStart(url));
  if (site.basePath === "") return path;
  if (!path.startsWith(site.basePath)) return null;
  const rest = path.slice(site.basePath.length);
  if (rest === "") return "/";
  if (rest[0] === "?") return `/${rest}`; // "/fete?x" is "/fete/?x"
  return rest[0] === "/" ? rest : null; // "/fetes" is not under "/fete"
}

/**
 * The language of a request and its path within that language. The path's prefix decides; an
 * unprefixed URL with `?lang=` takes that language (the calendar files, preview images and the
 * manifest are one address for every language and say theirs that way; an old page link with it
 * is redirected before any rendering).
 */
export function languageOfUrl(url: string, site: SiteRoot): { language: Language; path: string } {
  const full = sitePath(url, site) ?? "/";
  // The path alone: the switch must not repeat a query a cached page was first rendered for.
  const query = full.indexOf("?");
  const path = query === -1 ? full : full.slice(0, query);
  const language = pathLanguage(path, site);
  if (language !== site.rootLanguage) {
    const rest = path.slice(language.length + 1);
    return { language, path: rest === "" ? "/" : rest };
  }
  return { language: queryLanguage(url) ?? (inEnglishByDefault(path) ? FALLBACK_LANGUAGE : language), path };
}

/**
 * The console, partner statistics and the JSON API are written in English (docs/languages.md):
 * they run in English unless `?lang=` names another language. Calendar files and preview images
 * take the root language like the pages that link them.
 */
function inEnglishByDefault(path: string): boolean {
  if (path.startsWith("/admin") || path.startsWith("/partner-stats")) return true;
  return path.startsWith("/api/") && !path.startsWith("/api/og") && !path.endsWith(".ics");
}

/** The URL form of an old link: the language's prefix, the path, the query without `lang`. */
export function languageLocation(site: SiteRoot, language: Language, url: URL): string {
  const params = new URLSearchParams(url.search);
  params.delete(LANGUAGE_PARAM);
  const query = params.toString();
  const path = url.pathname.slice(site.basePath.length) || "/";
  return `${site.basePath}${languagePrefix(language, site)}${path}${query ? `?${query}` : ""}`;
}

/** Clears the former switch's cookie: the URL now says the language, and a stale cookie would send the visitor back. */
const CLEAR_LANGUAGE_COOKIE = `${LANGUAGE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;

/**
 * The language an old link names on the pages of `language`, or null when the URL says it all:
 * `?lang=<language>` (`fromQuery`, as queryLanguage reads it), else a `lang` cookie of the former
 * switch naming a language other than the root one. Old links are sent on from the root
 * language's (unprefixed) pages only. The one rule of legacyLanguageRedirect, which the homepage's
 * hit path asks as well (pages/home/fast/hit.ts) so it never answers what would be redirected.
 */
export function legacyLanguageOf(site: SiteRoot, language: Language, fromQuery: Language | null, headers: Headers): Language | null {
  if (language !== site.rootLanguage) return null;
  if (fromQuery) return fromQuery;
  const fromCookie = cookieLanguage(headers.get("cookie"));
  return fromCookie !== null && fromCookie !== site.rootLanguage ? fromCookie : null;
}

/**
 * Where an old link to an unprefixed public page goes (legacyLanguageOf): the page's URL in the
 * language it names. Null when the URL already says it all. The answer is per visitor (the
 * cookie), so never stored by a cache.
 */
export function legacyLanguageRedirect(request: Request, site: SiteRoot): Response | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const language = legacyLanguageOf(site, site.rootLanguage, queryLanguage(request.url), request.headers);
  if (language === null) return null;
  const headers: Record<string, string> = { location: languageLocation(site, language, new URL(request.url)), ...NO_STORE_HEADERS };
  if (cookieLanguage(request.headers.get("cookie"))) headers["set-cookie"] = CLEAR_LANGUAGE_COOKIE;
  return new Response(null, { status: 302, headers });
}

/** The site root of a configuration. */
export function siteRootOf(deps: Pick<Deps, "config">): SiteRoot {
  return { basePath: deps.config.basePath, rootLanguage: deps.config.defaultLanguage };
}

/**
 * The language plugin: every request runs in the language its URL names (the app's fetch is
 * wrapped, so API routes, error pages and the home hit path see it too), and `publicPages()` (a
 * fresh route table each call) is mounted at the site's root and under each other language's
 * prefix. Nothing else in the app reads a language from a request.
 */
export function languagePlugin(deps: Pick<Deps, "config">, publicPages: () => AnyElysia) {
  const site = siteRootOf(deps);
  let plugin = new Elysia({ name: "language" })
    .wrap(((handle: (request: Request, ...rest: unknown[]) => unknown) =>
      (request: Request, ...rest: unknown[]) => {
        const { language, path } = languageOfUrl(request.url, site);
        return inSite(site, language, path, () => handle(request, ...rest));
      }) as never)
    .use(
      new Elysia({ name: `language-${site.rootLanguage}`, prefix: site.basePath })
        .onBeforeHandle(({ request }) => legacyLanguageRedirect(request, site) ?? undefined)
        .use(publicPages()),
    );
  for (const language of LANGUAGES) {
    if (language === site.rootLanguage) continue;
    plugin = plugin.use(new Elysia({ name: `language-${language}`, prefix: `${site.basePath}/${language}` }).use(publicPages()));
  }
  return plugin;
}
