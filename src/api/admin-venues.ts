// Admin API of the venue pins (docs/live-events.md, "Pins in the console"): the live events' venues
// with their pin's source, confidence and outside-its-arrondissement flag, and setting a pin by
// hand. Same guard as every admin endpoint; answers are never cached.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore } from "../lib/http/responses.ts";
import { HttpError, ValidationError } from "../lib/http/errors.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { listVenuePins, parsePastedCoordinates, setManualPin } from "../lib/geocoding/venue-pins.ts";
import type { Coordinates } from "../lib/sheet/types.ts";
import { readObjectBody } from "../lib/http/responses.ts";

/** The point of a pin body: `{coordinates: "48.86, 2.35"}` (pasted) or `{lat, lng}` (numbers). */
export function pinBodyPoint(body: Record<string, unknown>): Coordinates {
  if (typeof body.coordinates === "string") {
    const point = parsePastedCoordinates(body.coordinates);
    if (!point) throw new ValidationError("Invalid coordinates", [{ field: "coordinates", message: 'Paste "latitude, longitude", for example "48.8566, 2.3522"' }]);
    return point;
  }
  if (typeof body.lat === "number" && typeof body.lng === "number") return { lat: body.lat, lng: body.lng };
  throw new ValidationError("Invalid request body", [{ field: "coordinates", message: 'Send "coordinates" as "latitude, longitude", or "lat" and "lng" as numbers' }]);
}

/** GET /api/admin/venues, PUT /api/admin/venues/:id/pin */
export function adminVenuesApi(deps: Deps) {
  return new Elysia({ name: "admin-venues-api" })
    .use(adminGuard(deps))
    .get("/api/admin/venues", async () => jsonNoStore({ success: true, venues: await listVenuePins(deps) }), { isAdmin: true })
    .put(
      "/api/admin/venues/:id/pin",
      async ({ request, params, admin }) => {
        const point = pinBodyPoint(await readObjectBody(request));
        const outcome = await setManualPin(deps, decodeURIComponent(params.id), point, actorOf(admin));
        if (!outcome.ok) {
          if (outcome.reason === "not_found") throw new HttpError(404, outcome.error);
          throw new ValidationError(outcome.error, [{ field: "coordinates", message: outcome.error }]);
        }
        return jsonNoStore({ success: true, venue: outcome.pin });
      },
      { isAdmin: true, parse: "none" },
    );
}
