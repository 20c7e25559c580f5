import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestContext, type TestContext } from "../helpers/app.ts";
import { spotlightSchedule } from "../../src/lib/db/schema/index.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ env: { NEXT_PUBLIC_PAYMENT_LINK_SPOTLIGHT_STANDARD: "https://pay.example/spotlight", NEXT_PUBLIC_PARTNER_EMAIL: "team@finder.test" } });
});
afterAll(() => ctx.close());

const hour = 3600_000;
const htmx = { "hx-request": "true" };

describe("/feature-event", () => {
  test("the static shell: hero, packages with pay links or mailto fallback, FAQ, sticky bar; cached 300 s", async () => {
    const res = await ctx.request("/feature-event");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(res.headers.get("cache-control")).toContain("s-maxage=300");
    const html = await res.text();
    expect(html).toContain("Get your event discovered on Fête night");
    expect(html).toContain("Book placement now");
    expect(html).toContain("Get media kit");
    for (const [name, price] of [["Spotlight Standard", "€80"], ["Spotlight Takeover", "€150"], ["Promoted Listing", "€40"], ["WhatsApp add-on", "€50"], ["Newsletter add-on", "€75"]]) {
      expect(html).toContain(name);
      expect(html).toContain(price);
    }
    expect(html).toContain('href="https://pay.example/spotlight"');
    expect(html).toContain("mailto:team@finder.test?subject=Booking%3A%20Promoted%20Listing");
    expect(html).toContain("How it works");
    expect(html).toContain("Book Spotlight");
    expect(html).toContain('hx-get="/feature-event/status"');
    expect((await ctx.request("/feature-event")).headers.get("x-cache")).toBe("HIT");
  });

  test("the status fragment lists live and recently ended spotlights with slots left, cached 60 s", async () => {
    const now = ctx.deps.now();
    await ctx.deps.db.insert(spotlightSchedule).values([
      { eventKey: "evt_fixture000001", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - hour), effectiveEndAt: new Date(now.getTime() + 2 * hour + 30 * 60000), slot: 1 },
      { eventKey: "evt_fixture000002", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - 50 * hour), effectiveEndAt: new Date(now.getTime() - 3 * hour - 5 * 60000), slot: 2, status: "completed" },
      { eventKey: "evt_fixture000003", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() - 100 * hour), effectiveEndAt: new Date(now.getTime() - 60 * hour), slot: 2, status: "completed" },
      { eventKey: "evt_fixture000004", requestedStartAt: now, effectiveStartAt: new Date(now.getTime() + hour), effectiveEndAt: new Date(now.getTime() + 49 * hour), slot: 3 },
    ]);
    const res = await ctx.request("/feature-event/status", { headers: htmx });
    expect(res.status).toBe(200);
    expect(res.headers.get("vary")).toContain("HX-Request");
    const html = await res.text();
    expect(html.startsWith('<section id="spotlight-status"')).toBe(true);
    expect(html).toContain("2/3 spotlight slots left");
    expect(html).toContain("Canal Amapiano Sunset");
    expect(html).toContain("Live · ends in 2h 30m");
    expect(html).toContain("Belleville Rooftop House");
    expect(html).toContain("Ended 3h 5m ago");
    expect(html).not.toContain("Marais Jazz-Funk Brunch"); // ended 60 h ago
    expect(html).not.toContain("Pigalle Hip Hop Cypher"); // not started

    await ctx.deps.db.delete(spotlightSchedule);
    expect((await ctx.request("/feature-event/status", { headers: htmx })).headers.get("x-cache")).toBe("HIT");
    ctx.clock.advance(61_000);
    await ctx.request("/feature-event/status", { headers: htmx }); // stale: regenerates in the background
    await ctx.deps.renderCache.settle();
    const fresh = await (await ctx.request("/feature-event/status", { headers: htmx })).text();
    expect(fresh).toContain("3/3 spotlight slots left");
  });

  test("without htmx the status is a page of its own; placement changes invalidate every variant", async () => {
    const page = await (await ctx.request("/feature-event/status")).text();
    expect(page).toContain("<!doctype html>");
    expect(page).toContain("Back to partner packages");
    await ctx.deps.invalidation.invalidate({ paths: ["/feature-event"] });
    expect((await ctx.request("/feature-event")).headers.get("x-cache")).toBe("MISS");
    expect((await ctx.request("/feature-event/status", { headers: htmx })).headers.get("x-cache")).toBe("MISS");
  });
});

describe("/partner-success and /privacy", () => {
  test("partner success: confirmation texts, cached 300 s", async () => {
    const res = await ctx.request("/partner-success");
    expect(res.headers.get("cache-control")).toContain("s-maxage=300");
    const html = await res.text();
    for (const text of ["Payment confirmed", "You are in the activation queue", "Email partnership team", "Back to partner page", 'name="robots" content="noindex, nofollow"']) expect(html).toContain(text);
  });

  test("privacy: a real notice, served as a static page", async () => {
    const res = await ctx.request("/privacy");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain(`s-maxage=${365 * 86400}`);
    const html = await res.text();
    for (const text of ["anonymous session id", "Searches and filters", "email", "We do not store IP addresses", "team@finder.test"]) expect(html).toContain(text);
  });
});
