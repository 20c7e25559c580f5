// What a shared event link previews as (see docs/public-pages.md, "Event modal"): the page title
// and description, the OG image URL and schema.org Event JSON-LD. The event modal's map and link
// buttons are in pages/components/event-links.ts.

import type { Config } from "../../lib/config.ts";
import { arrondissementLongLabel } from "../../lib/sheet/arrondissement.ts";
import { formatDateLabel, isValidIsoDate } from "../../lib/sheet/dates.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import { formatPriceLabel } from "../../lib/sheet/price.ts";
import { addDays } from "../../lib/sheet/dates.ts";
import { endsNextDay, formatTimeLabel, isValidTime } from "../../lib/sheet/times.ts";
import { eventCanonicalUrl, eventOgImageUrl, SITE_NAME } from "../../lib/links.ts";
import { parisDateTime } from "../../lib/paris-time.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";
import { t } from "../../lib/i18n/index.ts";

/** "<event name> | <site name>". */
export function eventPageTitle(event: LiveEvent): string {
  return t("event.pageTitle", { name: event.eventName, site: SITE_NAME });
}

/** The long area label, or "Paris" when the arrondissement is unknown. */
export function eventAreaLabel(event: LiveEvent): string {
  return event.arrondissement === "unknown" ? t("common.paris") : arrondissementLongLabel(event.arrondissement);
}

/** "<long area label or Paris> · <date label> · <time label> · <venue> · <price label>". */
export function eventPageDescription(event: LiveEvent): string {
  return [eventAreaLabel(event), formatDateLabel(event.date), formatTimeLabel(event.time, event.endTime), locationLabel(event.location), formatPriceLabel(event.price, event.priceValue)].join(" · ");
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
