// /admin/placements: the console's orders queue and scheduler. Forms post here; each action calls
// the same lib functions as the admin JSON API and comes back to the page with a notice.

import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { NO_STORE_HEADERS } from "../../../lib/http/responses.ts";
import { publicUrl } from "../../../lib/config.ts";
import { hxRedirect } from "../../../lib/http/htmx.ts";
import { readForm } from "../../../lib/http/forms.ts";
import { HttpError } from "../../../lib/http/errors.ts";
import { deleteOrder, isOrderStatus, listOrders, orderJson, setOrderStatus, type OrderStatus } from "../../../lib/placements/orders.ts";
import { isTier, type Tier } from "../../../lib/placements/scheduler.ts";
import { cancelPlacement, clearPlacementHistory, clearPlacementQueue, createTestActivation, eventLabel, findLiveEvent, fulfilFromInput, listPlacements, reschedulePlacement, schedulePlacement } from "../../../lib/placements/service.ts";
import { actorOf } from "../../../lib/auth/admin-actor.ts";
import { adminPageGuard } from "../guard.ts";
import { consoleResponse } from "../console.ts";
import { PLACEMENTS_PATH, PlacementsArea } from "./placements.view.tsx";

/** What an activation comes back with: the notice and its statistics link, shown this once (only its digest is kept). */
type Activated = { notice: string; statsLink: string | null };

/** The statistics link of the page's address, shown only when it is one of this site's (never any other address). */
function shownStatsLink(config: Deps["config"], raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const prefix = publicUrl(config, "/partner-stats/");
  return raw.startsWith(prefix) && /^[0-9a-f-]{36}\?token=[0-9a-f]{32}$/.test(raw.slice(prefix.length)) ? raw : undefined;
}

