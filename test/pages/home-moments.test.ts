// Now / Tonight / Today / Free chips as canonical query parameters, and the "Finished" divider,
// with the app clock inside the festival (test fixtures: 19–22 June 2026).

import { describe, expect, test } from "bun:test";
import { createClock, useTestApp } from "../helpers/app.ts";
import { eventSpan, festivalDay, festivalNight, runsAt } from "../../src/lib/events/filter-moment.ts";
import { parisDate, parisInstant } from "../../src/lib/paris-time.ts";

const ctx = useTestApp({ clock: createClock("2026-06-21T19:30:00Z") }); // 21:30 in Paris

async function page(path: string): Promise<string> {
  ctx.deps.renderCache.invalidate({ paths: ["/"] });
  const res = await ctx.request(path);
  expect(res.status).toBe(200);
  return res.text();
}
const listKeys = (html: string) => [...html.slice(html.indexOf('id="results"')).matchAll(/<article class="[^"]*" data-event-key="([^"]+)"/g)].map((m) => m[1]);

describe("moments", () => {
  test("an event's span runs past midnight; tonight is 18:00–06:00 of this festival night", () => {
    const span = eventSpan({ date: "2026-06-21", time: "21:00", endTime: "02:00" })!;
    expect(new Date(span.start).toISOString()).toBe("2026-06-21T19:00:00.000Z");
    expect(new Date(span.end).toISOString()).toBe("2026-06-22T00:00:00.000Z");
    expect(festivalNight(new Date("2026-06-22T01:00:00Z")).date).toBe("2026-06-21");
    const now = new Date("2026-06-21T19:30:00Z");
    // A 14:00–19:00 set is not tonight; 17:00–19:00 overlaps 18:00; 21:00–02:00 is both now and tonight.
    expect(runsAt({ date: "2026-06-21", time: "14:00", endTime: "17:59" }, "tonight", now)).toBe(false);
    expect(runsAt({ date: "2026-06-21", time: "17:00", endTime: "19:00" }, "tonight", now)).toBe(true);
    expect(runsAt({ date: "2026-06-21", time: "21:00", endTime: "02:00" }, "now", now)).toBe(true);
    expect(runsAt({ date: "2026-06-22", time: "01:00", endTime: "05:00" }, "tonight", now)).toBe(true);
    expect(runsAt({ date: "2026-06-22", time: "01:00", endTime: "05:00" }, "now", now)).toBe(false);
  });

  test("each instant has its own night and day, whichever instant was asked before", () => {
    // The night and day of the last instant are kept: instants asked in turn, back and forth over
    // 06:00 and 18:00 Paris, each get their own.
    const hourInParis = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: "Europe/Paris" });
    const previous = (iso: string) => new Date(Date.parse(`${iso}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const start = Date.parse("2026-06-20T03:00:00Z");
    for (let minutes = 0; minutes < 3 * 24 * 60; minutes += 13) {
      for (const at of [start + minutes * 60_000, start + (3 * 24 * 60 - minutes) * 60_000, start + minutes * 60_000]) {
        const now = new Date(at);
        const expected = Number(hourInParis.format(now)) < 6 ? previous(parisDate(now)) : parisDate(now);
        expect(festivalNight(now).date).toBe(expected);
        expect(festivalNight(now).start).toBe(parisInstant(expected, "18:00").getTime());
        expect(festivalDay(now)).toEqual({ start: parisInstant(expected, "06:00").getTime(), end: festivalNight(now).end, date: expected });
      }
    }
  });

  test("the chips are links to canonical queries; when=now keeps only what runs at this minute", async () => {
    const home = await page("/");
    expect(home).toContain('href="/?when=now"');
    expect(home).toContain('href="/?when=tonight"');
    expect(home).toContain('href="/?df=2026-06-21&dt=2026-06-21"');
    expect(home).toContain('href="/?pr=0%3A0"');
    expect(home).toContain('href="#near-me" data-near-me');
    const now = await page("/?when=now");
    const keys = listKeys(now);
    const events = (await ctx.deps.events.load()).events;
    const at = ctx.clock.now();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(runsAt(events.find((e) => e.eventKey === key)!, "now", at)).toBe(true);
    expect(events.filter((e) => runsAt(e, "now", at)).length).toBe(keys.length);
    expect(now).toContain("Happening now");
    expect(now).toContain('<input type="hidden" name="when" value="now"/>');
    const tonight = listKeys(await page("/?when=tonight"));
    expect(tonight.length).toBe(events.filter((e) => runsAt(e, "tonight", at)).length);
    expect(tonight.length).toBeGreaterThanOrEqual(keys.length);
  });

  test("when is canonical: unknown values are dropped and it comes after the filters", async () => {
    for (const [from, to] of [
      ["/?when=later", "/"],
      ["/?when=now&in=indoor", "/?in=indoor&when=now"],
    ]) {
      const res = await ctx.request(from);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(to);
    }
  });

  test("during the festival, ended events sit below a Finished divider", async () => {
    const html = await page("/");
    const list = html.slice(html.indexOf('id="results"'));
    expect(list).toContain('<li class="finished-divider" role="separator" aria-label="Finished">');
    const events = (await ctx.deps.events.load()).events;
    const keys = listKeys(html);
    const divider = list.indexOf("finished-divider");
    for (const key of keys) {
      const event = events.find((e) => e.eventKey === key)!;
      const ended = eventSpan(event) !== null && eventSpan(event)!.end <= ctx.clock.now().getTime();
      expect(list.indexOf(`data-event-key="${key}"`) > divider).toBe(ended);
    }
  });

  test("day/night labels name the 22:00 boundary in 24-hour time", async () => {
    const html = await page("/?dn=night");
    expect(html).toContain("Night (after 22:00)");
    expect(html).toContain("Day (until 22:00)");
  });

  test("one day/night rule: the night filter lists exactly the moon cards (18:00–23:00 and 21:00–02:00 included), the day filter the sun cards", async () => {
    const cardsOf = (html: string) =>
      [...html.slice(html.indexOf('id="results"')).matchAll(/<article class="[^"]*" data-event-key="([^"]+)"[\s\S]*?<p class="card-when">(<span class="icon i-(\w+))?/g)].map((m) => ({ key: m[1], icon: m[3] }));
    const all = cardsOf(await page("/"));
    const night = cardsOf(await page("/?dn=night"));
    const day = cardsOf(await page("/?dn=day"));
    expect(night.length).toBeGreaterThan(0);
    expect(day.length).toBeGreaterThan(0);
    expect(night.every((card) => card.icon === "moon")).toBe(true);
    expect(day.every((card) => card.icon === "sun")).toBe(true);
    expect(new Set(night.map((c) => c.key))).toEqual(new Set(all.filter((c) => c.icon === "moon").map((c) => c.key)));
    expect(new Set(day.map((c) => c.key))).toEqual(new Set(all.filter((c) => c.icon === "sun").map((c) => c.key)));
    // Canal Amapiano Sunset (18:00–23:00) and Latin Quarter Reggaeton (21:00–02:00) run past 22:00.
    expect(night.map((c) => c.key)).toEqual(expect.arrayContaining(["evt_fixture000001", "evt_fixture000008"]));
  });
});
