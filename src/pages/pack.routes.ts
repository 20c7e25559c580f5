// The festival pack (see docs/public-pages.md, "Offline"): the web app manifest and the service
// worker, both at the site root. The worker must be served from `/sw.js` (not under /static, and
// never fingerprinted) so that its scope is the whole site and its address stays the same when its
// code changes; `no-cache` makes browsers check it for updates on every visit.

import { Elysia } from "elysia";
import { SITE_NAME } from "../lib/links.ts";
import { assetUrl, staticAssets } from "../lib/static-assets.ts";
import { THEME_COLOUR } from "./components/layout.tsx";


/** The manifest's visitor-facing texts (one object, for the message catalogue). */
export const MANIFEST_TEXT = {
  name: `${SITE_NAME} · Fête de la Musique, Paris`,
  description: "What is on near you tonight across Paris, during Fête de la Musique week.",
} as const;

/** The web app manifest; icons are linked by their fingerprinted addresses. */
export function webAppManifest(): Record<string, unknown> {
  return {
    name: MANIFEST_TEXT.name,
    short_name: SITE_NAME,
    description: MANIFEST_TEXT.description,
    id: "/",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: THEME_COLOUR,
    theme_color: THEME_COLOUR,
    lang: "en",
    icons: [
      { src: assetUrl("icons/icon-192.png"), sizes: "192x192", type: "image/png", purpose: "any" },
      { src: assetUrl("icons/icon-512.png"), sizes: "512x512", type: "image/png", purpose: "any" },
      { src: assetUrl("icons/icon-maskable-512.png"), sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
    shortcuts: [{ name: "My night", url: "/my-night" }],
  };
}

/** GET /manifest.webmanifest, GET /sw.js */
export function packRoutes() {
  const manifest = JSON.stringify(webAppManifest());
  return new Elysia({ name: "pack" })
    .get("/manifest.webmanifest", () => new Response(manifest, { headers: { "content-type": "application/manifest+json; charset=utf-8", "cache-control": "public, max-age=3600" } }))
    .get("/sw.js", () => {
      const worker = staticAssets().byPath.get("sw.js");
      if (!worker) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
      return new Response(worker.identity, { headers: { "content-type": worker.type, "cache-control": "no-cache" } });
    });
}
