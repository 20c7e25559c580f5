// Arrondissement centre coordinates (domain.md §6.3), the fallback when a venue cannot be geocoded.
// Local copy so geocoding does not depend on the event parser; keep in step with events/arrondissement.ts.

import type { Coordinates } from "../events/types.ts";

/** Centre of each Paris arrondissement 1–20, used as the estimated fallback position. */
export const ARRONDISSEMENT_CENTRES: Readonly<Record<number, Coordinates>> = Object.freeze({
  1: { lat: 48.8606, lng: 2.3376 },
  2: { lat: 48.8677, lng: 2.3414 },
  3: { lat: 48.8644, lng: 2.3615 },
  4: { lat: 48.8551, lng: 2.3618 },
  5: { lat: 48.8462, lng: 2.3518 },
  6: { lat: 48.8496, lng: 2.3344 },
  7: { lat: 48.8566, lng: 2.3165 },
  8: { lat: 48.8736, lng: 2.3111 },
  9: { lat: 48.8785, lng: 2.3373 },
  10: { lat: 48.876, lng: 2.359 },
  11: { lat: 48.8594, lng: 2.3765 },
  12: { lat: 48.8448, lng: 2.389 },
  13: { lat: 48.8322, lng: 2.3647 },
  14: { lat: 48.8339, lng: 2.3273 },
  15: { lat: 48.8422, lng: 2.2966 },
  16: { lat: 48.8555, lng: 2.269 },
  17: { lat: 48.8848, lng: 2.312 },
  18: { lat: 48.8927, lng: 2.3436 },
  19: { lat: 48.8799, lng: 2.3781 },
  20: { lat: 48.8632, lng: 2.3969 },
});

/** The Paris centre (spec: lat 48.8566, lng 2.3522). */
export const PARIS_CENTRE: Readonly<Coordinates> = Object.freeze({ lat: 48.8566, lng: 2.3522 });
