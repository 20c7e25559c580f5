// Location (§2.4): the venue text and whether it is an unknown ("TBA") venue.

import { fold } from "./text.ts";

const UNKNOWN_VENUE = /^(?:location )?tb[ac]$/;

/** The location field: trimmed text, or undefined when empty. */
export function normaliseLocation(cell: string | null | undefined): string | undefined {
  const text = (cell ?? "").trim();
  return text === "" ? undefined : text;
}

/** True when the venue is not known: empty, TBA, TBC, Location TBA or Location TBC (any case). */
export function isUnknownLocation(location: string | null | undefined): boolean {
  const text = fold(location);
  return text === "" || UNKNOWN_VENUE.test(text);
}

/** Venue text for display: the location, or "Location TBA" when unknown. */
export function locationLabel(location: string | null | undefined): string {
  return isUnknownLocation(location) ? "Location TBA" : (location ?? "").trim();
}
