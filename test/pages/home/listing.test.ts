import { describe, expect, test } from "bun:test";
import { FIXTURE_SHEET_CSV } from "../../../src/lib/events/fixtures.ts";
import { parseEventSheet } from "../../../src/lib/sheet/sheet.ts";
import { parseFilters } from "../../../src/lib/events/filter-query.ts";
import type { LiveEvent } from "../../../src/lib/sheet/types.ts";
import { countdownAt, filterParamsFromRequest, homeFiltersOf, homeListing, homeStats, pickSpotlight, scriptJson, seededShuffle } from "../../../src/pages/home/listing.ts";
import { areaBand, mapAreas, mapVenues } from "../../../src/pages/components/map-data.ts";
import { eventModalHref, homeHref } from "../../../src/lib/links.ts";
import { parisDate, parisInstant } from "../../../src/lib/paris-time.ts";
import { eventJsonLd, eventPageDescription, eventPageTitle } from "../../../src/pages/home/event-meta.ts";
import { linkHostname, mapAppLinks } from "../../../src/pages/components/event-links.ts";
import { parisDateTime } from "../../../src/lib/paris-time.ts";
import { isTodayAndOpen } from "../../../src/lib/events/filter-moment.ts";
import { dayPeriodOf } from "../../../src/lib/sheet/times.ts";

const NOW = new Date("2026-06-21T10:00:00Z");

function fixtureEvents(): LiveEvent[] {
  const parsed = parseEventSheet(FIXTURE_SHEET_CSV, { now: NOW });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.events;
}

const config = { siteUrl: "https://finder.example", basePath: "" };

describe("filter state from the form", () => {
  test.each([
    ["", ""],
    ["q=&df=&dt=&pr_min=0&pr_max=150&ag_min=18&ag_max=25&in=", ""],
    ["pr_min=10&pr_max=40", "pr=10%3A40"],
    ["pr=5:20&pr_min=10&pr_max=40", "pr=5%3A20"],
    ["ag_min=21&ag_max=25", "ag=21%3A25"],
    ["dn=night&dn=day&g=house&arr=11&arr=3", "dn=day%2Cnight&arr=3%2C11&g=house"],
    ["event=evt_fixture000001&slug=x&g=house", "g=house"],
    ["pr_min=abc&pr_max=9", ""],
  ])("%p → canonical %p", (raw, canonical) => {
    expect(homeFiltersOf(new URLSearchParams(raw)).query).toBe(canonical);
  });

  test("event and slug are never filter parameters", () => {
    expect(filterParamsFromRequest(new URLSearchParams("event=a&slug=b&q=x")).toString()).toBe("q=x");
  });

  test("links", () => {
    expect(homeHref("")).toBe("/");
    expect(homeHref("g=house")).toBe("/?g=house");
    expect(eventModalHref({ eventKey: "evt_fixture000001", slug: "canal" })).toBe("/?event=evt_fixture000001&slug=canal");
  });
});

describe("spotlight cards", () => {
  test("the seeded shuffle is deterministic per seed and a permutation", () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    const a = seededShuffle(items, "2026-06-21");
    expect(seededShuffle(items, "2026-06-21")).toEqual(a);
    expect([...a].sort((x, y) => x - y)).toEqual(items);
    expect(seededShuffle(items, "2026-06-22")).not.toEqual(a);
  });

  test("the Paris date is the seed: same order all day in Paris, another the next Paris day", () => {
    expect(parisDate(new Date("2026-06-20T22:30:00Z"))).toBe("2026-06-21"); // 00:30 in Paris
    expect(parisDate(new Date("2026-06-21T21:59:00Z"))).toBe("2026-06-21");
    const events = fixtureEvents();
    // Outside the festival's own reading (festivalOn false) the pool is the same all day: only the seed can move it.
    const morning = pickSpotlight(events, events, new Date("2026-06-20T22:30:00Z"), false).map((e) => e.eventKey);
    const evening = pickSpotlight(events, events, new Date("2026-06-21T21:30:00Z"), false).map((e) => e.eventKey);
    expect(evening).toEqual(morning);
  });

  test("active spotlight events first whatever the filters, then curated picks, then the others; one per series; at most 3", () => {
    const events = fixtureEvents();
    // The Trocadéro choir (16:00–17:30, a day event) has a paid window open at noon on 21 June.
    const featured = events.find((e) => e.eventKey === "evt_fixture000010")!;
    featured.isFeatured = true;
    featured.featuredEndsAt = new Date(NOW.getTime() + 3600e3).toISOString();
    const night = homeListing(events, parseFilters({ dn: "night" }), NOW);
    expect(night.spotlight[0].eventKey).toBe("evt_fixture000010");
    expect(night.spotlight.length).toBe(3);
    expect(night.spotlight.slice(1).every((e) => dayPeriodOf(e.time, e.endTime) === "night")).toBe(true);
    // All curated picks come before any other event.
    const all = pickSpotlight(events, events, NOW);
    expect(all[1].curated && all[2].curated).toBe(true);
    const series = all.map((e) => e.seriesKey).filter(Boolean);
    expect(new Set(series).size).toBe(series.length);
    // An ended window no longer counts.
    featured.featuredEndsAt = new Date(NOW.getTime() - 1).toISOString();
    expect(pickSpotlight(events, [], NOW)).toEqual([]);
  });
});

