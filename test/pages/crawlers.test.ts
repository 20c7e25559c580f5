// robots.txt, sitemap.xml and /terms: what search engines and visitors read beside the calendar.

import { describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { useTestApp } from "../helpers/app.ts";
import { LIVE_EVENTS_TAG } from "../../src/lib/serving/invalidation.ts";

const ctx = useTestApp({ env: { NEXT_PUBLIC_SITE_URL: "https://finder.example", NEXT_PUBLIC_PARTNER_EMAIL: "team@finder.test" } });

async function sitemapLocations(): Promise<string[]> {
  const res = await ctx.request("/sitemap.xml");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/xml; charset=utf-8");
  const xml = await res.text();
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ isArray: (name) => name === "url" }).parse(xml);
  expect(doc.urlset).toBeDefined();
  return doc.urlset.url.map((u: { loc: string }) => u.loc);
}

describe("robots.txt", () => {
  test("opens the public site, closes the console, APIs, accounts and partner statistics, and names the sitemap", async () => {
    const res = await ctx.request("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await res.text()).split("\n");
    expect(lines[0]).toBe("User-agent: *");
    expect(lines).toContain("Allow: /");
    for (const path of ["/admin", "/api/", "/account", "/partner-stats"]) expect(lines).toContain(`Disallow: ${path}`);
    // Accounts are pages in both languages (English at the root in tests, French under /fr/).
    for (const path of ["/fr/account", "/fr/sign-in"]) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain("Sitemap: https://finder.example/sitemap.xml");
  });
});

describe("sitemap.xml", () => {
  test("lists the homepage, the information pages and the share page of every live event once", async () => {
    const locations = await sitemapLocations();
    const { events } = await ctx.deps.events.load();
    const keys = new Set(events.map((e) => e.eventKey));
    expect(keys.size).toBeGreaterThan(0);
    expect(locations).toContain("https://finder.example/");
    expect(locations).toContain("https://finder.example/terms");
    expect(locations).toContain("https://finder.example/privacy");
    const shares = locations.filter((loc) => loc.startsWith("https://finder.example/event/"));
    expect(shares.length).toBe(keys.size);
    for (const loc of shares) {
      const key = decodeURIComponent(new URL(loc).pathname.split("/")[2]!);
      expect(keys.has(key)).toBe(true);
      const share = await ctx.request(new URL(loc).pathname, { redirect: "manual" });
      expect(share.status).toBeLessThan(400); // every listed link opens
    }
    // Every page in the other language too, and each of those opens.
    for (const path of ["/fr/", "/fr/privacy", "/fr/terms"]) expect(locations).toContain(`https://finder.example${path}`);
    const french = locations.filter((loc) => loc.startsWith("https://finder.example/fr/event/"));
    expect(french.length).toBe(keys.size);
    expect((await ctx.request(new URL(french[0]!).pathname, { redirect: "manual" })).status).toBeLessThan(400);
    expect(new Set(locations).size).toBe(locations.length);
  });

  test("once the edition is over its events leave the upcoming part and its archive page is listed instead", async () => {
    ctx.clock.set("2026-12-07T12:00:00Z");
    await ctx.deps.invalidation.invalidate({ tags: [LIVE_EVENTS_TAG] });
    try {
      const locations = await sitemapLocations();
      expect(locations.filter((loc) => loc.includes("/event/"))).toEqual([]);
      expect(locations).toContain("https://finder.example/2026/");
      expect(locations).toContain("https://finder.example/fr/2026/");
      expect((await ctx.request("/2026/")).status).toBe(200);
    } finally {
      ctx.clock.set("2026-06-21T10:00:00Z");
      await ctx.deps.invalidation.invalidate({ tags: [LIVE_EVENTS_TAG] });
    }
  });

  test("is cached with the calendar and regenerated when the calendar is revalidated", async () => {
    await ctx.request("/sitemap.xml");
    expect((await ctx.request("/sitemap.xml")).headers.get("x-cache")).toBe("HIT");
    await ctx.deps.invalidation.invalidate({ tags: [LIVE_EVENTS_TAG] });
    expect((await ctx.request("/sitemap.xml")).headers.get("x-cache")).toBe("MISS");
  });
});

describe("/terms", () => {
  test("a static page for visitors, hosts and partners, linked from the footer and the privacy notice's neighbour", async () => {
    const res = await ctx.request("/terms");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("s-maxage=31536000");
    const html = await res.text();
    for (const heading of ["For visitors", "For hosts submitting an event", "For partners buying a placement"]) expect(html).toContain(heading);
    expect(html).toContain('href="/privacy"');
    expect(html).toContain("mailto:team@finder.test");
    const home = await (await ctx.request("/")).text();
    expect(home).toContain('href="/terms"');
  });
});
