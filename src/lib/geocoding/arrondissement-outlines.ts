// The 20 arrondissement outlines of Paris (data/paris-arrondissements.geojson, Ville de Paris open
// data, ODbL; see data/README.md) and the one rule that uses them on the server: whether a point
// lies inside the arrondissement its row names. The file is read once per process; the browser
// gets the same file as a fingerprinted static asset (src/lib/serving/static-assets.ts) when the map opens.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Coordinates } from "../sheet/types.ts";

/** Where the outlines live in the repository. */
export const OUTLINES_FILE = join(import.meta.dir, "../../../data/paris-arrondissements.geojson");

/** The attribution shown wherever the outlines are drawn (the licence asks for it). */
export const OUTLINES_ATTRIBUTION = "Arrondissements © Ville de Paris, ODbL";

/**
 * How close to a border (metres) a point still counts as inside: the outlines are simplified at
 * 12 m, so a point this near the line may fall on either side of the drawn border.
 */
export const BORDER_TOLERANCE_M = 15;

/** One outline: a ring of [lng, lat] points (first = last). */
export interface ArrondissementOutline {
  arrondissement: number;
  label: string;
  name: string;
  ring: [number, number][];
}

let outlines: Map<number, ArrondissementOutline> | undefined;

/** The 20 outlines by arrondissement number, read from the file on first use. */
export function arrondissementOutlines(): ReadonlyMap<number, ArrondissementOutline> {
  if (outlines) return outlines;
  const parsed = JSON.parse(readFileSync(OUTLINES_FILE, "utf8")) as {
    features: { properties: { arrondissement: number; label: string; name: string }; geometry: { type: string; coordinates: [number, number][][] } }[];
  };
  const byNumber = new Map<number, ArrondissementOutline>();
  for (const feature of parsed.features) {
    if (feature.geometry.type !== "Polygon") throw new Error(`arrondissement ${feature.properties.arrondissement}: expected a Polygon`);
    byNumber.set(feature.properties.arrondissement, {
      arrondissement: feature.properties.arrondissement,
      label: feature.properties.label,
      name: feature.properties.name,
      ring: feature.geometry.coordinates[0]!,
    });
  }
  outlines = byNumber;
  return byNumber;
}

// Metres per degree near Paris (an equirectangular projection is exact enough over a few km).
const M_PER_DEG_LAT = 111_132;
const M_PER_DEG_LNG = 111_320 * Math.cos((48.86 * Math.PI) / 180);

function ringContains(ring: readonly [number, number][], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance in metres from a point to the ring's nearest edge. */
function distanceToRingM(ring: readonly [number, number][], lng: number, lat: number): number {
  let best = Infinity;
  const px = lng * M_PER_DEG_LNG;
  const py = lat * M_PER_DEG_LAT;
  for (let i = 1; i < ring.length; i++) {
    const ax = ring[i - 1]![0] * M_PER_DEG_LNG;
    const ay = ring[i - 1]![1] * M_PER_DEG_LAT;
    const bx = ring[i]![0] * M_PER_DEG_LNG;
    const by = ring[i]![1] * M_PER_DEG_LAT;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
    best = Math.min(best, Math.hypot(px - (ax + t * dx), py - (ay + t * dy)));
  }
  return best;
}

/**
 * Whether a point lies inside the named arrondissement: inside its outline, or within
 * BORDER_TOLERANCE_M of its border. An arrondissement outside 1–20 contains nothing.
 */
export function isInsideArrondissement(point: Coordinates, arrondissement: number): boolean {
  const outline = arrondissementOutlines().get(arrondissement);
  if (!outline || !Number.isFinite(point.lat) || !Number.isFinite(point.lng)) return false;
  if (ringContains(outline.ring, point.lng, point.lat)) return true;
  return distanceToRingM(outline.ring, point.lng, point.lat) <= BORDER_TOLERANCE_M;
}
