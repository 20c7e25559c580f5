// "My night" over real HTTP: /my-night renders the saved events from the keys in the URL in time
// order with a walking route, a share link and one .ics (parsed with ical.js); bad, unknown,
// repeated and too many keys are left out with a notice and never cause a 5xx. Also the festival
// pack: the save buttons on cards and in the modal, the web app manifest with real PNG icons, the
// service worker at the root, and the Content-Security-Policy that lets both load.

import { describe, expect, test } from "bun:test";
import ICAL from "ical.js";
import { useTestApp, withTestApp } from "../helpers/app.ts";
import { decodePng } from "../helpers/png.ts";
import { CONTENT_SECURITY_POLICY } from "../../src/lib/http/security-headers.ts";
import { MAX_NIGHT_EVENTS, readNightKeys } from "../../src/pages/my-night/night.ts";

const ctx = useTestApp();

const stops = (html: string) => [...html.matchAll(/<li class="night-stop" data-event-key="([^"]+)"/g)].map((m) => m[1]);
const decode = (text: string) => text.replaceAll("&amp;", "&").replaceAll("&quot;", '"');

async function page(query: string): Promise<{ status: number; html: string }> {
  const res = await ctx.request(`/my-night${query}`);
  return { status: res.status, html: await res.text() };
}

describe("/my-night", () => {
  test("lists the saved events in time order, whatever the order of the link", async () => {
    const { status, html } = await page("?e=evt_fixture000002,evt_fixture000001,evt_fixture000004");
    expect(status).toBe(200);
    // 18:00 Canal, 20:30 Pigalle, 22:00 Belleville (all 21 June).
    expect(stops(html)).toEqual(["evt_fixture000001", "evt_fixture000004", "evt_fixture000002"]);
    expect(html).toContain("Canal Amapiano Sunset");
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"');
    expect(html).not.toContain("night-notice");
  });

  test("each stop carries the card's sun or moon (one day/night rule): 18:00–23:00 and 22:00–04:00 are night, 16:00–17:30 day", async () => {
    const { html } = await page("?e=evt_fixture000001,evt_fixture000002,evt_fixture000010");
    const icons = Object.fromEntries([...html.matchAll(/<li class="night-stop" data-event-key="([^"]+)">\s*<p class="night-when"><span class="icon i-(\w+)/g)].map((m) => [m[1], m[2]]));
    expect(icons).toEqual({ evt_fixture000001: "moon", evt_fixture000002: "moon", evt_fixture000010: "sun" });
    const home = await (await ctx.request("/")).text();
    for (const [key, icon] of Object.entries(icons)) expect(home).toMatch(new RegExp(`data-event-key="${key}"[\\s\\S]*?<p class="card-when"><span class="icon i-${icon}`));
    // And the modal's time.
    const modal = await (await ctx.request("/?event=evt_fixture000001&slug=canal-amapiano-sunset")).text();
    expect(modal).toMatch(/<dd><span class="icon i-moon icon-night" role="img" aria-label="Night"><\/span> 18:00–23:00 <span class="live-state[^"]*" data-live="[^"]+"( hidden)?>[^<]*<\/span><\/dd>/);
  });

  test("a walking route through the venues in time order, opened in the map app", async () => {
    const { html } = await page("?e=evt_fixture000002,evt_fixture000001,evt_fixture000004");
    const href = decode(/<a class="button button-primary" href="([^"]+)"[^>]*data-night-route/.exec(html)![1]);
    const url = new URL(href);
    expect(url.origin + url.pathname).toBe("https://www.google.com/maps/dir/");
    expect(url.searchParams.get("api")).toBe("1");
    expect(url.searchParams.get("travelmode")).toBe("walking");
    expect(url.searchParams.get("origin")).toBe("Quai de Valmy, 10th arrondissement, Paris, France");
    expect(url.searchParams.get("waypoints")).toBe("Place Pigalle, 18th arrondissement, Paris, France");
    expect(url.searchParams.get("destination")).toBe("Le Toit Belleville, 20th arrondissement, Paris, France");
  });

  test("more stops than one directions link takes are split into linked legs; an event without a venue stays off the route", async () => {
    const { walkingRoutes, ROUTE_STOPS } = await import("../../src/pages/my-night/night.ts");
    const { liveEvent } = await import("../helpers/events.ts");
    const events = Array.from({ length: 15 }, (_, i) => liveEvent({ eventKey: `evt_route${String(i).padStart(8, "0")}`, location: `Venue ${i}`, arrondissement: 11 }));
    const { routes, unplaced } = walkingRoutes([...events, liveEvent({ location: "TBA" })]);
    expect(unplaced).toHaveLength(1);
    expect(routes.map((r) => [r.from, r.to])).toEqual([
      [1, ROUTE_STOPS],
      [ROUTE_STOPS, 15],
    ]);
    const second = new URL(routes[1].url);
    expect(second.searchParams.get("origin")).toStartWith(`Venue ${ROUTE_STOPS - 1},`);
    expect(second.searchParams.get("waypoints")!.split("|")).toHaveLength(15 - ROUTE_STOPS - 1);
    const first = new URL(routes[0].url);
    expect(first.searchParams.get("waypoints")!.split("|")).toHaveLength(ROUTE_STOPS - 2);
  });

  test("the share link carries the keys of the listed events in time order", async () => {
    const { html } = await page("?e=evt_fixture000002,evt_fixture000001");
    expect(html).toContain('data-share-url="http://finder.test/my-night?e=evt_fixture000001,evt_fixture000002"');
    expect(html).toContain('href="/my-night?e=evt_fixture000001,evt_fixture000002" data-night-share-link');
  });

  test("bad, unknown and repeated keys are left out with a notice; nothing of them is echoed", async () => {
    const { status, html } = await page(`?e=${encodeURIComponent("evt_fixture000001,<script>alert(1)</script>,evt_zzzzzzzzzzzz,EVT_FIXTURE000002,evt_fixture000001,,")}`);
    expect(status).toBe(200);
    expect(stops(html)).toEqual(["evt_fixture000001", "evt_fixture000002"]);
    expect(html).toContain("1 saved event is no longer listed and was left out.");
    expect(html).toContain("1 part of this link is not an event and was ignored.");
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("evt_zzzzzzzzzzzz");
  });

  test(`at most ${MAX_NIGHT_EVENTS} keys are read; the rest is ignored with a notice`, async () => {
    const keys = Array.from({ length: 45 }, (_, i) => `evt_unknown${String(i).padStart(6, "0")}`);
    const read = readNightKeys(["evt_fixture000001", ...keys].join(","));
    expect(read.keys).toHaveLength(MAX_NIGHT_EVENTS);
    expect(read.overCap).toBe(46 - MAX_NIGHT_EVENTS);
    const { status, html } = await page(`?e=evt_fixture000001,${keys.join(",")}`);
    expect(status).toBe(200);
    expect(stops(html)).toEqual(["evt_fixture000001"]);
    expect(html).toContain(`${MAX_NIGHT_EVENTS - 1} saved events are no longer listed`);
    expect(html).toContain(`A night holds up to ${MAX_NIGHT_EVENTS} events`);
  });

  test("odd input never answers a 5xx", async () => {
    const odd = ["?e=", "?e=%00%ff%fe", "?e[]=evt_fixture000001", "?e=evt_fixture000001&e=evt_fixture000002", `?e=${"x".repeat(8000)}`, `?e=${",".repeat(3000)}`, "?e=%E2%80%AE,evt_fixture000001"];
    for (const query of odd) {
      const res = await ctx.request(`/my-night${query}`);
      expect(res.status, query).toBeLessThan(500);
      const ics = await ctx.request(`/my-night.ics${query}`);
      expect(ics.status, query).toBeLessThan(500);
    }
    const repeated = await page("?e=evt_fixture000001&e=evt_fixture000002");
    expect(stops(repeated.html)).toEqual(["evt_fixture000001", "evt_fixture000002"]);
  });

  test("without keys the page says nothing is saved yet and links to the calendar", async () => {
    const { status, html } = await page("");
    expect(status).toBe(200);
    expect(html).toContain("Nothing saved yet.");
    expect(html).toContain("data-night-empty");
    expect(stops(html)).toEqual([]);
  });
});

