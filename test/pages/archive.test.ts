// The archive of an edition, /<year>/ (docs/editions.md, "The archive"): in December 2026 the 2026
// edition is over; its page lists the fixture events of June 2026 by day, the year on every date,
// "Finished" on each and no calendar entry, with a server-side search. Anything that is not an
// archived or current year answers the site's 404 page.

import { describe, expect, test } from "bun:test";
import { createClock, useTestApp } from "../helpers/app.ts";
import { LIVE_EVENTS_TAG } from "../../src/lib/serving/invalidation.ts";
import { EDITIONS_CACHE_TAG } from "../../src/lib/site/edition-settings.ts";

const ctx = useTestApp({ clock: createClock("2026-12-07T12:00:00Z") });
// The test helpers' root language is English; French lives under /fr/.

/** The events listed on an archive page, by their data-event-key. */
const listed = (html: string) => [...html.matchAll(/<li class="archive-event[^"]*" data-event-key="([^"]+)"/g)].map((m) => m[1]!);
const titles = (html: string) => [...html.matchAll(/<h3 class="archive-event-title"><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!);

describe("the archive of a past edition", () => {
  test("/2026/ lists the June 2026 events by day, with the year, marked finished, and says the edition is over", async () => {
    const response = await ctx.request("/2026/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Fête de la Musique 2026</h1>");
    expect(html).toContain("This edition is over.");
    expect(html).toMatch(/<a href="\/">Go to the festival&#x27;s home page<\/a>|<a href="\/">Go to the festival's home page<\/a>/);
    const keys = listed(html);
    expect(keys.length).toBeGreaterThan(10);
    expect(new Set(keys).size).toBe(keys.length);
    // The count says how many, and each one is marked finished.
    expect(html).toContain(`<p class="archive-count" role="status">${keys.length} events</p>`);
    expect([...html.matchAll(/<span class="archive-event-finished">Finished<\/span>/g)].length).toBe(keys.length);
    // Grouped by day, in order, each date with its year.
    const days = [...html.matchAll(/<section class="archive-day" data-date="([^"]+)">/g)].map((m) => m[1]!);
    expect(days.length).toBeGreaterThanOrEqual(2);
    expect([...days].sort()).toEqual(days);
    for (const day of days) expect(day.startsWith("2026-06-")).toBe(true);
    expect(html).toContain("<span>Sun, 21 June 2026</span>");
    expect(html).toMatch(/<span class="archive-event-date">Fri, 19 June 2026<\/span>/);
    expect(html).toContain('<span class="archive-event-area">18th arrondissement</span>');
    expect(html).toContain('<span class="archive-event-venue">Place Pigalle</span>');
    // Links to the share pages, no calendar entry for a past event.
    expect(html).toContain('href="/event/evt_fixture000010/');
    expect(html).not.toMatch(/\/api\/events\/[^"]+\/calendar\.ics/);
    expect(html).not.toMatch(/add to calendar/i);
  });

  test("the search narrows the list on the server, with the count; the field keeps the text", async () => {
    const all = listed(await (await ctx.request("/2026/")).text());
    const response = await ctx.request("/2026/?q=Pigalle");
    expect(response.status).toBe(200);
    const html = await response.text();
    const found = listed(html);
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found.length).toBeLessThan(all.length);
    expect(found).toContain("evt_fixture000004");
    for (const title of titles(html)) expect(title.toLowerCase()).toContain("pigalle");
    expect(html).toContain(`${found.length} event${found.length === 1 ? "" : "s"} found`);
    expect(html).toMatch(/<form class="archive-search" method="get" action="\/2026\/"/);
    expect(html).toContain('name="q" value="Pigalle"');
    // A search finding nothing says so.
    const none = await (await ctx.request("/2026/?q=zzqqxxnothing")).text();
    expect(listed(none)).toEqual([]);
    expect(none).toContain("No event matches this search.");
  });

  test("the search text is escaped in the page", async () => {
    const html = await (await ctx.request(`/2026/?q=${encodeURIComponent('"><script>alert(1)</script>')}`)).text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).not.toContain('value=""><script>');
  });

  test("in French under /fr/2026/", async () => {
    const response = await ctx.request("/fr/2026/");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("Cette édition est terminée.");
    expect(html).toMatch(/<a href="\/fr\/">Voir l&#x27;accueil du festival<\/a>|<a href="\/fr\/">Voir l'accueil du festival<\/a>/);
    expect(html).toContain("ven. 19 juin 2026");
    expect(html).toContain('<span class="archive-event-finished">Terminé</span>');
    expect(html).toMatch(/<form class="archive-search" method="get" action="\/fr\/2026\/"/);
    expect(html).toContain('href="/fr/event/evt_fixture000010/');
    const search = await (await ctx.request("/fr/2026/?q=Pigalle")).text();
    expect(listed(search)).toContain("evt_fixture000004");
    expect(search).toMatch(/\d+ événements? trouvés?/);
  });

  test("cached for an hour, tagged so a publish or a window save drops it", async () => {
    const first = await ctx.request("/2026/?q=Marais");
    expect(first.status).toBe(200);
    const again = await ctx.request("/2026/?q=Marais");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(ctx.deps.renderCache.invalidate({ tags: [LIVE_EVENTS_TAG] })).toBeGreaterThan(0);
    expect((await ctx.request("/2026/?q=Marais")).headers.get("x-cache")).toBe("MISS");
    expect(ctx.deps.renderCache.invalidate({ tags: [EDITIONS_CACHE_TAG] })).toBeGreaterThan(0);
    expect((await ctx.request("/2026/?q=Marais")).headers.get("x-cache")).toBe("MISS");
    // Still fresh 59 minutes later.
    ctx.clock.advance(59 * 60_000);
    expect((await ctx.request("/2026/?q=Marais")).headers.get("x-cache")).toBe("HIT");
    ctx.clock.set("2026-12-07T12:00:00Z");
  });
});

describe("what is not an archive", () => {
  test.each(["/1999/", "/2031/", "/abcd/", "/20266/", "/2101/", "/fr/1999/", "/fr/abcd/"])("%s answers the site's 404 page", async (path) => {
    const response = await ctx.request(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('<main id="main" class="page narrow">');
    expect(html).not.toContain("archive-event");
  });

  test("a year after the current edition answers 404 even with events (and before the cache)", async () => {
    expect((await ctx.request("/2026/")).status).toBe(200);
    // In May 2025 the current edition is 2025: the June 2026 events are not an archive yet.
    ctx.clock.set("2025-05-01T12:00:00Z");
    try {
      expect((await ctx.request("/2026/")).status).toBe(404);
      expect((await ctx.request("/fr/2026/")).status).toBe(404);
      // The current edition answers, without events.
      const current = await ctx.request("/2025/");
      expect(current.status).toBe(200);
      expect(await current.text()).toContain("This edition is coming up.");
    } finally {
      ctx.clock.set("2026-12-07T12:00:00Z");
    }
  });

  test("the route leaves the other pages alone: /2026 without its slash, the homepages, other paths", async () => {
    expect(listed(await (await ctx.request("/2026")).text()).length).toBeGreaterThan(10);
    for (const path of ["/", "/fr/", "/fr", "/privacy", "/fr/privacy", "/my-night"]) {
      const response = await ctx.request(path);
      expect([path, response.status]).toEqual([path, 200]);
      expect(await response.text()).not.toContain("archive-event");
    }
    expect((await ctx.request("/no-such-page")).status).toBe(404);
    expect((await ctx.request("/fr/no-such-page/")).status).toBe(404);
  });

  test("a year before the fixtures with no events answers 404; the current edition (2027) answers, empty", async () => {
    expect((await ctx.request("/2025/")).status).toBe(404);
    const current = await ctx.request("/2027/");
    expect(current.status).toBe(200);
    const html = await current.text();
    expect(html).toContain("Fête de la Musique 2027");
    expect(html).not.toContain("This edition is over.");
    expect(html).toContain("This edition is coming up.");
    expect(listed(html)).toEqual([]);
    expect((await ctx.request("/2028/")).status).toBe(404);
  });
});
