// Admin JSON API for paid orders (see docs/placements.md, "Admin API"): list with counts, move,
// delete dismissed, fulfil, and test activations.

import { Elysia } from "elysia";
import type { Deps } from "../deps.ts";
import { jsonNoStore, readJson, isPlainObject, refusalJson } from "../lib/http/responses.ts";
import { adminGuard } from "../lib/auth/admin-guard.ts";
import { actorOf } from "../lib/auth/admin-actor.ts";
import { ValidationError } from "../lib/http/errors.ts";
import { deleteOrder, isOrderStatus, listOrders, orderJson, setOrderStatus, type OrderResult } from "../lib/placements/orders.ts";
import { createTestActivation, fulfilFromInput } from "../lib/placements/service.ts";
import type { Refused } from "../lib/outcome.ts";

/** GET /api/admin/orders, PATCH|DELETE /api/admin/orders/:id, POST …/:id/fulfil, POST /api/admin/orders/test */
export function adminOrdersApi(deps: Deps) {
  // The statistics link is in the answer to an activation (fulfil, test) only: shown once, never listed.
  const answer = (result: OrderResult | Refused, status = 200, reveal = false) => {
    if (!result.ok) return refusalJson(result);
    const order = orderJson(deps.config, result.order, reveal);
    return jsonNoStore({ success: true, order, statsUrl: order.statsUrl }, status);
  };
  return new Elysia({ name: "admin-orders-api" })
    .use(adminGuard(deps))
    .get(
      "/api/admin/orders",
      async ({ query }) => {
        const status = query.status;
        if (status !== undefined && status !== "" && !isOrderStatus(status)) throw new ValidationError("Unknown status", [{ field: "status", message: "Use pending, processing, activated or dismissed" }]);
        const { orders, counts } = await listOrders(deps.db, isOrderStatus(status) ? status : undefined);
        return jsonNoStore({ success: true, orders: orders.map((o) => orderJson(deps.config, o)), counts });
      },
      { isAdmin: true },
    )
    .post("/api/admin/orders/test", async ({ request, admin }) => answer(await createTestActivation(deps, await readJson(request), actorOf(admin)), 201, true), { isAdmin: true, parse: "none" })
    .patch(
      "/api/admin/orders/:id",
      async ({ request, params, admin }) => {
        const body = await readJson(request);
        return answer(await setOrderStatus(deps.db, params.id, isPlainObject(body) ? body.status : undefined, deps.now(), actorOf(admin)));
      },
      { isAdmin: true, parse: "none" },
    )
    .delete(
      "/api/admin/orders/:id",
      async ({ params }) => {
        const result = await deleteOrder(deps.db, params.id);
        if (result.ok) deps.log.info("orders", "Dismissed order deleted");
        return result.ok ? jsonNoStore({ success: true }) : refusalJson(result);
      },
      { isAdmin: true, parse: "none" },
    )
    .post("/api/admin/orders/:id/fulfil", async ({ request, params, admin }) => answer(await fulfilFromInput(deps, params.id, await readJson(request), actorOf(admin)), 200, true), { isAdmin: true, parse: "none" });
}
