// GET /api/og: the link-preview PNG (see docs/public-pages.md, "Link-preview image"), 120 requests
// per IP per hour. Images are kept in memory by normalised parameters, so crawlers fetching the
// same preview cost one render.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { clientIp } from "../lib/client-ip.ts";
import { limiterParts, RATE_LIMITS } from "../lib/rate-limit/fixed-window.ts";
import { siteHost, SITE_NAME } from "../lib/links.ts";
import { createOgImages, type OgImagesOptions } from "../lib/og/service.ts";
import type { CachedImage } from "../lib/og/image-cache.ts";
import { currentLanguage } from "../lib/i18n/index.ts";
import { PRIVATE_NO_STORE_HEADERS } from "../lib/http/responses.ts";
import { OG_QUERY_PARAMETERS } from "./openapi.ts";

/** The image Cache-Control: one day shared, a week stale; the fallback image carries it too. */
export const OG_CACHE_CONTROL = "public, s-maxage=86400, stale-while-revalidate=604800";

/** Test seams: a renderer that fails or hangs, a shorter budget. */
export type OgApiOptions = Pick<OgImagesOptions, "render" | "budgetMs" | "cache">;

function imageResponse(request: Request, image: CachedImage, xCache: "HIT" | "MISS"): Response {
  // The words are in the URL's language (`?lang=`, else the root language): nothing but the URL decides.
  const headers = { "content-type": "image/png", "cache-control": OG_CACHE_CONTROL, etag: image.etag, "x-cache": xCache, vary: "Accept-Encoding" };
  if (request.headers.get("if-none-match") === image.etag) return new Response(null, { status: 304, headers });
  return new Response(image.png, { headers });
}

function rateLimited(retryAfter?: number): Response {
  const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8", ...PRIVATE_NO_STORE_HEADERS };
  if (retryAfter) headers["retry-after"] = String(retryAfter);
  return new Response("Rate limit exceeded", { status: 429, headers });
}

/** GET /api/og */
export function ogApi(deps: Deps, options: OgApiOptions = {}) {
  const images = createOgImages({ ...options, site: { name: SITE_NAME, host: siteHost(deps.config) }, log: deps.log });
  // The in-memory limiter front, synced in batches to the shared Postgres counters: a cached image
  // costs no database round trip. An unavailable limiter lets the request through.
  const limiter = deps.tracking.limiter;

  return new Elysia({ name: "og-api" }).get(
    "/api/og",
    async ({ request, server }) => {
      const limit = limiter.hit(RATE_LIMITS.ogImageIp, [limiterParts.ip(clientIp(deps.config, request, server))], { failOpen: true });
      if (!limit.allowed) return rateLimited(limit.status === "blocked" ? limit.retryAfter : undefined);
      const url = new URL(request.url);
      // `?lang=` (set by the pages' og:image URLs; read by the language plugin), else the root language.
      const { image, state } = await images.forQuery(url.searchParams, currentLanguage());
      return imageResponse(request, image, state === "HIT" ? "HIT" : "MISS");
    },
    { detail: { tags: ["site"], summary: "Link-preview image (PNG, 1200×630)", description: "The image of a page's og:image, its words in `lang`; ETag and a day's shared cache; 120 requests per IP per hour (429 with Retry-After).", parameters: [...OG_QUERY_PARAMETERS] } },
  );
}
