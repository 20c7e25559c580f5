import { beforeEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { TEST_ADMIN_KEY, useTestApp } from "../helpers/app.ts";
import { resetDatabase } from "../helpers/database.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../helpers/payment.ts";

const ctx = useTestApp({ env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } });
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = { "x-admin-key": TEST_ADMIN_KEY };

async function call(method: string, path: string, body?: unknown) {
  const res = await ctx.request(path, { method, headers: { ...KEY, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** A pending order through the signed webhook; returns its id. */
async function paidOrder(): Promise<string> {
  const body = JSON.stringify(checkoutCompleted());
  const res = await ctx.request("/api/webhooks/payment", { method: "POST", headers: { "payment-signature": await signatureHeader(body, Math.floor(ctx.clock.now().getTime() / 1000)) }, body });
  expect(res.status).toBe(200);
  const { body: listed } = await call("GET", "/api/admin/orders?status=pending");
  return listed.orders[0].id;
}

describe("orders API", () => {
  test("list with counts per status; unknown status → 400; no credential → 401", async () => {
    const id = await paidOrder();
    const { status, body } = await call("GET", "/api/admin/orders");
    expect(status).toBe(200);
    expect(body.counts).toEqual({ total: 1, pending: 1, processing: 0, activated: 0, dismissed: 0 });
    expect(body.orders[0]).toMatchObject({ id, status: "pending", eventName: "Canal Sunset Session", amountTotalCents: 8000, statsUrl: null });
    expect((await call("GET", "/api/admin/orders?status=lost")).status).toBe(400);
    expect((await ctx.request("/api/admin/orders")).status).toBe(401);
  });

  test("lifecycle: processing → fulfil (activated, token, window, notes, stats URL) → back to processing keeps the token → fulfil again reuses it", async () => {
    const id = await paidOrder();
    expect((await call("PATCH", `/api/admin/orders/${id}`, { status: "processing" })).body.order.status).toBe("processing");
    const fulfilled = await call("POST", `/api/admin/orders/${id}/fulfil`, { eventKey: "evt_fixture000002", tier: "spotlight", startAt: "2026-06-19T20:00", durationHours: 24 });
    expect(fulfilled.status).toBe(200);
    const order = fulfilled.body.order;
    expect(order).toMatchObject({
      status: "activated",
      fulfilledEventKey: "evt_fixture000002",
      fulfilledTier: "spotlight",
      fulfilledStartAt: "2026-06-19T18:00:00.000Z",
      fulfilledEndAt: "2026-06-20T18:00:00.000Z",
      notes: "Activated as spotlight (evt_fixture000002)",
      activatedAt: "2026-06-18T10:00:00.000Z",
    });
    // The link is in the answer to the activation only; the order itself shows no token nor digest.
    const token = new URL(fulfilled.body.statsUrl).searchParams.get("token");
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(fulfilled.body.statsUrl).toBe(`http://finder.test/partner-stats/${id}?token=${token}`);
    expect(order).toMatchObject({ statsLinkIssued: true, statsUrl: fulfilled.body.statsUrl });
    expect(order).not.toHaveProperty("partnerStatsToken");
    expect(order).not.toHaveProperty("partnerStatsTokenHash");
    expect((await call("POST", `/api/admin/orders/${id}/fulfil`, { eventKey: "evt_fixture000002", tier: "spotlight" })).status).toBe(409);

    const back = await call("PATCH", `/api/admin/orders/${id}`, { status: "processing" });
    expect(back.body.order).toMatchObject({ status: "processing", activatedAt: null, fulfilledEventKey: "evt_fixture000002", statsLinkIssued: true, statsUrl: null });
    const again = await call("POST", `/api/admin/orders/${id}/fulfil`, { eventKey: "evt_fixture000003", tier: "promoted" });
    expect(again.body.order).toMatchObject({ fulfilledTier: "promoted", fulfilledEventKey: "evt_fixture000003", statsUrl: fulfilled.body.statsUrl });
    const listed = (await call("GET", "/api/admin/orders")).body.orders.find((o: { id: string }) => o.id === id);
    expect(listed).toMatchObject({ statsLinkIssued: true, statsUrl: null });
  });

  test("a queued spotlight fulfilment stores the effective (queued) window", async () => {
    for (const key of ["evt_fixture000001", "evt_fixture000003", "evt_fixture000004"]) await call("POST", "/api/admin/placements/spotlight", { eventKey: key, durationHours: 10 });
    const id = await paidOrder();
    const { body } = await call("POST", `/api/admin/orders/${id}/fulfil`, { eventKey: "evt_fixture000002", tier: "spotlight" });
    expect(body.order).toMatchObject({ fulfilledStartAt: "2026-06-18T20:00:00.000Z", fulfilledEndAt: "2026-06-20T20:00:00.000Z" });
  });

  test("concurrent fulfils of one order: one wins, the others get 409, one schedule entry", async () => {
    const id = await paidOrder();
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => call("POST", `/api/admin/orders/${id}/fulfil`, { eventKey: `evt_fixture00000${i + 1}`, tier: "spotlight" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    const rows = await ctx.deps.database.query(sql`select id from spotlight_schedule`);
    expect(rows).toHaveLength(1);
  });

  test("bad fulfil input: 400 and nothing changes", async () => {
    const id = await paidOrder();
    for (const body of [{ eventKey: "evt_fixture000001", tier: "gold" }, { eventKey: "evt_missing", tier: "spotlight" }, { eventKey: "evt_fixture000001", tier: "spotlight", durationHours: "abc" }, { eventKey: "evt_fixture000001", tier: "promoted", startAt: "2027-03-28T02:15" }]) {
      expect((await call("POST", `/api/admin/orders/${id}/fulfil`, body)).status).toBe(400);
    }
    expect((await call("POST", "/api/admin/orders/00000000-0000-4000-8000-000000000000/fulfil", { eventKey: "evt_fixture000001", tier: "spotlight" })).status).toBe(404);
    const { body } = await call("GET", "/api/admin/orders");
    expect(body.orders[0]).toMatchObject({ status: "pending", statsLinkIssued: false, statsUrl: null });
    expect(await ctx.deps.database.query(sql`select id from spotlight_schedule`)).toHaveLength(0);
  });

  test("status moves: activated only by fulfilment; unknown values 400; unknown ids 404", async () => {
    const id = await paidOrder();
    expect((await call("PATCH", `/api/admin/orders/${id}`, { status: "activated" })).status).toBe(400);
    expect((await call("PATCH", `/api/admin/orders/${id}`, { status: "done" })).status).toBe(400);
    expect((await call("PATCH", `/api/admin/orders/${id}`, {})).status).toBe(400);
    expect((await call("PATCH", "/api/admin/orders/nope", { status: "pending" })).status).toBe(404);
  });

  test("delete: dismissed only (else 409), then 404", async () => {
    const id = await paidOrder();
    expect((await call("DELETE", `/api/admin/orders/${id}`)).status).toBe(409);
    await call("PATCH", `/api/admin/orders/${id}`, { status: "dismissed" });
    expect((await call("DELETE", `/api/admin/orders/${id}`)).status).toBe(200);
    expect((await call("DELETE", `/api/admin/orders/${id}`)).status).toBe(404);
  });

  test("test activations: created fulfilled with a stats URL (201), or pending with fulfil false", async () => {
    const made = await call("POST", "/api/admin/orders/test", { eventKey: "evt_fixture000004", tier: "promoted" });
    expect(made.status).toBe(201);
    expect(made.body.order).toMatchObject({ source: "manual-test", packageKey: "manual-test-promoted", status: "activated", fulfilledTier: "promoted" });
    expect(made.body.order.sourceEventId).toMatch(/^manual-test-[0-9a-f-]{36}$/);
    expect(made.body.statsUrl).toContain("/partner-stats/");
    const pending = await call("POST", "/api/admin/orders/test", { eventKey: "evt_fixture000004", tier: "spotlight", fulfil: false });
    expect(pending.body.order).toMatchObject({ status: "pending", packageKey: "manual-test-spotlight" });
    expect(pending.body.statsUrl).toBeNull();
    expect((await call("POST", "/api/admin/orders/test", { eventKey: "evt_fixture000004", tier: "x" })).status).toBe(400);
  });
});