describe("spotlight during the festival (21:30 on 21 June, Paris)", () => {
  const AT = new Date("2026-06-21T19:30:00Z");
  const series = (events: LiveEvent[]) => events.filter((e) => e.eventName === "Batignolles Sound Garden");

  test("only today's events not yet ended; the multi-day event by its occurrence of today", () => {
    const events = fixtureEvents();
    const listing = homeListing(events, parseFilters({}), AT);
    expect(listing.spotlight.length).toBe(3);
    for (const event of listing.spotlight) {
      expect(event.date).toBe("2026-06-21");
      expect(isTodayAndOpen(event, AT)).toBe(true);
    }
    // Only the garden series matches: its day 3 (21 June, 14:00–22:00) is shown, never day 1 or 2.
    const garden = homeListing(events, parseFilters({ q: "batignolles" }), AT);
    expect(garden.spotlight.map((e) => [e.date, e.occurrenceIndex])).toEqual([["2026-06-21", 3]]);
    // Every card of the day drawn over many days of the festival: never another day's, never an ended one.
    for (let minutes = 0; minutes < 24 * 60 * 3; minutes += 37) {
      const now = new Date(Date.parse("2026-06-19T04:00:00Z") + minutes * 60_000);
      for (const event of homeListing(events, parseFilters({}), now).spotlight) expect(isTodayAndOpen(event, now)).toBe(true);
    }
  });

  test("a paid spotlight keeps its place, showing its series' occurrence of today; an ended one shows nothing", () => {
    const events = fixtureEvents();
    const [day1] = series(events);
    day1.isFeatured = true;
    day1.featuredAt = new Date(AT.getTime() - 3600e3).toISOString();
    day1.featuredEndsAt = new Date(AT.getTime() + 3600e3).toISOString();
    const picked = pickSpotlight(events, [], AT);
    expect(picked.map((e) => [e.eventName, e.date, e.occurrenceIndex, e.isFeatured, e.featuredEndsAt])).toEqual([["Batignolles Sound Garden", "2026-06-21", 3, true, day1.featuredEndsAt]]);
    // One copy per paid occurrence, the same on every pick (its card is kept per object); the
    // occurrence itself is left as it was.
    expect(pickSpotlight(events, [], new Date(AT.getTime() + 60_000))[0]).toBe(picked[0]);
    expect(events.find((e) => e.seriesKey === day1.seriesKey && e.occurrenceIndex === 3)!.isFeatured).toBe(false);
    // Once the paid window ends the pick is empty, to the millisecond (a shorter window: a new list).
    const ends = new Date(AT.getTime() + 10 * 60_000 + 1);
    day1.featuredEndsAt = ends.toISOString();
    const shorter = [...events];
    expect(pickSpotlight(shorter, [], new Date(ends.getTime() - 1)).map((e) => e.featuredEndsAt)).toEqual([ends.toISOString()]);
    expect(pickSpotlight(shorter, [], ends)).toEqual([]);
    // The yoga session (09:00–10:30) has ended: its paid window no longer puts it on the page.
    // (A live read's list is never changed once built, and the pick keeps what it reads once per
    // list: each changed booking is read from a new list, as a new read would bring.)
    day1.isFeatured = false;
    const yoga = events.find((e) => e.eventKey === "evt_fixture000012")!;
    yoga.isFeatured = true;
    yoga.featuredEndsAt = new Date(AT.getTime() + 3600e3).toISOString();
    expect(pickSpotlight([...events], [], AT)).toEqual([]);
    // Before the festival the paid row shows as booked.
    const before = new Date("2026-06-10T10:00:00Z");
    yoga.featuredEndsAt = new Date(before.getTime() + 3600e3).toISOString();
    expect(pickSpotlight([...events], [], before).map((e) => e.eventKey)).toEqual(["evt_fixture000012"]);
  });

  test("before the festival any listed event can be picked", () => {
    const events = fixtureEvents();
    const before = new Date("2026-06-10T10:00:00Z");
    expect(homeListing(events, parseFilters({ q: "marais" }), before).spotlight.map((e) => e.eventKey)).toEqual(["evt_fixture000003"]);
  });
});

