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
import { currentLanguage, LANGUAGE_PARAM } from "./i18n/index.ts";

/** Display name of the product. */
export const SITE_NAME = "finder";

/** Host of NEXT_PUBLIC_SITE_URL (calendar UIDs, footer). */
export function siteHost(config: Pick<Config, "siteUrl">): string {
  return new URL(config.siteUrl).host;
}

/** Path of the share route of an event. */
export function sharePath(event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return `/event/${encodeURIComponent(event.eventKey)}/${encodeURIComponent(event.slug)}`;
}

/** Absolute share link of an event. */
export function shareUrl(config: Pick<Config, "siteUrl" | "basePath">, event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return publicUrl(config, sharePath(event));
}

/** Path of the event's calendar file. */
export function calendarPath(event: Pick<LiveEvent, "eventKey">): string {
  return `/api/events/${encodeURIComponent(event.eventKey)}/calendar.ics`;
}

/** Parameters of the homepage that are not filters. */
export const EVENT_PARAM = "event";
export const SLUG_PARAM = "slug";

/** The homepage URL of a filter query ("/" when empty). */
export function homeHref(query: string): string {
  return query === "" ? "/" : `/?${query}`;
}

/** The homepage URL that opens an event's modal: `/?event=<key>&slug=<slug>`. */
export function eventModalHref(event: Pick<LiveEvent, "eventKey" | "slug">): string {
  return `/?${new URLSearchParams({ [EVENT_PARAM]: event.eventKey, [SLUG_PARAM]: event.slug }).toString()}`;
}

/** Absolute URL of the homepage with the event's modal open (the canonical URL of that view). */
export function eventCanonicalUrl(config: Pick<Config, "siteUrl" | "basePath">, event: LiveEvent): string {
  return publicUrl(config, eventModalHref(event));
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
