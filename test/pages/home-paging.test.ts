// The homepage list in pages of 25: the first page and "Show more" (an htmx fragment of the next
// cards, a plain link without JavaScript), page addresses in canonical form, the map's JSON fetched
// apart, and the first HTML light at 2,000 events.

import { beforeAll, describe, expect, test } from "bun:test";
import { useTestApp } from "../helpers/app.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { bigSheet } from "../../bench/fixtures.ts";

const ctx = useTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } });
const HTMX = { "hx-request": "true" };

async function seed(rows: number): Promise<void> {
  const saved = await saveStoreSheet(ctx.deps.db, bigSheet(rows), { updatedBy: "admin-upload", origin: "manual", now: ctx.deps.now() });
  if (!saved.ok) throw new Error(saved.error);
  ctx.deps.renderCache.invalidate({ paths: ["/"] });
}

const cardKeys = (html: string) => [...html.matchAll(/<article class="[^"]*card[^"]*" data-event-key="([^"]+)"/g)].map((m) => m[1]);
const listPart = (html: string) => html.slice(html.indexOf('id="results"'));

beforeAll(() => seed(100), 120_000);

describe("list pages", () => {
  test("the first page shows 25 cards and a Show more link to page 2", async () => {
    const html = await (await ctx.request("/")).text();
    expect(cardKeys(listPart(html))).toHaveLength(25);
    expect(html).toContain('href="/?p=2" hx-get="/?p=2" hx-target="closest li" hx-swap="outerHTML" hx-push-url="false"');
    expect(html).toContain("Show more (25 of 75 left)");
    expect(html).toContain('<span class="count-badge">100</span>');
  });

  test("with htmx, Show more answers the next 25 cards and the next Show more; the last page has none", async () => {
    const first = cardKeys(listPart(await (await ctx.request("/")).text()));
    const second = await ctx.request("/?p=2", { headers: HTMX });
    expect(second.status).toBe(200);
    const body = await second.text();
    expect(body.startsWith("<li>")).toBe(true);
    expect(body).not.toContain('id="results"');
    const keys = cardKeys(body);
    expect(keys).toHaveLength(25);
    expect(keys.some((key) => first.includes(key))).toBe(false);
    expect(body).toContain('href="/?p=3"');
    const last = await (await ctx.request("/?p=4", { headers: HTMX })).text();
    expect(cardKeys(last)).toHaveLength(25);
    expect(last).not.toContain("Show more");
  });

  test("without JavaScript, page 2 is a page of its own with its place and the way back; filters are kept", async () => {
    const html = await (await ctx.request("/?p=2")).text();
    expect(cardKeys(listPart(html))).toHaveLength(25);
    expect(html).toContain("Events 26–50 of 100");
    expect(html).toContain('<a href="/">← Earlier events</a>');
    const filtered = await (await ctx.request("/?in=indoor")).text();
    expect(filtered).toContain(`href="/?in=indoor&p=2"`);
  });

  test("page addresses are canonical: p=1 and malformed pages are dropped, the page follows the filters", async () => {
    for (const [from, to] of [
      ["/?p=1", "/"],
      ["/?p=abc", "/"],
      ["/?p=-3", "/"],
      ["/?p=2&in=indoor", "/?in=indoor&p=2"],
    ]) {
      const res = await ctx.request(from);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(to);
    }
  });

  test("the map's points come as JSON from their own address, not inside the page", async () => {
    const html = await (await ctx.request("/?in=indoor")).text();
    // The only JSON block of the page is its client strings (docs/languages.md).
    expect(html.replace(/<script type="application\/json" id="i18n-messages">[^<]*<\/script>/, "")).not.toContain('type="application/json"');
    const src = /data-map-src="([^"]+)"/.exec(html)![1].replaceAll("&amp;", "&");
    expect(src).toBe("/?in=indoor&map=data");
    const res = await ctx.request(src);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const data = (await res.json()) as { venues: { events: unknown[] }[]; areas: unknown[] };
    expect(data.areas).toHaveLength(20);
    expect(data.venues.reduce((n, v) => n + v.events.length, 0)).toBe(50);
  });
});

describe("at 2,000 events", () => {
  test("the first HTML of / stays under 40 KB compressed and carries 25 cards", async () => {
    await seed(2000);
    const res = await ctx.request("/", { headers: { "accept-encoding": "br" } });
    const bytes = (await res.arrayBuffer()).byteLength;
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(bytes).toBeLessThan(40 * 1024);
    const html = await (await ctx.request("/", { headers: { "accept-encoding": "identity" } })).text();
    expect(cardKeys(listPart(html))).toHaveLength(25);
    expect(html).toContain('<span class="count-badge">2000</span>');
  }, 60_000);
});
