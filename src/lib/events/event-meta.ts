// What a shared event link previews as (see docs/public-pages.md, "Event modal"): the page title
// and description, the OG image URL, schema.org Event JSON-LD, and the map-app links of the event
// modal.

import { publicUrl, type Config } from "../config.ts";
import { arrondissementLongLabel } from "./arrondissement.ts";
import { formatDateLabel, isValidIsoDate } from "./dates.ts";
import { genreLabel } from "./genres.ts";
import { isUnknownLocation, locationLabel } from "./location.ts";
import { formatPriceLabel } from "./price.ts";
import { addDays } from "./dates.ts";
import { endsNextDay, formatTimeLabel, isValidTime } from "./times.ts";
import { eventModalHref, parisOffsetMinutes, parisInstant } from "./homepage.ts";
import { SITE_NAME } from "./public-links.ts";
import type { LiveEvent } from "./types.ts";

/** "<event name> | <site name>". */
export function eventPageTitle(event: LiveEvent): string {
  return `${event.eventName} | ${SITE_NAME}`;
}

/** The long area label, or "Paris" when the arrondissement is unknown. */
export function eventAreaLabel(event: LiveEvent): string {
  return event.arrondissement === "unknown" ? "Paris" : arrondissementLongLabel(event.arrondissement);
}

/** "<long area label or Paris> · <date label> · <time label> · <venue> · <price label>". */
export function eventPageDescription(event: LiveEvent): string {
  return [eventAreaLabel(event), formatDateLabel(event.date), formatTimeLabel(event.time, event.endTime), locationLabel(event.location), formatPriceLabel(event.price, event.priceValue)].join(" · ");
}

/** Absolute URL of the homepage with the event's modal open (the canonical URL of that view). */
export function eventCanonicalUrl(config: Pick<Config, "siteUrl" | "basePath">, event: LiveEvent): string {
  return publicUrl(config, eventModalHref(event));
}

/** Absolute URL of the event's preview image (`/api/og`, variant event-modal). */
export function eventOgImageUrl(config: Pick<Config, "siteUrl" | "basePath">, event: LiveEvent): string {
  const params = new URLSearchParams({ variant: "event-modal", title: event.eventName, date: formatDateLabel(event.date), time: formatTimeLabel(event.time, event.endTime), price: formatPriceLabel(event.price, event.priceValue) });
  if (!isUnknownLocation(event.location)) params.set("venue", locationLabel(event.location));
  if (event.arrondissement !== "unknown") params.set("arrondissement", arrondissementLongLabel(event.arrondissement));
  if (event.genres.length > 0) params.set("genres", event.genres.slice(0, 3).map(genreLabel).join(","));
  return publicUrl(config, `/api/og?${params.toString()}`);
}

/** Absolute URL of the site-wide preview image. */
export function defaultOgImageUrl(config: Pick<Config, "siteUrl" | "basePath">, eventCount: number): string {
  return publicUrl(config, `/api/og?${new URLSearchParams({ variant: "default", eventCount: String(eventCount) }).toString()}`);
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** A Paris wall-clock date and time as ISO 8601 with the Paris offset of that moment. */
export function parisDateTime(isoDate: string, time: string): string {
  return `${isoDate}T${time}:00${offsetText(parisOffsetMinutes(parisInstant(isoDate, time)))}`;
}

/** schema.org Event for the event, or undefined when the date is not valid. */
export function eventJsonLd(config: Pick<Config, "siteUrl" | "basePath">, event: LiveEvent): Record<string, unknown> | undefined {
  if (!isValidIsoDate(event.date)) return undefined;
  const hasTime = isValidTime(event.time);
  const startDate = hasTime ? parisDateTime(event.date, event.time!) : event.date;
  let endDate: string | undefined;
  if (hasTime && isValidTime(event.endTime)) {
    endDate = parisDateTime(endsNextDay(event.time, event.endTime) ? addDays(event.date, 1) : event.date, event.endTime!);
  }
  const address: Record<string, unknown> = { "@type": "PostalAddress", addressLocality: "Paris", addressCountry: "FR" };
  if (typeof event.arrondissement === "number") address.postalCode = `750${String(event.arrondissement).padStart(2, "0")}`;
  const place: Record<string, unknown> = { "@type": "Place", name: isUnknownLocation(event.location) ? eventAreaLabel(event) : locationLabel(event.location), address };
  if (event.coordinates) place.geo = { "@type": "GeoCoordinates", latitude: event.coordinates.lat, longitude: event.coordinates.lng };
  const data: Record<string, unknown> = {
    "@context": "https://schema.org",
    "@type": "Event",
    name: event.eventName,
    startDate,
    ...(endDate ? { endDate } : {}),
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    location: place,
    description: event.description || eventPageDescription(event),
    url: eventCanonicalUrl(config, event),
    image: [eventOgImageUrl(config, event)],
  };
  if (event.priceValue !== null) {
    data.isAccessibleForFree = event.priceValue === 0;
    data.offers = { "@type": "Offer", price: String(event.priceValue), priceCurrency: "EUR", ...(event.link ? { url: event.link } : {}) };
  }
  return data;
}

/** The address a map app searches for: "<venue>, <long area>, Paris, France". */
export function mapQuery(event: LiveEvent): string {
  const parts: string[] = [];
  if (!isUnknownLocation(event.location)) parts.push(locationLabel(event.location));
  if (event.arrondissement !== "unknown") parts.push(arrondissementLongLabel(event.arrondissement));
  parts.push("Paris", "France");
  return parts.join(", ");
}

/** Google Maps and Apple Maps search links of the event's venue. */
export function mapAppLinks(event: LiveEvent): { google: string; apple: string } {
  const query = mapQuery(event);
  return {
    google: `https://www.google.com/maps/search/?${new URLSearchParams({ api: "1", query }).toString()}`,
    apple: `https://maps.apple.com/?${new URLSearchParams({ q: query }).toString()}`,
  };
}

/** Host name shown on a link button ("View on tickets.example"), without a leading "www.". */
export function linkHostname(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return host.replace(/^www\./, "") || undefined;
  } catch {
    return undefined;
  }
}
