// Setting rules (§2.7): venue types from the Setting cell and the modal label.

import { expect, test } from "bun:test";
import { parseVenueTypes, venueTypeLabel } from "../../../src/lib/sheet/setting.ts";

test.each([
  ["Indoor", ["indoor"], "Indoor"],
  ["Outdoor", ["outdoor"], "Outdoor"],
  ["Indoor/Outdoor", ["indoor", "outdoor"], "Indoor & Outdoor"],
  ["Indoor\nOutdoor", ["indoor", "outdoor"], "Indoor & Outdoor"],
  ["Outdoor & indoor", ["indoor", "outdoor"], "Indoor & Outdoor"],
  ["Mixed", ["indoor", "outdoor"], "Indoor & Outdoor"],
  ["both", ["indoor", "outdoor"], "Indoor & Outdoor"],
  ["Club", ["indoor"], "Indoor"],
  ["Rooftop bar", ["indoor", "outdoor"], "Indoor & Outdoor"],
  ["Théâtre", ["indoor"], "Indoor"],
  ["Salle des fêtes", ["indoor"], "Indoor"],
  ["Plein air", ["outdoor"], "Outdoor"],
  ["Open-air", ["outdoor"], "Outdoor"],
  ["Park", ["outdoor"], "Outdoor"],
  ["Street", ["outdoor"], "Outdoor"],
  ["Terrace", ["outdoor"], "Outdoor"],
  ["Boat", [], "TBC"],
  ["TBC", [], "TBC"],
  ["", [], "TBC"],
])("%p → %p (%p)", (cell, types, label) => {
  const parsed = parseVenueTypes(cell);
  expect(parsed).toEqual(types as never);
  expect(venueTypeLabel(parsed)).toBe(label);
});