describe("/my-night.ics", () => {
  test("one calendar of the listed events in time order, parsed by ical.js", async () => {
    const { html } = await page("?e=evt_fixture000002,evt_fixture000001,evt_fixture000004");
    const href = decode(/href="([^"]+)" download="my-night.ics"/.exec(html)![1]);
    expect(href).toBe("/my-night.ics?e=evt_fixture000001,evt_fixture000004,evt_fixture000002");
    expect(html).toContain('data-track="calendar_sync" data-track-source="my_night_calendar" data-event-keys="evt_fixture000001,evt_fixture000004,evt_fixture000002"');
    const res = await ctx.request(href);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="my-night.ics"');
    const calendar = new ICAL.Component(ICAL.parse(await res.text()));
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("finder · My night");
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events.map((e) => e.summary)).toEqual(["Canal Amapiano Sunset", "Pigalle Hip Hop Cypher", "Belleville Rooftop House"]);
    expect(events.map((e) => e.uid)).toEqual(["evt_fixture000001@finder.test", "evt_fixture000004@finder.test", "evt_fixture000002@finder.test"]);
    expect(events[0].startDate.toString()).toBe("2026-06-21T18:00:00");
    expect(events[0].startDate.zone.tzid).toBe("Europe/Paris");
  });

  test("the calendar's name follows the request's language", async () => {
    const name = async (lang: string) => {
      const res = await ctx.request(`${lang === "fr" ? "/fr" : ""}/my-night.ics?e=evt_fixture000001`);
      expect(res.status).toBe(200);
      return new ICAL.Component(ICAL.parse(await res.text())).getFirstPropertyValue("x-wr-calname");
    };
    expect(await name("fr")).toBe("finder · Ma soirée");
    expect(await name("en")).toBe("finder · My night");
    expect(await (await ctx.request("/fr/my-night.ics")).text()).toBe("Aucune clé d’événement dans ce lien.");
  });

  test("no known event: 404, not an empty file", async () => {
    expect((await ctx.request("/my-night.ics")).status).toBe(404);
    expect((await ctx.request("/my-night.ics?e=evt_zzzzzzzzzzzz")).status).toBe(404);
  });
});