describe("stats, map and countdown", () => {
  test("stats over the listed events", () => {
    const events = fixtureEvents();
    expect({ ...homeStats(events, false), dateRangeLabel: homeStats(events, false).dateRangeLabel.replace(/\s/g, " ") }).toEqual({ count: 14, countLabel: "total", areaCount: 10, dateCount: 4, dateRangeLabel: "19 – 22 Jun" });
    expect(homeStats([], true)).toEqual({ count: 0, countLabel: "filtered", areaCount: 0, dateCount: 0, dateRangeLabel: "TBC" });
  });

  test.each([
    [0, false, "none"],
    [1, false, "one"],
    [2, false, "few"],
    [4, false, "few"],
    [5, false, "many"],
    [0, true, "selected"],
  ])("area with %p events (selected %p) is %p", (count, selected, band) => {
    expect(areaBand(count, selected)).toBe(band as never);
  });

  test("map venues group events at one point; areas count the filtered events", () => {
    const events = fixtureEvents().map((e) => ({ ...e, coordinates: e.arrondissement === 17 ? { lat: 48.8848, lng: 2.312 } : e.coordinates }));
    const venues = mapVenues(events);
    const batignolles = venues.find((v) => v.venue === "Square des Batignolles")!;
    expect(batignolles.events.length).toBe(3);
    expect(batignolles.events[0]).toEqual({ k: batignolles.events[0].k, s: "batignolles-sound-garden", n: "Batignolles Sound Garden", w: "Fri 19 June · 14:00–22:00" });
    const areas = mapAreas(events, [11]);
    expect(areas.length).toBe(20);
    expect(areas.find((a) => a.arr === 11)).toMatchObject({ count: 2, selected: true, label: "11e - Popincourt" });
  });

  test("script JSON escapes what could end a script element", () => {
    expect(scriptJson({ n: "</script><!-- & \u2028" })).toBe('{"n":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028"}');
  });

  test.each([
    ["2026-06-18T22:00:00Z", { kind: "before", days: 2, hours: 0, minutes: 0 }],
    ["2026-06-20T21:59:00Z", { kind: "before", days: 0, hours: 0, minutes: 1 }],
    ["2026-06-20T22:00:00Z", { kind: "today" }],
    ["2026-06-21T21:59:00Z", { kind: "today" }],
    ["2026-06-21T22:00:00Z", { kind: "after" }],
    ["2026-01-01T00:00:00Z", { kind: "before", days: 170, hours: 22, minutes: 0 }],
  ])("countdown at %p", (at, state) => {
    expect(countdownAt(new Date(at), "2026-06-21")).toEqual(state as never);
  });

  test("Paris wall clock to instants and ISO with offset", () => {
    expect(parisInstant("2026-06-21").toISOString()).toBe("2026-06-20T22:00:00.000Z");
    expect(parisInstant("2026-01-10", "20:00").toISOString()).toBe("2026-01-10T19:00:00.000Z");
    expect(parisDateTime("2026-06-21", "18:00")).toBe("2026-06-21T18:00:00+02:00");
    expect(parisDateTime("2026-12-01", "18:00")).toBe("2026-12-01T18:00:00+01:00");
  });
});

describe("event preview meta", () => {
  test("title, description, JSON-LD, map links, host names", () => {
    const events = fixtureEvents();
    const canal = events[0];
    expect(eventPageTitle(canal)).toBe("Canal Amapiano Sunset | finder");
    expect(eventPageDescription(canal)).toBe("10th arrondissement · Sun 21 June · 18:00–23:00 · Quai de Valmy · Free");
    const mystery = events.find((e) => e.eventKey === "evt_fixture000007")!;
    expect(eventPageDescription(mystery)).toBe("Paris · Mon 22 June · TBC · Location TBA · TBA");
    const rooftop = events.find((e) => e.eventKey === "evt_fixture000002")!;
    const ld = eventJsonLd(config, rooftop)!;
    expect(ld.startDate).toBe("2026-06-21T22:00:00+02:00");
    expect(ld.endDate).toBe("2026-06-22T04:00:00+02:00"); // ends the next day
    expect(ld.url).toBe("https://finder.example/?event=evt_fixture000002&slug=belleville-rooftop-house");
    expect(eventJsonLd(config, { ...canal, date: "" })).toBeUndefined();
    expect(mapAppLinks(canal)).toEqual({
      google: "https://www.google.com/maps/search/?api=1&query=Quai+de+Valmy%2C+10th+arrondissement%2C+Paris%2C+France",
      apple: "https://maps.apple.com/?q=Quai+de+Valmy%2C+10th+arrondissement%2C+Paris%2C+France",
    });
    expect(linkHostname("https://www.tickets.example/a")).toBe("tickets.example");
    expect(linkHostname("not a url")).toBeUndefined();
  });
});
