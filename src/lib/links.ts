// Every public URL of the site in one place: the share route, the event modal and filtered homepage,
// the calendar file, the canonical URL and the preview (OG) images, plus the site's display constants.

import { publicUrl, type Config } from "./config.ts";
import { arrondissementLongLabel } from "./sheet/arrondissement.ts";
import { formatDateLabel } from "./sheet/dates.ts";
import { genreLabel } from "./sheet/genres.ts";
import { isUnknownLocation, locationLabel } from "./sheet/location.ts";
import { formatPriceLabel } from "./sheet/price.ts";
import { formatTimeLabel } from "./sheet/times.ts";
import type { LiveEvent } from "./sheet/types.ts";
import { currentLanguage, currentSite, LANGUAGE_PARAM, languagePrefix, type Language } from "./i18n/index.ts";

/** Display name of the product. */
export const SITE_NAME = "finder";

/** Host of NEXT_PUBLIC_SITE_URL (calendar UIDs, footer). */
export function siteHost(config: Pick<Config, "siteUrl">): string {
  return new URL(config.siteUrl).host;
}

/**
 * The address of a public page in a language (docs/languages.md, "Addresses"): the base path, the
 * language's prefix ("" at the root language, "/en"), then `path` ("/submit-event", "/?g=house").
 * Outside any request (direct view calls) the path as given.
 */
export function pageHref(path: string, language: Language = currentLanguage()): string {
  const site = currentSite();
  if (!site) return path;
  return site.basePath + languagePrefix(language, site) + path;
}

/** The address of what is the same in every language (static files, the API, the service worker): the base path, then `path`. */
export function siteHref(path: string): string {
  return (currentSite()?.basePath ?? "") + path;
}

/** Absolute URL of a public page in a language (canonical and hreflang links, share links). */
export function pageUrl(config: Pick<Config, "siteUrl" | "basePath">, path: string, language: Language = currentLanguage()): string {
  return currentSite() ? `${config.siteUrl}${pageHref(path, language)}` : publicUrl(config, path);
}

/**
 * A query with the current language added as `lang=` when it is not the site's root language: the
 * calendar files and preview images are one address for every language and say theirs that way.
 */
export function withLanguageParam(query: string): string {
  const site = currentSite();
  const language = currentLanguage();
  if (!site || language === site.rootLanguage) return query;
  const param = `${LANGUAGE_PARAM}=${language}`;
  return query === "" ? param : `${query}&${param}`;
}

/** The address of a calendar file or image that says its language by `?lang=` (see withLanguageParam). */
export function languageResourceHref(path: string): string {
  const query = withLanguageParam("");
  return siteHref(query ? `${path}?${query}` : path);
}

/** Path of the share route of an event. */
export function sharePath(event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return `/event/${encodeURIComponent(event.eventKey)}/${encodeURIComponent(event.slug)}`;
}

/** Absolute share link of an event (in the current language). */
export function shareUrl(config: Pick<Config, "siteUrl" | "basePath">, event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return pageUrl(config, sharePath(event));
}

/** Path of the event's calendar file. */
export function calendarPath(event: Pick<LiveEvent, "eventKey">): string {
  return languageResourceHref(`/api/events/${encodeURIComponent(event.eventKey)}/calendar.ics`);
}

/** Parameters of the homepage that are not filters. */
export const EVENT_PARAM = "event";
export const SLUG_PARAM = "slug";

/** The homepage URL of a filter query ("/" when empty), in the current language. */
export function homeHref(query: string): string {
  return pageHref(query === "" ? "/" : `/?${query}`);
}

/** The query of the homepage that opens an event's modal: `/?event=<key>&slug=<slug>`. */
function eventModalPath(event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return `/?${new URLSearchParams({ [EVENT_PARAM]: event.eventKey, [SLUG_PARAM]: event.slug }).toString()}`;
}

/** The homepage URL that opens an event's modal, in the current language. */
export function eventModalHref(event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return pageHref(eventModalPath(event));
}

/** Absolute URL of the homepage with the event's modal open (the canonical URL of that view). */
export function eventCanonicalUrl(config: Pick<Config, "siteUrl" | "basePath">, event: LiveEvent): string {
  return pageUrl(config, eventModalPath(event));
}

/** Absolute URL of the event's preview image (`/api/og`, variant event-modal), with its labels and `lang` in the current language. */
export function eventOgImageUrl(config: Pick<Config, "siteUrl" | "basePath">, event: LiveEvent): string {
  const params = new URLSearchParams({ variant: "event-modal", title: event.eventName, date: formatDateLabel(event.date), time: formatTimeLabel(event.time, event.endTime), price: formatPriceLabel(event.price, event.priceValue) });
  params.set(LANGUAGE_PARAM, currentLanguage());
  if (!isUnknownLocation(event.location)) params.set("venue", locationLabel(event.location));
  if (event.arrondissement !== "unknown") params.set("arrondissement", arrondissementLongLabel(event.arrondissement));
  if (event.genres.length > 0) params.set("genres", event.genres.slice(0, 3).map(genreLabel).join(","));
  return publicUrl(config, `/api/og?${params.toString()}`);
}

/** Absolute URL of the site-wide preview image, in the current language. */
export function defaultOgImageUrl(config: Pick<Config, "siteUrl" | "basePath">, eventCount: number): string {
  return publicUrl(config, `/api/og?${new URLSearchParams({ variant: "default", eventCount: String(eventCount), [LANGUAGE_PARAM]: currentLanguage() }).toString()}`);
}