/** GET /admin/placements and the POST actions under it (orders, test link, scheduler). */
export function placementsRoutes(deps: Deps) {
  /** Back to the page with a notice, and the statistics link an activation shows this once. */
  const back = (request: Request, query: Record<string, string | undefined>, outcome: string | Activated) => {
    const { notice, statsLink } = typeof outcome === "string" ? { notice: outcome, statsLink: null } : outcome;
    const params = new URLSearchParams({ tab: isOrderStatus(query.tab) ? query.tab : "all", mode: isTier(query.mode) ? query.mode : "spotlight", notice, ...(statsLink ? { statsLink } : {}) });
    return hxRedirect(request, `${PLACEMENTS_PATH}?${params.toString()}`, NO_STORE_HEADERS);
  };
  /** Runs an action; a refused or invalid one comes back as the notice instead of an error page. */
  const act = async (request: Request, query: Record<string, string | undefined>, work: () => Promise<string | Activated>) => {
    try {
      return back(request, query, await work());
    } catch (error) {
      if (error instanceof HttpError && error.status < 500) return back(request, query, error.message);
      throw error;
    }
  };
  const tierOf = (raw: string): Tier => {
    if (!isTier(raw)) throw new HttpError(404, "Unknown placement tier");
    return raw;
  };
  const outcome = (result: { ok: true } | { ok: false; error: string }, done: string) => (result.ok ? done : result.error);

  return new Elysia({ name: "admin-placements-pages" })
    .use(adminPageGuard(deps))
    .get(
      PLACEMENTS_PATH,
      async ({ request, query }) => {
        const tab: OrderStatus | "all" = isOrderStatus(query.tab) ? query.tab : "all";
        const mode: Tier = isTier(query.mode) ? query.mode : "spotlight";
        const [{ orders, counts }, listing, events] = await Promise.all([
          listOrders(deps.db, tab === "all" ? undefined : tab),
          listPlacements(deps, mode),
          deps.events.load({ includeFeaturedProjection: false, includeEngagementProjection: false }).then((r) => r.events, () => []),
        ]);
        // One choice per event (a multi-day event by its first day), found by title, venue or key.
        const choices = events.filter((e) => e.occurrenceIndex === 1).map((e) => ({ eventKey: e.eventKey, eventName: e.eventName, location: e.location, date: e.date }));
        const props = {
          orders: orders.map((o) => orderJson(deps.config, o)),
          counts,
          orderTab: tab,
          mode,
          listing,
          events: choices,
          names: new Map(events.map((e) => [e.eventKey.toLowerCase(), e.eventName])),
          now: deps.now(),
          notice: typeof query.notice === "string" ? query.notice.slice(0, 300) : undefined,
          statsLink: shownStatsLink(deps.config, query.statsLink),
        };
        return consoleResponse(deps, request, "placements", "Placements", () => <PlacementsArea {...props} />);
      },
      { isAdmin: true },
    )
    .post(
      `${PLACEMENTS_PATH}/orders/test`,
      async ({ request, query, admin }) =>
        act(request, query, async () => {
          const result = await createTestActivation(deps, await readForm(request), actorOf(admin));
          return result.ok ? { notice: "Test activation created", statsLink: orderJson(deps.config, result.order, true).statsUrl } : result.error;
        }),
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PLACEMENTS_PATH}/orders/:id/fulfil`,
      async ({ request, query, params, admin }) =>
        act(request, query, async () => {
          const result = await fulfilFromInput(deps, params.id, await readForm(request), actorOf(admin));
          if (!result.ok) return result.error;
          const key = result.order.fulfilledEventKey ?? "";
          const event = await findLiveEvent(deps, key);
          const notice = `Order activated as ${result.order.fulfilledTier} for ${eventLabel({ eventKey: key, eventName: event?.eventName ?? "" })}`;
          return { notice, statsLink: orderJson(deps.config, result.order, true).statsUrl };
        }),
      { isAdmin: true, parse: "none" },
    )
    .post(
      `${PLACEMENTS_PATH}/orders/:id/status`,
      async ({ request, query, params, admin }) => act(request, query, async () => outcome(await setOrderStatus(deps.db, params.id, (await readForm(request)).status, deps.now(), actorOf(admin)), "Order updated")),
      { isAdmin: true, parse: "none" },
    )
    .post(`${PLACEMENTS_PATH}/orders/:id/delete`, async ({ request, query, params }) => act(request, query, async () => outcome(await deleteOrder(deps.db, params.id), "Order deleted")), { isAdmin: true, parse: "none" })
    .post(
      `${PLACEMENTS_PATH}/:tier`,
      async ({ request, query, params, admin }) =>
        act(request, { ...query, mode: params.tier }, async () => {
          const form = await readForm(request);
          const scheduled = await schedulePlacement(deps, tierOf(params.tier), form.now === "1" ? { ...form, startAt: "" } : form, actorOf(admin));
          if (!scheduled.ok) return scheduled.error;
          const { entry, eventName } = scheduled;
          return `Scheduled ${eventLabel({ eventKey: entry.eventKey, eventName })}: ${entry.state}${entry.queuePosition ? ` (#${entry.queuePosition} in queue)` : ""}`;
        }),
      { isAdmin: true, parse: "none" },
    )
    .post(`${PLACEMENTS_PATH}/:tier/clear-queue`, async ({ request, query, params }) => act(request, { ...query, mode: params.tier }, async () => `Cleared ${(await clearPlacementQueue(deps, tierOf(params.tier))).deleted} queued entries`), { isAdmin: true, parse: "none" })
    .post(`${PLACEMENTS_PATH}/:tier/clear-history`, async ({ request, query, params }) => act(request, { ...query, mode: params.tier }, async () => `Cleared ${(await clearPlacementHistory(deps, tierOf(params.tier))).deleted} past entries`), { isAdmin: true, parse: "none" })
    .post(`${PLACEMENTS_PATH}/:tier/:id/cancel`, async ({ request, query, params }) => act(request, { ...query, mode: params.tier }, async () => outcome(await cancelPlacement(deps, tierOf(params.tier), params.id), "Entry cancelled")), { isAdmin: true, parse: "none" })
    .post(
      `${PLACEMENTS_PATH}/:tier/:id/reschedule`,
      async ({ request, query, params }) => act(request, { ...query, mode: params.tier }, async () => outcome(await reschedulePlacement(deps, tierOf(params.tier), params.id, await readForm(request)), "Entry rescheduled")),
      { isAdmin: true, parse: "none" },
    );
}
