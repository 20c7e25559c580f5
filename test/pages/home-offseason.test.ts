// Outside festival week the quick chips say when the festival is and offer its days, instead of
// "now", "tonight" and "today" chips that can only find nothing; a date outside the listed days
// (a shared or restored query) widens the date inputs' bounds so the form stays valid.

import { describe, expect, test } from "bun:test";
import { createClock, HTMX_HEADERS, useTestApp } from "../helpers/app.ts";

const ctx = useTestApp({ clock: createClock("2026-11-27T12:00:00Z") });
// The test helpers' root language is English; French lives under /fr/.

const chips = (html: string) => /<nav id="quick-chips"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";

describe("the homepage in November", () => {
  test("the chips name the festival's dates and offer its days, in French and English", async () => {
    const fr = chips(await (await ctx.request("/fr/")).text());
    expect(fr).toMatch(/<p class="quick-note">Fête de la Musique : 19–22 juin<\/p>/);
    expect(fr).not.toContain('data-quick="now"');
    expect(fr).not.toContain('data-quick="tonight"');
    expect(fr).not.toContain('data-quick="today"');
    const days = [...fr.matchAll(/data-quick="day"/g)].length;
    expect(days).toBeGreaterThanOrEqual(2);
    expect(fr).toMatch(/href="\/fr\/\?df=2026-06-21&amp;dt=2026-06-21"|href="\/fr\/\?df=2026-06-21&dt=2026-06-21"/);
    const en = chips(await (await ctx.request("/")).text());
    expect(en).toContain("Fête de la Musique: 19 – 22 Jun");
  });

  test("a day chip narrows the list to that day; it shows as active and its tap is tracked as a festival day", async () => {
    const html = await (await ctx.request("/fr/?df=2026-06-21&dt=2026-06-21", { headers: HTMX_HEADERS })).text();
    const nav = chips(html);
    expect(nav).toMatch(/class="moment-chip is-active"[^>]*data-quick="day" data-quick-group="date_range" data-quick-value="festival_day"/);
  });

  test("a date outside the listed days leaves the date inputs valid (their bounds widen to it)", async () => {
    const html = await (await ctx.request("/fr/?df=2026-11-27&dt=2026-11-27")).text();
    const from = /<input type="date" name="df" value="2026-11-27" min="([^"]+)" max="([^"]+)"/.exec(html);
    expect(from).not.toBeNull();
    expect(from![1] <= "2026-11-27" && "2026-11-27" <= from![2]).toBe(true);
    expect(from![1]).toBe("2026-06-19");
  });

  test("during the festival the time chips are back", async () => {
    ctx.clock.set("2026-06-21T19:30:00Z");
    const html = chips(await (await ctx.request("/fr/?pr=0:0")).text());
    expect(html).toContain('data-quick="now"');
    expect(html).not.toContain("quick-note");
    ctx.clock.set("2026-11-27T12:00:00Z");
  });
});
