// The language of a page request (see docs/languages.md) and what its cached answer varies on.

import type { Config } from "../lib/config.ts";
import { inLanguage, requestLanguage, type Language } from "../lib/i18n/index.ts";

/** What a page's answer depends on besides its URL: the headers that choose its language. */
export const LANGUAGE_VARY = ["Accept-Language", "Cookie"] as const;

/** The language of a page request: `?lang=`, the `lang` cookie, Accept-Language, DEFAULT_LANGUAGE. */
export function pageLanguage(config: Pick<Config, "defaultLanguage">, request: Request): Language {
  return requestLanguage(request, config.defaultLanguage);
}

/** Runs `render` in the request's language. */
export function inRequestLanguage<T>(config: Pick<Config, "defaultLanguage">, request: Request, render: () => T): T {
  return inLanguage(pageLanguage(config, request), render);
}

/** The render-cache key of a page in one language: "<path>?lang=<language>" (path invalidation still matches). */
export function languageCacheKey(path: string, language: Language): string {
  return `${path}?lang=${language}`;
}
