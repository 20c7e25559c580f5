// Links an event card, the event modal and My night show for a venue or a host: the map-app
// searches for the venue and the host name on a link button.

import { arrondissementLongLabel } from "../../lib/sheet/arrondissement.ts";
import { isUnknownLocation, locationLabel } from "../../lib/sheet/location.ts";
import type { LiveEvent } from "../../lib/sheet/types.ts";

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
