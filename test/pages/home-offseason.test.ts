// Outside festival week the quick chips say when the festival is and offer its days, instead of
// "now", "tonight" and "today" chips that can only find nothing; a date outside the listed days
// (a shared or restored query) widens the date inputs' bounds so the form stays valid. Once the
// edition is over, the homepage leads with the next one and points at the last one's archive
// (docs/editions.md).

import { describe, expect, test } from "bun:test";
import { createClock, HTMX_HEADERS, useTestApp } from "../helpers/app.ts";

const ctx = useTestApp({ clock: createClock("2026-05-27T12:00:00Z") });
// The test helpers' root language is English; French lives under /fr/.

const chips = (html: string) => /<nav id="quick-chips"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";

describe("the homepage in May, before the edition", () => {
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
    const html = await (await ctx.request("/fr/?df=2026-05-27&dt=2026-05-27")).text();
    const from = /<input type="date" name="df" value="2026-05-27" min="([^"]+)" max="([^"]+)"/.exec(html);
    expect(from).not.toBeNull();
    expect(from![1] <= "2026-05-27" && "2026-05-27" <= from![2]).toBe(true);
    expect(from![1]).toBe("2026-05-27");
  });

  test("during the festival the time chips are back", async () => {
    ctx.clock.set("2026-06-21T19:30:00Z");
    const html = chips(await (await ctx.request("/fr/?pr=0:0")).text());
    expect(html).toContain('data-quick="now"');
    expect(html).not.toContain("quick-note");
    ctx.clock.set("2026-05-27T12:00:00Z");
  });
});

describe("the homepage in December, the edition over", () => {
  test("it leads with the next edition, says the last is over and links its archive; none of last June is listed", async () => {
    ctx.clock.set("2026-12-07T12:00:00Z");
    // Each clock reading asks another address: a render of one minute is kept for the next requests.
    const html = await (await ctx.request("/fr/?dn=day")).text();
    const lead = /<section class="edition-lead"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "";
    expect(lead).toContain("Prochaine édition : lundi 21 juin 2027");
    expect(lead).toContain("L&#x27;édition 2026 est terminée.");
    expect(lead).toMatch(/<a href="\/fr\/2026\/">Revoir le programme 2026<\/a>/);
    expect(lead).toContain('href="/fr/submit-event"');
    // No card of June 2026 on the page, no "tonight" chip that can only find nothing, and the
    // countdown counts to the next night.
    expect(html).not.toContain("data-event-key=");
    expect(html).not.toContain('data-quick="tonight"');
    expect(html).toMatch(/data-countdown="2027-06-21"/);
    const en = await (await ctx.request("/?dn=day")).text();
    expect(en).toContain("Next edition: Monday, 21 June 2027");
    expect(en).toContain("The 2026 edition is over.");
    ctx.clock.set("2026-05-27T12:00:00Z");
  });

  test("a stored or shared Tonight link says why it finds nothing and when the festival is", async () => {
    ctx.clock.set("2026-12-07T12:00:00Z");
    const fr = await (await ctx.request("/fr/?dn=day&when=tonight")).text();
    expect(fr).toContain('<p class="empty-outside">Hors festival, « Ce soir » ne trouve rien. La Fête de la Musique a lieu du 15–22 juin 2027.</p>');
    const en = await (await ctx.request("/?dn=day&when=now", { headers: HTMX_HEADERS })).text();
    expect(en).toContain("Outside the festival, “Now” finds nothing. The Fête de la Musique runs 15 – 22 June 2027.");
    // Before the edition its listed days are offered beside the removable moment.
    ctx.clock.set("2026-05-27T12:00:00Z");
    const may = chips(await (await ctx.request("/fr/?dn=night&when=tonight")).text());
    expect(may).toContain('data-quick="tonight"');
    expect(may).toMatch(/data-quick="day"/);
  });

  test("while the edition's window is open nothing leads the hero", async () => {
    ctx.clock.set("2026-06-21T19:30:00Z");
    const html = await (await ctx.request("/fr/?dn=night")).text();
    expect(html).not.toContain('class="edition-lead"');
    expect(html).toContain("data-event-key=");
    ctx.clock.set("2026-05-27T12:00:00Z");
  });
});
