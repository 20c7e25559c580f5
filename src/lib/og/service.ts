// The link-preview images of a process: query → normalised parameters → cached image, rendered
// once per key within the 10 s budget; an error or an overrun gives the fallback image.

import type { Logger } from "../logger.ts";
import { cachedImage, createOgImageCache, type CachedImage, type OgImageCache } from "./image-cache.ts";
import { loadOgFonts } from "./fonts.ts";
import { ogCacheKey, parseOgParams, type OgParams } from "./params.ts";
import type { Language } from "../i18n/index.ts";
import { OG_RENDER_BUDGET_MS, renderFallbackPng, renderOgPng, withinBudget, type OgSite } from "./render.ts";

/** How an image was obtained: from memory, freshly rendered, or the fallback. */
export type OgImageState = "HIT" | "MISS" | "FALLBACK";

export interface OgImages {
  /** The image for a request's query. Never throws for a render problem: that gives the fallback. */
  /** The image of a query string, its own words in `language`. */
  forQuery(query: URLSearchParams, language?: Language): Promise<{ image: CachedImage; state: OgImageState }>;
  /** The fallback image (plain gradient with the site name). */
  fallback(): CachedImage;
}

export interface OgImagesOptions {
  site: OgSite;
  log: Logger;
  /** The renderer (tests pass one that fails or never ends). */
  render?: (params: OgParams, site: OgSite) => Promise<Uint8Array>;
  budgetMs?: number;
  cache?: OgImageCache;
}

/** Builds the service; the fonts are read here, once, at startup. */
export function createOgImages(options: OgImagesOptions): OgImages {
  loadOgFonts();
  const render = options.render ?? renderOgPng;
  const budgetMs = options.budgetMs ?? OG_RENDER_BUDGET_MS;
  const cache = options.cache ?? createOgImageCache();
  let fallbackImage: CachedImage | undefined;
  const fallback = () => (fallbackImage ??= cachedImage(renderFallbackPng(options.site.name)));

  return {
    fallback,
    async forQuery(query, language) {
      const params = parseOgParams(query, options.site.name, language);
      const key = ogCacheKey(params);
      const hit = cache.get(key);
      if (hit) return { image: hit, state: "HIT" };
      try {
        // An overrun answers the fallback now; the render goes on and is kept for the next request.
        const outcome = await withinBudget(cache.load(key, () => render(params, options.site)), budgetMs);
        if (!outcome.timedOut) return { image: outcome.value, state: "MISS" };
        options.log.warn("og", "Image render exceeded its budget; sent the fallback", { budgetMs, variant: params.variant });
      } catch (error) {
        options.log.warn("og", "Image render failed; sent the fallback", { variant: params.variant }, error);
      }
      return { image: fallback(), state: "FALLBACK" };
    },
  };
}
