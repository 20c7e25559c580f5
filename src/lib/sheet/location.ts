// Location (see docs/sheet.md, "Location"): the venue text and whether it is an unknown ("TBA") venue.

import { fold } from "./text.ts";
import { t } from "../i18n/index.ts";

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

/** Venue text for display: the location, or "Lieu à confirmer" / "Location TBA" (current language) when unknown. */
export function locationLabel(location: string | null | undefined): string {
  return isUnknownLocation(location) ? t("event.locationTba") : (location ?? "").trim();
}
