// The outside-its-arrondissement rule (src/lib/geocoding/arrondissement-outlines.ts): a point inside the
// outline is inside, a point far outside is flagged, and a point within 15 m of a border counts as
// inside on both sides (the outlines are simplified at 12 m).

import { describe, expect, test } from "bun:test";
import { arrondissementOutlines, isInsideArrondissement } from "../../../src/lib/geocoding/arrondissement-outlines.ts";

describe("isInsideArrondissement", () => {
  test("reads the 20 outlines from the data file", () => {
    const outlines = arrondissementOutlines();
    expect([...outlines.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(outlines.get(11)!.name).toBe("Popincourt");
  });

  test("points well inside their arrondissement", () => {
    expect(isInsideArrondissement({ lat: 48.85906, lng: 2.38006 }, 11)).toBe(true); // 11th's centroid
    expect(isInsideArrondissement({ lat: 48.8606, lng: 2.3376 }, 1)).toBe(true); // the Louvre
    expect(isInsideArrondissement({ lat: 48.8584, lng: 2.2945 }, 7)).toBe(true); // the Eiffel Tower
  });

  test("points outside the arrondissement their row names", () => {
    expect(isInsideArrondissement({ lat: 48.8584, lng: 2.2945 }, 11)).toBe(false); // Eiffel Tower is not in the 11th
    expect(isInsideArrondissement({ lat: 48.8606, lng: 2.3376 }, 20)).toBe(false);
    expect(isInsideArrondissement({ lat: 48.9, lng: 2.5 }, 20)).toBe(false); // outside Paris
  });

  test("near the 11th/20th border: within 15 m counts as inside both, 40 m does not", () => {
    // Points across the border segment between (2.39624, 48.85415) and (2.39843, 48.85135).
    const farIn11 = { lng: 2.39685, lat: 48.852585 }; // 40 m inside the 11th
    const near11 = { lng: 2.397214, lat: 48.852709 }; // 10 m inside the 11th
    const near20 = { lng: 2.397456, lat: 48.852791 }; // 10 m inside the 20th
    const farIn20 = { lng: 2.39782, lat: 48.852915 }; // 40 m inside the 20th
    expect([farIn11, near11, near20, farIn20].map((p) => isInsideArrondissement(p, 11))).toEqual([true, true, true, false]);
    expect([farIn11, near11, near20, farIn20].map((p) => isInsideArrondissement(p, 20))).toEqual([false, true, true, true]);
  });

  test("no arrondissement, or not a number, contains nothing", () => {
    expect(isInsideArrondissement({ lat: 48.85906, lng: 2.38006 }, 0)).toBe(false);
    expect(isInsideArrondissement({ lat: 48.85906, lng: 2.38006 }, 21)).toBe(false);
    expect(isInsideArrondissement({ lat: Number.NaN, lng: 2.38 }, 11)).toBe(false);
  });
});
