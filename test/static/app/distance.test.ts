// Distances for near me (static/app/distance.js): great-circle kilometres between two points.

import { expect, test } from "bun:test";
import { distanceKm } from "../../../static/app/distance.js";

test.each([
  ["the same point", { lat: 48.8566, lng: 2.3522 }, { lat: 48.8566, lng: 2.3522 }, 0, 0],
  ["Notre-Dame to the Eiffel Tower", { lat: 48.853, lng: 2.3499 }, { lat: 48.8584, lng: 2.2945 }, 4.1, 0.1],
  ["one degree of latitude", { lat: 48, lng: 2 }, { lat: 49, lng: 2 }, 111.2, 0.1],
  ["Paris to London", { lat: 48.8566, lng: 2.3522 }, { lat: 51.5074, lng: -0.1278 }, 343.5, 1],
])("%s", (_name, a, b, km, within) => {
  expect(Math.abs(distanceKm(a, b) - km)).toBeLessThanOrEqual(within);
  expect(distanceKm(b, a)).toBeCloseTo(distanceKm(a, b), 9);
});
