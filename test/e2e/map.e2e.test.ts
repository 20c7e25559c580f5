// The homepage map on a phone in French (docs/public-pages.md, "Map card"): the 20 arrondissement
// outlines drawn from the data file with their filtered counts and the Ville de Paris attribution;
// a tap on an outline filters by it; venues as markers with their own names, clustered when zoomed
// out and split when zoomed in; two venues whose position is only their arrondissement's centre
// listed under their own names in one "≈ 2 lieux" badge; hostile venue names shown as text.

import { expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { createClock } from "../helpers/app.ts";
import { join } from "node:path";
import { newContext, SCREENSHOT_DIR, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { LOCATIONS_CACHE_VERSION, LOCATIONS_KV_KEY, locationId, type StoredLocation } from "../../src/lib/geocoding/location-cache.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const IMG = "<img src=x onerror=alert(1)>";
const META = "<meta http-equiv=refresh content=0;url=https://example.org>";
const SHEET = [
  "Title,Date,Start Time,End Time,Location,Area,Categories,Price,Status,Event Key",
  "Soirée Comptoir,2026-06-21,20:00,23:30,Le Comptoir Général,10,Jazz,Gratuit,,evt_map0000000000001",
  "Bal du Canal,2026-06-21,20:00,23:30,Canal Bar,10,Pop,Gratuit,cancelled,evt_map0000000000002",
  "Rock Éphémère,2026-06-21,21:00,23:30,Point Éphémère,10,Rock,Gratuit,,evt_map0000000000003",
  "Image piégée,2026-06-21,21:00,23:30,\"" + IMG + "\",11,Rock,Gratuit,,evt_map0000000000004",
  "Méta piégée,2026-06-21,21:00,23:30,\"" + META + "\",11,Rock,Gratuit,,evt_map0000000000005",
  "Cour en musique,2026-06-21,20:00,23:00,Cour du Marais,4,Classique,Gratuit,,evt_map0000000000006",
  "Chorale du square,2026-06-21,20:30,22:30,Square Charlemagne,4,Classique,Gratuit,,evt_map0000000000007",
].join("\n");

/** Geocoded pins (the two 10e venues 40 m apart cluster when zoomed out). */
const PINS: Array<[string, number, number, number]> = [
  ["Le Comptoir Général", 10, 48.87165, 2.36535],
  ["Canal Bar", 10, 48.872, 2.3657],
  ["Point Éphémère", 10, 48.8818, 2.3689],
  [IMG, 11, 48.8589, 2.38],
  [META, 11, 48.8575, 2.3785],
];

const { ctx, server, browser } = useBrowserApp({
  clock: createClock(AT.toISOString()),
  env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv", DEFAULT_LANGUAGE: undefined },
  seed: async (ctx) => {
    const saved = await saveStoreSheet(ctx.deps.db, SHEET, { updatedBy: "admin-upload", origin: "manual", now: ctx.clock.now() });
    if (!saved.ok) throw new Error(saved.error);
    const locations: Record<string, StoredLocation> = {};
    for (const [name, arrondissement, lat, lng] of PINS) {
      const id = locationId(name, arrondissement);
      locations[id] = { id, name, arrondissement, coordinates: { lat, lng }, confidence: 0.95, source: "geocoded", lastUpdated: AT.toISOString() };
    }
    await ctx.deps.kv.set(LOCATIONS_KV_KEY, { version: LOCATIONS_CACHE_VERSION, lastUpdated: AT.toISOString(), locations });
  },
});

async function openMap(page: Page, path = "/"): Promise<void> {
  await page.clock.setFixedTime(AT);
  await page.goto(`${server.url}${path}`);
  expect(await page.locator(".leaflet-container").count()).toBe(0);
  await page.locator("#map-card summary").click();
  await page.waitForFunction(() => document.querySelectorAll("#event-map path[data-area]").length === 20);
}

const areaCount = (page: Page, arr: number) => page.locator(`#event-map path[data-area="${arr}"]`).getAttribute("data-count");

test("phone, French: outlines with counts and attribution; a tap on an outline filters by it", async () => {
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  try {
    await openMap(page);
    expect(await areaCount(page, 10)).toBe("3");
    expect(await areaCount(page, 11)).toBe("2");
    expect(await areaCount(page, 4)).toBe("2");
    expect(await areaCount(page, 19)).toBe("0");
    // Outlines, not circles: each shape is the arrondissement's polygon (many points), shaded by count.
    const points = await page.locator('#event-map path[data-area="11"]').getAttribute("d");
    expect((points ?? "").split("L").length).toBeGreaterThan(8);
    expect(await page.locator('#event-map path[data-area="10"]').getAttribute("fill")).toBe("#ea580c");
    expect(await page.locator('#event-map path[data-area="19"]').getAttribute("fill")).toBe("#9ca3af");
    await expect(page.locator(".leaflet-control-attribution").innerText()).resolves.toContain("Arrondissements © Ville de Paris, ODbL");
    await screenshot(page, "map-phone-after");
    await page.locator("#map-card").screenshot({ path: join(SCREENSHOT_DIR, "map-phone-after-card.png") });

    // A tap on the 10th's outline ticks its box: the list, the URL and the map follow.
    await page.locator('#event-map path[data-area="10"]').dispatchEvent("click");
    await page.waitForURL(`${server.url}/?arr=10`);
    await page.waitForFunction(() => document.querySelector('#event-map path[data-area="11"]')?.getAttribute("data-count") === "0");
    expect(await areaCount(page, 10)).toBe("3");
    expect(await page.locator('#event-map path[data-area="10"]').getAttribute("fill")).toBe("#2563eb");
    expect(await page.locator("#results article.card").count()).toBe(3);
    await screenshot(page, "map-phone-filtered");
    expect(pageErrors).toEqual([]);
  } finally {
    await context.close();
  }
}, 90_000);

test("phone: clusters split on zoom; each venue keeps its name and events; estimated venues listed under their own names", async () => {
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  try {
    await openMap(page, "/?arr=10");
    // Zoomed out: the two 10e venues 40 m apart are one cluster of 2 events, Point Éphémère a pin.
    await page.waitForFunction(() => {
      const clusters = document.querySelectorAll(".venue-cluster");
      return clusters.length === 1 && clusters[0]!.textContent === "2" && document.querySelectorAll(".venue-pin").length === 1;
    });
    await page.locator(".venue-cluster").first().click();
    // Zoomed in on them: two pins, each with its own name (Point Éphémère is now out of view).
    await page.waitForFunction(
      () => document.querySelectorAll(".venue-cluster").length === 0 && document.querySelector('.venue-pin[title="Canal Bar"]') !== null && document.querySelector('.venue-pin[title="Le Comptoir Général"]') !== null,
      undefined,
      { timeout: 10_000 },
    );
    await screenshot(page, "map-phone-zoomed");
    await page.locator('.venue-pin[title="Canal Bar"]').click();
    const popup = page.locator(".leaflet-popup [data-venue-popup]");
    await expect(popup.locator("h3").innerText()).resolves.toBe("Canal Bar");
    await expect(popup.locator("a[data-map-event]").innerText()).resolves.toBe("Bal du Canal");
    // The status leads the date line of a cancelled event.
    await expect(popup.locator("small").innerText()).resolves.toMatch(/^Annulé · /);

    // The 4th: two venues at the centre, one dashed badge; the popup names each with its own event.
    await page.goto(`${server.url}/?arr=4`);
    await page.locator("#map-card summary").click();
    const badge = page.locator(".approx-badge");
    await badge.waitFor();
    await expect(badge.innerText()).resolves.toBe("≈ 2 lieux");
    expect(await page.locator(".venue-pin, .venue-cluster").count()).toBe(0);
    await badge.click();
    const approx = page.locator(".leaflet-popup [data-approx-popup]");
    await expect(approx.locator(".map-popup-note").innerText()).resolves.toContain("quelque part dans le");
    expect(await approx.locator("section").evaluateAll((sections) => sections.map((s) => [s.querySelector("h3")!.textContent, s.querySelector("a")!.textContent]))).toEqual([
      ["Cour du Marais", "Cour en musique"],
      ["Square Charlemagne", "Chorale du square"],
    ]);
    // Nothing of the popup sits under "Me situer" or the zoom buttons: they step aside while it is open.
    const covered = () =>
      page.evaluate(() => {
        const popup = document.querySelector(".leaflet-popup")!.getBoundingClientRect();
        return [".map-locate", ".leaflet-control-zoom"].filter((selector) => {
          const control = document.querySelector(selector)!;
          const box = control.getBoundingClientRect();
          const overlaps = !(popup.top >= box.bottom || popup.bottom <= box.top || popup.right <= box.left || popup.left >= box.right);
          return overlaps && getComputedStyle(control).visibility !== "hidden";
        });
      });
    expect(await covered()).toEqual([]);
    await screenshot(page, "map-phone-approx");
  } finally {
    await context.close();
  }
}, 90_000);

test("phone: hostile venue names are shown as text, never run", async () => {
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  try {
    await openMap(page, "/?arr=11");
    await page.locator(".venue-pin, .venue-cluster").first().waitFor();
    if (await page.locator(".venue-cluster").count()) {
      await page.locator(".venue-cluster").click();
      await page.waitForFunction(() => document.querySelectorAll(".venue-pin").length === 2, undefined, { timeout: 10_000 });
    }
    for (const name of [IMG, META]) {
      const pin = page.locator(".venue-pin").and(page.locator(`[title="${name.replace(/"/g, '\\"')}"]`));
      await pin.click();
      const popup = page.locator(".leaflet-popup [data-venue-popup]");
      await page.waitForFunction((n) => document.querySelector(".leaflet-popup [data-venue-popup] h3")?.textContent === n, name);
      expect(await popup.locator("img, meta").count()).toBe(0);
      await page.locator(".leaflet-popup-close-button").click();
    }
    expect(await page.locator("#event-map img:not(.leaflet-tile), #event-map meta").count()).toBe(0);
    await page.waitForTimeout(300);
    expect(page.url()).toBe(`${server.url}/?arr=11`);
    expect(dialogs).toEqual([]);
    await screenshot(page, "map-phone-hostile");
  } finally {
    await context.close();
  }
}, 90_000);

test("phone: after one visit with the map open, the outlines and venues show with the server stopped (no tiles)", async () => {
  const context = await newContext(browser, "phone", { locale: "fr-FR" });
  const page = await context.newPage();
  try {
    await page.clock.setFixedTime(AT);
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await page.locator("#map-card summary").click();
    await page.waitForFunction(() => document.querySelectorAll("#event-map path[data-area]").length === 20);
    // The worker keeps the map's data and files (the outlines among the fingerprinted files).
    await page.waitForFunction(
      async () => {
        const cache = await caches.open("finder-pack-v2");
        const paths = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
        return paths.includes("/?map=data") && paths.some((p) => /^\/static\/data\/arrondissements\.[0-9a-f]{10}\.json$/.test(p)) && paths.some((p) => /^\/static\/vendor\/leaflet\.markercluster\.[0-9a-f]{10}\.js$/.test(p)) && paths.includes("/");
      },
      undefined,
      { timeout: 30_000, polling: 200 },
    );

    await server.stop();
    expect(await fetch(`${server.url}/`).then(() => "answered", () => "refused")).toBe("refused");

    await page.goto(`${server.url}/`);
    await page.locator("[data-offline-notice]").waitFor({ state: "visible" });
    await page.locator("#map-card summary").click();
    await page.waitForFunction(() => document.querySelectorAll("#event-map path[data-area]").length === 20, undefined, { timeout: 15_000 });
    expect(await areaCount(page, 10)).toBe("3");
    await page.locator(".venue-pin, .venue-cluster").first().waitFor();
    await expect(page.locator(".approx-badge").innerText()).resolves.toBe("≈ 2 lieux");
    await expect(page.locator(".leaflet-control-attribution").innerText()).resolves.toContain("Arrondissements © Ville de Paris, ODbL");
    await screenshot(page, "map-phone-offline");
  } finally {
    await context.close();
  }
}, 120_000);
