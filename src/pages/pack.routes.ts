// The festival pack (see docs/public-pages.md, "Offline"): the web app manifest and the service
// worker, both at the site root. The worker must be served from `/sw.js` (not under /static, and
// never fingerprinted) so that its scope is the whole site and its address stays the same when its
// code changes; `no-cache` makes browsers check it for updates on every visit.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { currentLanguage, type Language, languagePrefix, LANGUAGES, type SiteRoot, translate } from "../lib/i18n/index.ts";
import { SITE_NAME } from "../lib/links.ts";
import { assetUrl, staticAssets } from "../lib/serving/static-assets.ts";
import { THEME_COLOUR } from "./components/layout.tsx";

/** The web app manifest in one language; icons are linked by their fingerprinted addresses. */
export function webAppManifest(language: Language, site: SiteRoot = { basePath: "", rootLanguage: language }): Record<string, unknown> {
  const home = `${site.basePath}${languagePrefix(language, site)}/`;
  return {
    name: translate(language, "manifest.name"),
    short_name: SITE_NAME,
    description: translate(language, "manifest.description"),
    id: home,
    start_url: home,
    scope: `${site.basePath}/`,
    display: "standalone",
    background_color: THEME_COLOUR,
    theme_color: THEME_COLOUR,
    lang: language,
    icons: [
      { src: assetUrl("icons/icon-192.png"), sizes: "192x192", type: "image/png", purpose: "any" },
      { src: assetUrl("icons/icon-512.png"), sizes: "512x512", type: "image/png", purpose: "any" },
      { src: assetUrl("icons/icon-maskable-512.png"), sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [{ name: translate(language, "save.navLink"), url: `${home}my-night` }],
  };
}

/** GET /manifest.webmanifest, served under each language's prefix (docs/languages.md) */
export function manifestRoutes(deps: Pick<Deps, "config">) {
  const site: SiteRoot = { basePath: deps.config.basePath, rootLanguage: deps.config.defaultLanguage };
  const manifests = new Map(LANGUAGES.map((language) => [language, JSON.stringify(webAppManifest(language, site))]));
  return new Elysia().get(
    "/manifest.webmanifest",
    () => new Response(manifests.get(currentLanguage()), { headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": "public, max-age=3600" } }),
  );
}

/** GET /sw.js (under the base path, so its scope is the whole site) */
export function serviceWorkerRoutes() {
  return new Elysia({ name: "service-worker" })
    .get("/sw.js", () => {
      const worker = staticAssets().byPath.get("sw.js");
      if (!worker) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
      return new Response(worker.identity, { headers: { "content-type": worker.type, "cache-control": "no-cache" } });
    });
}
