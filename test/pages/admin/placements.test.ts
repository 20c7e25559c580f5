import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { createTestContext, TEST_ADMIN_KEY, type TestContext } from "../../helpers/app.ts";
import { resetDatabase } from "../../helpers/database.ts";
import { checkoutCompleted, signatureHeader, TEST_WEBHOOK_SECRET } from "../../helpers/payment.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await resetDatabase(ctx.deps.database);
  ctx.clock.set("2026-06-18T10:00:00Z");
});

const KEY = { "x-admin-key": TEST_ADMIN_KEY };
const page = (query = "") => ctx.request(`/admin/placements${query}`, { headers: KEY });
const form = (path: string, fields: Record<string, string>) =>
  ctx.request(path, { method: "POST", headers: { ...KEY, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

test("401 with the login card without a credential", async () => {
  const res = await ctx.request("/admin/placements");
  expect(res.status).toBe(401);
  expect(await res.text()).toContain("Admin Access");
});

test("orders queue: a paid order shows with its fields and counts in the Action Center badge and the tab; fulfil from the form", async () => {
  const body = JSON.stringify(checkoutCompleted());
  await ctx.request("/api/webhooks/payment", { method: "POST", headers: { "payment-signature": await signatureHeader(body, Math.floor(ctx.clock.now().getTime() / 1000)) }, body });
  const res = await page();
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  const html = await res.text();
  expect(html).toContain("Paid Orders Queue");
  expect(html).toContain("Canal Sunset Session");
  expect(html).toContain("80.00 EUR");
  expect(html).toContain("Action Center 1");
  expect(html).toMatch(/Placements<\/span><span class="tab-count">1<\/span>/);
  const id = /data-order-id="([0-9a-f-]{36})"/.exec(html)![1]!;

  const bad = await form(`/admin/placements/orders/${id}/fulfil`, { eventKey: "evt_missing", tier: "spotlight", startAt: "", durationHours: "48" });
  expect(bad.status).toBe(303);
  expect(new URL(bad.headers.get("location")!, "http://x").searchParams.get("notice")).toBe("Unknown event key");

  const done = await form(`/admin/placements/orders/${id}/fulfil`, { eventKey: "evt_fixture000002", tier: "spotlight", startAt: "", durationHours: "48" });
  expect(done.status).toBe(303);
  const after = await (await page("?tab=activated")).text();
  expect(after).toContain("Open partner stats");
  expect(after).toContain("/partner-stats/" + id + "?token=");
  expect(after).toContain("Action Center 0");
});

test("scheduler: create (Feature now), the timeline by slot with queue positions, a DST-gap start refused with the notice", async () => {
  for (const key of ["evt_fixture000001", "evt_fixture000002", "evt_fixture000003", "evt_fixture000004"]) {
    const res = await form("/admin/placements/spotlight", { eventKey: key, startAt: "2026-06-19T20:00", durationHours: "24", now: "1" });
    expect(res.status).toBe(303);
  }
  const html = await (await page("?mode=spotlight")).text();
  expect(html).toContain("3/3");
  expect(html).toContain("#1 in queue");
  expect(html).toContain("18/06/2026, 12:00 → 19/06/2026, 12:00");
  const bad = await form("/admin/placements/spotlight", { eventKey: "evt_fixture000001", startAt: "2027-03-28T02:30", durationHours: "24" });
  expect(new URL(bad.headers.get("location")!, "http://x").searchParams.get("notice")).toBe("Invalid schedule time. Use YYYY-MM-DDTHH:mm (Paris time) or full ISO");
  const promoted = await (await page("?mode=promoted")).text();
  expect(promoted).toContain("All promoted entries");
});
