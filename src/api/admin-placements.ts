// Admin JSON API for the spotlight and promoted schedulers (see docs/placements.md, "Admin API").

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, readJson, refusalJson } from "../lib/http/responses.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { NotFoundError } from "../lib/http/errors.ts";
import { isTier, type EntryActionResult, type ScheduleListing, type Tier } from "../lib/placements/scheduler.ts";
import { cancelPlacement, clearPlacementHistory, clearPlacementQueue, listPlacements, reschedulePlacement, schedulePlacement } from "../lib/placements/service.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import type { Refused } from "../lib/outcome.ts";

const BASE = "/api/admin/placements";

function tierOf(raw: string): Tier {
  if (!isTier(raw)) throw new NotFoundError("Unknown placement tier");
  return raw;
}

function listingJson(listing: ScheduleListing) {
  return { entries: listing.entries, activeCount: listing.activeCount, slots: listing.slots, upcomingCount: listing.upcomingCount, recentlyEndedCount: listing.recentlyEndedCount, scheduledCount: listing.scheduledCount };
}

function actionJson(result: EntryActionResult | Refused): Response {
  return result.ok ? jsonNoStore({ success: true, ...listingJson(result.listing) }) : refusalJson(result);
}

/** GET|POST /api/admin/placements/:tier, POST …/:tier/:id/cancel, …/:tier/:id/reschedule, …/:tier/clear-queue, …/:tier/clear-history */
export function adminPlacementsApi(deps: Deps) {
  return new Elysia({ name: "admin-placements-api" })
    .use(adminGuard(deps))
    .get(`${BASE}/:tier`, async ({ params }) => jsonNoStore({ success: true, ...listingJson(await listPlacements(deps, tierOf(params.tier))) }), { isAdmin: true })
    .post(
      `${BASE}/:tier`,
      async ({ request, params, admin }) => {
        const scheduled = await schedulePlacement(deps, tierOf(params.tier), await readJson(request), actorOf(admin));
        if (!scheduled.ok) return refusalJson(scheduled);
        return jsonNoStore({ success: true, entry: scheduled.entry, ...listingJson(scheduled.listing) }, 201);
      },
      { isAdmin: true, parse: "none" },
    )
    .post(`${BASE}/:tier/clear-queue`, async ({ params }) => {
      const { deleted, listing } = await clearPlacementQueue(deps, tierOf(params.tier));
      return jsonNoStore({ success: true, deleted, ...listingJson(listing) });
    }, { isAdmin: true, parse: "none" })
    .post(`${BASE}/:tier/clear-history`, async ({ params }) => {
      const { deleted, listing } = await clearPlacementHistory(deps, tierOf(params.tier));
      return jsonNoStore({ success: true, deleted, ...listingJson(listing) });
    }, { isAdmin: true, parse: "none" })
    .post(`${BASE}/:tier/:id/cancel`, async ({ params }) => actionJson(await cancelPlacement(deps, tierOf(params.tier), params.id)), { isAdmin: true, parse: "none" })
    .post(`${BASE}/:tier/:id/reschedule`, async ({ request, params }) => actionJson(await reschedulePlacement(deps, tierOf(params.tier), params.id, await readJson(request))), { isAdmin: true, parse: "none" });
}
