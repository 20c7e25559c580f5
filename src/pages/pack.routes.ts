// The festival pack (see docs/public-pages.md, "Offline"): the web app manifest and the service
// worker, both at the site root. The worker must be served from `/sw.js` (not under /static, and
// never fingerprinted) so that its scope is the whole site and its address stays the same when its
// code changes; `no-cache` makes browsers check it for updates on every visit.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { LANGUAGES, LANGUAGE_VARY, requestLanguage, translate, type Language } from "../lib/i18n/index.ts";
import { SITE_NAME } from "../lib/links.ts";
import { assetUrl, staticAssets } from "../lib/static-assets.ts";
import { THEME_COLOUR } from "./components/layout.tsx";

/** The web app manifest in one language; icons are linked by their fingerprinted addresses. */
export function webAppManifest(language: Language): Record<string, unknown> {
  return {
    name: translate(language, "manifest.name"),
    short_name: SITE_NAME,
    description: translate(language, "manifest.description"),
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: THEME_COLOUR,
    theme_color: THEME_COLOUR,
    lang: language,
    icons: [
      { src: assetUrl("icons/icon-192.png"), sizes: "192x192", type: "image/png", purpose: "any" },
      { src: assetUrl("icons/icon-512.png"), sizes: "512x512", type: "image/png", purpose: "any" },
      { src: assetUrl("icons/icon-maskable-512.png"), sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [{ name: translate(language, "save.navLink"), url: "/my-night" }],
  };
}

/** GET /manifest.webmanifest (in the request's language, docs/languages.md), GET /sw.js */
export function packRoutes(deps: Pick<Deps, "config">) {
  const manifests = new Map(LANGUAGES.map((language) => [language, JSON.stringify(webAppManifest(language))]));
  return new Elysia({ name: "pack" })
    .get("/manifest.webmanifest", ({ request }) => {
      const language = requestLanguage(request, deps.config.defaultLanguage);
      return new Response(manifests.get(language), { headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": "public, max-age=3600", vary: LANGUAGE_VARY.join(", ") } });
    })
    .get("/sw.js", () => {
      const worker = staticAssets().byPath.get("sw.js");
      if (!worker) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
      return new Response(worker.identity, { headers: { "content-type": worker.type, "cache-control": "no-cache" } });
    });
}
