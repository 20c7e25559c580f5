// GET /api/og: the link-preview PNG (domain.md §18). Rendered images are kept by normalised
// parameters, so crawlers fetching the same preview cost one render; 120 requests per IP per hour.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { clientIp } from "../lib/client-ip.ts";
import { NO_STORE_HEADERS } from "../lib/http.ts";
import { limiterParts, RATE_LIMITS } from "../lib/rate-limit.ts";
import { trackingFor } from "../lib/tracking/service.ts";
import { siteHost, SITE_NAME } from "../lib/events/public-links.ts";
import { ogCacheKey, parseOgParams } from "../lib/og/params.ts";
import { OG_RENDER_BUDGET_MS, renderFallbackPng, renderOgPng, withinBudget } from "../lib/og/render.ts";

const IMAGE_HEADERS = { "content-type": "image/png", "cache-control": "public, s-maxage=86400, stale-while-revalidate=604800" };
const MAX_CACHED_IMAGES = 200;

export interface OgApiOptions {
  /** The renderer (tests pass one that fails or hangs). */
  render?: typeof renderOgPng;
  budgetMs?: number;
}

/** GET /api/og */
export function ogApi(deps: Deps, options: OgApiOptions = {}) {
  const render = options.render ?? renderOgPng;
  const budgetMs = options.budgetMs ?? OG_RENDER_BUDGET_MS;
  const site = { name: SITE_NAME, host: siteHost(deps.config) };
  const limiter = trackingFor(deps).limiter;
  const images = new Map<string, Uint8Array>();
  let fallback: Uint8Array | undefined;
  const fallbackPng = () => (fallback ??= renderFallbackPng(SITE_NAME));
  const png = (bytes: Uint8Array) => new Response(bytes as Uint8Array<ArrayBuffer>, { headers: IMAGE_HEADERS });

  return new Elysia({ name: "og-api" }).get("/api/og", async ({ request }) => {
    // The in-memory limiter front (batched to the shared Postgres counters): no database round
    // trip per image request.
    const limit = limiter.hit(RATE_LIMITS.ogImageIp, [limiterParts.ip(clientIp(request.headers))], { failOpen: true });
    if (!limit.allowed) {
      const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8", ...NO_STORE_HEADERS, "cache-control": "private, no-store" };
      if (limit.status === "blocked") headers["retry-after"] = String(limit.retryAfter);
      return new Response("Rate limit exceeded", { status: 429, headers });
    }
    const params = parseOgParams(new URL(request.url).searchParams, SITE_NAME);
    const key = ogCacheKey(params);
    const cached = images.get(key);
    if (cached) return png(cached);
    try {
      const { value, timedOut } = await withinBudget(render(params, site), budgetMs, fallbackPng);
      if (timedOut) {
        deps.log.warn("og", "Image render exceeded its budget; sent the fallback", { budgetMs });
        return png(value);
      }
      images.set(key, value);
      if (images.size > MAX_CACHED_IMAGES) images.delete(images.keys().next().value!);
      return png(value);
    } catch (error) {
      deps.log.warn("og", "Image render failed; sent the fallback", { variant: params.variant }, error);
      return png(fallbackPng());
    }
  });
}
