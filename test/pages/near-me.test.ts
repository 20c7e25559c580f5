// The near-me fragment (`/?<filters>&near=list`): the venues worth walking to at this minute, each
// under its own name with the list's cards; estimated positions say "in the 10th" and carry no
// metres. The fixture sheet has no geocoding in test mode, so every venue is an estimate here (the
// browser tests pin venues for precise positions).

import { describe, expect, test } from "bun:test";
import { createClock, useTestApp } from "../helpers/app.ts";

const ctx = useTestApp({ clock: createClock("2026-06-21T19:30:00Z") }); // 21:30 Paris

const venues = (html: string) => [...html.matchAll(/<h3 class="near-venue-name">([^<]*)<\/h3>/g)].map((m) => m[1]);

describe("near me at 21:30 on 21 June", () => {
  test("today's events on now and next, grouped per venue with the list's cards; finished and other days left out", async () => {
    const res = await ctx.request("/?near=list");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-near-scope="today"');
    expect(html).toContain("Today, on now and coming up");
    // On now, last hour, coming up later tonight.
    for (const name of ["Canal Amapiano Sunset", "Pigalle Hip Hop Cypher", "Montparnasse Zouk &amp; Kompa", "Belleville Rooftop House", "Bastille Dancehall Night", "Oberkampf UK Garage"]) expect(html).toContain(name);
    // Ended today (09:00, 16:00–17:30, 14:00–22:00 is still on), another day (20 June, 22 June).
    for (const name of ["Bercy Yoga Beats", "Trocadéro Pop Choir", "Marais Jazz-Funk Brunch", "Latin Quarter Reggaeton", "Mystery Warehouse Party"]) expect(html).not.toContain(name);
    expect(html).toContain('<article class="card');
    expect(html).toContain("On now · until 23:00");
    expect(venues(html)).toContain("Quai de Valmy");
    expect(venues(html)).toContain("Club Roquette");
    expect(venues(html)).toContain("Bar Oberkampf");
    // Two venues of the 11th at one estimated point keep their own names; an estimate gives no metres.
    expect(html).toContain('<span class="near-distance near-distance-estimate"');
    expect(html).toMatch(/in the 11th/);
    expect(html).not.toMatch(/\d+ m\b/);
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect((await ctx.request("/?near=list")).headers.get("x-cache")).toBe("HIT");
  });

  test("in French: \"dans le 10e\"", async () => {
    const html = await (await ctx.request("/fr/?near=list")).text();
    expect(html).toContain("dans le 10e");
    expect(html).toContain("Aujourd&#x27;hui, en cours et à venir");
  });

  test("the filters apply, and a chosen date brings that day back (without what has ended)", async () => {
    const free = await (await ctx.request("/?pr=0:0&near=list")).text();
    expect(free).toContain("Canal Amapiano Sunset");
    expect(free).not.toContain("Club Roquette");
    const monday = await (await ctx.request("/?df=2026-06-22&dt=2026-06-22&near=list")).text();
    expect(monday).toContain('data-near-scope="dates"');
    expect(monday).not.toContain("Canal Amapiano Sunset");
  });

  test("off season the panel lists every filtered event and says when the festival is", async () => {
    // Before the edition's window: its events are listed, the festival is not on.
    ctx.clock.set("2026-05-27T12:00:00Z");
    ctx.deps.renderCache.invalidate({ paths: ["/"] });
    try {
      const html = await (await ctx.request("/fr/?near=list")).text();
      expect(html).toContain('data-near-scope="offSeason"');
      expect(html).toContain("Le festival a lieu 19–22 juin");
      expect(html).toContain("Bercy Yoga Beats");
    } finally {
      ctx.clock.set("2026-06-21T19:30:00Z");
      ctx.deps.renderCache.invalidate({ paths: ["/"] });
    }
  });
});
