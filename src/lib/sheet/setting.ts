// Setting → venue types (see docs/sheet.md, "Setting"): which of indoor/outdoor a Setting cell
// names, and the modal label.

import { fold } from "./text.ts";
import type { VenueType } from "./types.ts";
import { t } from "../i18n/index.ts";

const HYPHENS = /-/g;
const INDOOR = /indoor|inside|club|bar|hall|theater|theatre|venue|salle/;
const OUTDOOR = /outdoor|outside|park|garden|terrace|roof|street|plein air|open air/;
const BOTH = /mixed|both/;

/** Venue types named by a Setting cell, indoor first; empty when the cell is empty or unrecognised. */
export function parseVenueTypes(cell: string | null | undefined): VenueType[] {
  const text = fold(cell).replace(HYPHENS, " ");
  if (text === "") return [];
  const both = BOTH.test(text);
  const types: VenueType[] = [];
  if (both || INDOOR.test(text)) types.push("indoor");
  if (both || OUTDOOR.test(text)) types.push("outdoor");
  return types;
}

/** Modal label: "Indoor", "Outdoor", "Indoor & Outdoor" or "TBC". */
export function venueTypeLabel(types: readonly VenueType[]): string {
  const indoor = types.includes("indoor");
  const outdoor = types.includes("outdoor");
  if (indoor && outdoor) return t("event.venue.both");
  if (indoor) return t("event.venue.indoor");
  if (outdoor) return t("event.venue.outdoor");
  return t("common.tbc");
}