describe("save buttons", () => {
  test("every card of the homepage and the modal carry a hidden Save button for their event (shown by the script)", async () => {
    const html = await (await ctx.request("/")).text();
    const cards = [...html.matchAll(/<article class="[^"]*card[^"]*" data-event-key="([^"]+)">([\s\S]*?)<\/article>/g)];
    expect(cards.length).toBeGreaterThan(0);
    for (const [, key, body] of cards) expect(body).toContain(`<button type="button" class="save-toggle" data-save="${key}" hidden>Save</button>`);
    expect(html).toContain('href="/my-night" class="my-night-link" data-my-night-link');
    const modal = await (await ctx.request("/?event=evt_fixture000001&slug=canal-amapiano-sunset")).text();
    expect(modal).toContain('<button type="button" class="button save-toggle" data-save="evt_fixture000001" hidden>Save</button>');
  });
});

describe("festival pack", () => {
  test("the manifest names the app and links real PNG icons of the declared sizes", async () => {
    const html = await (await ctx.request("/")).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"/>');
    const res = await ctx.request("/manifest.webmanifest");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const manifest = (await res.json()) as { start_url: string; scope: string; display: string; icons: Array<{ src: string; sizes: string; type: string; purpose: string }> };
    expect(manifest.start_url).toBe("/");
    expect(manifest.scope).toBe("/");
    expect(manifest.display).toBe("standalone");
    expect(manifest.icons.map((i) => i.purpose)).toContain("maskable");
    for (const icon of manifest.icons) {
      expect(icon.src).toMatch(/^\/static\/icons\/[a-z0-9-]+\.[0-9a-f]{10}\.png$/);
      const png = await ctx.request(icon.src);
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      const image = decodePng(new Uint8Array(await png.arrayBuffer()));
      expect(`${image.width}x${image.height}`).toBe(icon.sizes);
    }
  });

  test("the manifest and the offline notice speak the request's language", async () => {
    const fr = await ctx.request("/fr/manifest.webmanifest");
    expect(fr.headers.get("vary")).toBeNull();
    const manifest = (await fr.json()) as { lang: string; description: string; shortcuts: Array<{ name: string }> };
    expect(manifest.lang).toBe("fr");
    expect(manifest.description).toStartWith("Ce qui se passe près de vous ce soir");
    expect(manifest.shortcuts[0].name).toBe("Ma soirée");
    expect(manifest).toMatchObject({ start_url: "/fr/", scope: "/", shortcuts: [{ url: "/fr/my-night" }] });
    const en = (await (await ctx.request("/manifest.webmanifest")).json()) as { lang: string };
    expect(en.lang).toBe("en");
    const page = await (await ctx.request("/fr/")).text();
    expect(page).toContain('data-template="Hors ligne, dernière mise à jour à {time}"');
    const english = await (await ctx.request("/")).text();
    expect(english).toContain('data-template="Offline, last updated {time}"');
  });

  test("the offline page (what the worker shows for a form it cannot reach) is static, noindex and in the request's language", async () => {
    const fr = await ctx.request("/fr/offline");
    expect(fr.status).toBe(200);
    const html = await fr.text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("Vous êtes hors ligne");
    expect(html).toContain('name="robots" content="noindex, nofollow"');
    expect(html).toMatch(/\/static\/offline\.[0-9a-f]{10}\.js/);
    const en = await (await ctx.request("/offline", { headers: { "accept-language": "en" } })).text();
    expect(en).toContain("You are offline");
    expect(en).toContain('href="/my-night"');
  });

  test("the service worker is served at the root, unfingerprinted, checked for updates on every visit", async () => {
    const res = await ctx.request("/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toContain('addEventListener("fetch"');
    const html = await (await ctx.request("/")).text();
    expect(html).not.toMatch(/\/static\/sw\.[0-9a-f]{10}\.js/);
  });

  test("the Content-Security-Policy allows the worker and the manifest from the site only", async () => {
    const res = await ctx.request("/");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });
});

describe("every source down", () => {
  test("/my-night answers 503 with the notice (never an error page) and the .ics 503, neither cached", async () => {
    const { saveStoreSheet } = await import("../../src/lib/store/store.ts");
    await withTestApp({ env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } }, async (down) => {
      // The store holds a sheet no row of which can be read, there is no backup and no local file.
      await saveStoreSheet(down.deps.db, "Title,Date\nBroken,someday\n", { updatedBy: "admin-upload", origin: "manual", now: down.deps.now() });
      const res = await down.request("/my-night?e=evt_fixture000001");
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const html = await res.text();
      expect(html).toContain("Events are unavailable right now.");
      expect(html).toContain("<h1>My night</h1>");
      const ics = await down.request("/my-night.ics?e=evt_fixture000001");
      expect(ics.status).toBe(503);
      expect(ics.headers.get("cache-control")).toBe("no-store");
    });
  }, 60_000);
});
