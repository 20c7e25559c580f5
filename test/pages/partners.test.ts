import { describe, expect, test } from "bun:test";
import { useTestApp, HTMX_HEADERS as htmx } from "../helpers/app.ts";
import { engagementInteractions, spotlightSchedule } from "../../src/lib/db/schema/index.ts";
import { countdownLabel } from "../../src/pages/partners/feature-event.view.tsx";
import { saveBannerSettings } from "../../src/lib/site/banner.ts";

const ctx = useTestApp({ env: { NEXT_PUBLIC_PAYMENT_LINK_SPOTLIGHT_STANDARD: "https://pay.example/spotlight", NEXT_PUBLIC_PARTNER_EMAIL: "team@finder.test" } });

const hour = 3600_000;

describe("/feature-event", () => {
  test("the static shell: hero, packages with pay links or mailto fallback, FAQ, sticky bar; cached 300 s", async () => {
    const res = await ctx.request("/feature-event");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(res.headers.get("cache-control")).toContain("s-maxage=10,");
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
    expect(html).toContain('hx-trigger="load"');
    expect(html).toContain('href="/feature-event/status"'); // the status without JavaScript
    expect(html).toContain("mailto:team@finder.test");
    expect(html).toMatch(/<strong>\d+<\/strong> <span>events listed<\/span>/);
    expect((await ctx.request("/feature-event")).headers.get("x-cache")).toBe("HIT");
  });

  test("the sliding banner runs above the header as on the homepage, and a save reaches the cached page at once", async () => {
    const header = (html: string) => html.slice(html.indexOf('<header class="site-header">'), html.indexOf("</header>"));
    const first = header(await (await ctx.request("/feature-event")).text());
    // Inside the header, before the brand and the navigation (the spec's layout).
    expect(first.indexOf('class="sliding-banner"')).toBeGreaterThan(-1);
    expect(first.indexOf('class="sliding-banner"')).toBeLessThan(first.indexOf('class="brand"'));
    expect(first).toContain("Free events, club nights and street stages in one calendar");

    expect((await saveBannerSettings(ctx.deps, { enabled: true, messages: ["Partners: <b>book</b> before Friday"] }, "admin-test")).ok).toBe(true);
    const saved = await ctx.request("/feature-event");
    expect(saved.headers.get("x-cache")).toBe("MISS");
    expect(header(await saved.text())).toContain("Partners: &lt;b&gt;book&lt;/b&gt; before Friday • ");

    await saveBannerSettings(ctx.deps, { enabled: false }, "admin-test");
    expect(await (await ctx.request("/feature-event")).text()).not.toContain('class="sliding-banner"');
    await saveBannerSettings(ctx.deps, { enabled: true, messages: ["Fête de la Musique"] }, "admin-test");
  });

  test("the hero's audience figures come from the engagement records once there are some", async () => {
    const now = ctx.deps.now();
    await ctx.deps.db.insert(engagementInteractions).values([
      { eventKey: "evt_fixture000001", actionType: "click", sessionId: "s1", recordedAt: now },
      { eventKey: "evt_fixture000002", actionType: "click", sessionId: "s2", recordedAt: now },
      { eventKey: "evt_fixture000002", actionType: "calendar_sync", sessionId: "s2", recordedAt: now },
      { eventKey: "evt_fixture000002", actionType: "click", sessionId: "s3", recordedAt: new Date(now.getTime() - 40 * 86400_000) },
    ]);
    await ctx.deps.invalidation.invalidate({ paths: ["/feature-event"] });
    const html = await (await ctx.request("/feature-event")).text();
    expect(html).toContain("<strong>2</strong> <span>visitors in the last 30 days</span>");
    expect(html).toContain("<strong>2</strong> <span>event views in the last 30 days</span>");
    expect(html).toContain("<strong>1</strong> <span>events saved to calendars</span>");
    await ctx.deps.db.delete(engagementInteractions);
  });

  test("countdown labels: live with seconds, ended in hours and minutes", () => {
    const now = new Date("2026-06-21T10:00:00Z");
    expect(countdownLabel("2026-06-21T12:05:09Z", now)).toBe("Live · ends in 2h 05m 09s");
    expect(countdownLabel("2026-06-21T10:00:00Z", now)).toBe("Ended 0h 0m ago");
    expect(countdownLabel("2026-06-20T08:59:30Z", now)).toBe("Ended 25h 0m ago");
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
    expect(html).toContain("Live · ends in 2h 30m 00s");
    expect(html).toContain('data-countdown-end="');
    expect(html).toContain('data-slots="3"');
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

  test("a key without a live event shows the key, escaped", async () => {
    const now = ctx.deps.now();
    await ctx.deps.db.insert(spotlightSchedule).values({ eventKey: "<script>alert(1)</script>", requestedStartAt: now, effectiveStartAt: now, effectiveEndAt: new Date(now.getTime() + hour), slot: 1 });
    await ctx.deps.invalidation.invalidate({ paths: ["/feature-event"] });
    const res = await ctx.request("/feature-event/status", { headers: htmx });
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    await ctx.deps.db.delete(spotlightSchedule);
    await ctx.deps.invalidation.invalidate({ paths: ["/feature-event"] });
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
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(res.headers.get("cache-control")).toContain("s-maxage=10,");
    expect((await ctx.request("/partner-success")).headers.get("x-cache")).toBe("HIT");
    const html = await res.text();
    for (const text of ["Payment confirmed", "You are in the activation queue", "Email partnership team", "Back to partner page", 'name="robots" content="noindex, nofollow"']) expect(html).toContain(text);
  });

  test("privacy: a real notice, rendered once and served with a long cache header", async () => {
    const res = await ctx.request("/privacy");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400, s-maxage=31536000, stale-while-revalidate=604800");
    expect(res.headers.get("x-cache")).toBe("HIT");
    const html = await res.text();
    for (const text of [
      "Anonymous session id",
      "Interactions",
      "Searches and filters",
      "Your email, optional names and consent",
      "Event submissions",
      "Abuse-protection counters",
      "HMAC-SHA-256",
      "We do not store IP addresses of visitors",
      "How long",
      "Legal basis",
      "Your rights",
      "CNIL",
      "team@finder.test",
      // Retention as the task applies it (TRACKING_RETENTION_DAYS, default 400) and erasure.
      "Kept as individual records for 400 days, then deleted. As they arrive they are also added into daily totals per event",
      "your email is removed from these records at once",
    ])
      expect(html).toContain(text);

    const compressed = await ctx.request("/privacy", { headers: { "accept-encoding": "br, gzip" } });
    expect(compressed.headers.get("content-encoding")).toBe("br");
    expect(compressed.headers.get("vary")).toContain("Accept-Encoding");
    const notModified = await ctx.request("/privacy", { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(notModified.status).toBe(304);
  });
});
