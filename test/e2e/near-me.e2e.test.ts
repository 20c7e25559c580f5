// "Near me" on a 390×844 phone in French at 21:30 on 21 June, geolocation granted at République
// (48.8674, 2.3636): what is on now and next per venue, each venue under its own name, with the
// list's cards; estimated positions (arrondissement centres, the default without a geocoding key)
// read "dans le 3e" and never metres; pinned ones read metres and walking minutes; finished events
// and other days are absent. Then the preview clock (`?at=` with the server in late May, before the
// edition) with its badge, and near me off season saying what it shows. (Once the edition is over
// the homepage lists the next one: docs/editions.md.)

import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { createClock, TEST_ADMIN_KEY } from "../helpers/app.ts";
import { collectConsoleErrors, screenshot, SCREENSHOT_DIR, useBrowserApp, VIEWPORTS } from "../helpers/browser.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { join } from "node:path";

const AT = new Date("2026-06-21T19:30:00Z"); // 21:30 Paris
const BEFORE_EDITION = new Date("2026-05-27T12:00:00Z");
const REPUBLIQUE = { latitude: 48.8674, longitude: 2.3636 };
const TIMEOUT = 90_000;

const HEADER = "Title,Curated,Date,Date To,Start Time,End Time,Host Country,Location,Area,Price,Categories,Primary URL,Age Guidance,Setting,Audience Country,Event Category,Notes,Tags,Series Key,Event Key";
const row = (title: string, date: string, start: string, end: string, venue: string, area: number) => `${title},,${date},,${start},${end},FR,${venue},${area},Free,Jazz,,All ages,Outdoor,,,,,,`;
const SHEET = [
  HEADER,
  row("Canal Live Set", "2026-06-21", "20:00", "23:00", "Quai de Jemmapes", 10),
  row("Canal Late Jam", "2026-06-21", "22:00", "01:00", "Quai de Jemmapes", 10),
  row("Afternoon Brass", "2026-06-21", "16:00", "19:00", "Le Comptoir Général", 10),
  row("Monday Chorus", "2026-06-22", "20:00", "22:00", "Quai de Jemmapes", 10),
  row("Marais Soul", "2026-06-21", "21:00", "23:30", "Carreau du Temple", 3),
  row("Temple Techno", "2026-06-21", "23:00", "04:00", "Square du Temple", 3),
  row("Far Away Folk", "2026-06-21", "21:00", "23:00", "Parc Montsouris", 14),
  row("Oberkampf Garage", "2026-06-21", "22:30", "03:00", "Bar Oberkampf", 11),
  row("Friday Warmup", "2026-06-19", "20:00", "23:00", "Canal Bar", 10),
  row("Saturday Samba", "2026-06-20", "18:00", "22:00", "Kiosque République", 3),
].join("\n");

const { ctx, server, browser } = useBrowserApp({
  ...{ clock: createClock(AT), env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } },
  seed: async (ctx) => {
    const saved = await saveStoreSheet(ctx.deps.db, SHEET + "\n", { updatedBy: "admin-upload", origin: "manual", now: AT });
    if (!saved.ok) throw new Error(saved.error);
  },
});

async function phone(options: { clock?: Date } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const v = VIEWPORTS.phone;
  const context = await browser.newContext({
    viewport: { width: v.width, height: v.height },
    isMobile: v.isMobile,
    hasTouch: v.hasTouch,
    locale: "fr-FR",
    geolocation: REPUBLIQUE,
    permissions: ["geolocation"],
  });
  const page = await context.newPage();
  if (options.clock) await page.clock.setFixedTime(options.clock);
  return { context, page };
}

/** Opens near me from its chip and waits for the list (or the "nothing" line). */
async function openNearMe(page: Page): Promise<void> {
  await page.locator("[data-near-me]").click();
  await page.waitForFunction(() => /dans un rayon de/.test(document.querySelector("[data-near-status]")?.textContent ?? ""));
}

interface VenueRow {
  name: string;
  distance: string;
  events: string[];
}
function venuesShown(page: Page): Promise<VenueRow[]> {
  return page.locator("#near-me .near-venue").evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector(".near-venue-name")!.textContent!.trim(),
      distance: item.querySelector(".near-distance")!.textContent!.trim(),
      events: Array.from(item.querySelectorAll(".card-link")).map((a) => a.textContent!.trim()),
    })),
  );
}

async function pin(id: string, coordinates: string): Promise<void> {
  const res = await fetch(`${server.url}/api/admin/venues/${encodeURIComponent(id)}/pin`, { method: "PUT", headers: { "x-admin-key": TEST_ADMIN_KEY, "content-type": "application/json", origin: server.url }, body: JSON.stringify({ coordinates }) });
  if (!res.ok) throw new Error(`pin ${id}: ${res.status} ${await res.text()}`);
}

describe("near me at 21:30 on 21 June, phone, French, at République", () => {
  test("estimated positions: venues under their own names, \"dans le 3e\" and never metres; finished events and other days absent", async () => {
    const { context, page } = await phone({ clock: AT });
    const errors = collectConsoleErrors(page);
    try {
      await page.goto(`${server.url}/fr/`);
      await openNearMe(page);
      const venues = await venuesShown(page);
      expect(venues.map((v) => v.name)).toEqual(["Carreau du Temple", "Square du Temple", "Quai de Jemmapes", "Bar Oberkampf"]);
      expect(venues.map((v) => v.distance)).toEqual(["dans le 3e", "dans le 3e", "dans le 10e", "dans le 11e"]);
      expect(venues.find((v) => v.name === "Quai de Jemmapes")!.events).toEqual(["Canal Live Set", "Canal Late Jam"]);
      const panel = await page.locator("#near-me").innerText();
      expect(panel).not.toMatch(/\d+ m\b/);
      for (const absent of ["Afternoon Brass", "Monday Chorus", "Far Away Folk", "Saturday Samba", "Friday Warmup"]) expect(panel).not.toContain(absent);
      expect(panel).toContain("Aujourd'hui, en cours et à venir");
      // The same cards as the list, with their live state.
      expect(await page.locator("#near-me article.card").count()).toBe(5);
      expect(await page.locator("#near-me .live-state:not([hidden])").first().innerText()).toMatch(/En cours · jusqu'à|Dans \d+ min|Dernière heure/);
      // The panel has side padding: its cards do not touch the screen's edges.
      const box = (await page.locator("#near-me article.card").first().boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(12);
      expect(box.x + box.width).toBeLessThanOrEqual(390 - 12);
      await page.locator("#near-me").screenshot({ path: join(SCREENSHOT_DIR, "near-me-estimated-phone.png") });
      // A card opens its modal like in the list.
      await page.locator("#near-me .card-link", { hasText: "Marais Soul" }).click();
      await page.locator("dialog.modal[open]").waitFor();
      expect(page.url()).toContain("event=");
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("precise positions (pinned venues): metres and walking minutes, nearest first, then the estimates; the radius applies", async () => {
    await pin("quai_de_jemmapes_10", "48.8702, 2.3650");
    await pin("carreau_du_temple_3", "48.8652, 2.3620");
    await pin("bar_oberkampf_11", "48.8652, 2.3776");
    const { context, page } = await phone({ clock: AT });
    const sent: string[] = [];
    page.on("request", (request) => sent.push(request.url() + " " + (request.postData() ?? "")));
    try {
      await page.goto(`${server.url}/fr/`);
      await openNearMe(page);
      const venues = await venuesShown(page);
      expect(venues.map((v) => v.name)).toEqual(["Carreau du Temple", "Quai de Jemmapes", "Square du Temple"]);
      expect(venues[0]!.distance).toMatch(/^\d{2,3} m · \d+ min à pied$/);
      expect(venues[1]!.distance).toMatch(/^\d{3} m · \d+ min à pied$/);
      expect(venues[2]!.distance).toBe("dans le 3e");
      expect(Number(venues[0]!.distance.split(" ")[0])).toBeLessThan(Number(venues[1]!.distance.split(" ")[0]));
      await page.locator("#near-me").screenshot({ path: join(SCREENSHOT_DIR, "near-me-precise-phone.png") });
      // Bar Oberkampf is pinned about 1.1 km away: outside 1 km, inside 3 km.
      await page.locator("[data-near-radius]").selectOption("3");
      await page.waitForFunction(() => /3 km/.test(document.querySelector("[data-near-status]")?.textContent ?? ""));
      const wider = await venuesShown(page);
      const oberkampf = wider.find((v) => v.name === "Bar Oberkampf")!;
      expect(oberkampf.distance).toMatch(/^1 ?\d{3} m · \d+ min à pied$/);
      expect(wider.map((v) => v.name)).not.toContain("Parc Montsouris");
      // The position never leaves the page.
      expect(sent.filter((line) => line.includes("48.867") || line.includes("2.363"))).toEqual([]);
      await screenshot(page, "near-me-precise-phone-full");
    } finally {
      await context.close();
    }
  }, TIMEOUT);
});

describe("the preview clock and the off season", () => {
  test("?at= with the server in May: the badge, festival-night live states and near me at 21:30; leaving it", async () => {
    ctx.clock.set(BEFORE_EDITION);
    const { context, page } = await phone();
    const errors = collectConsoleErrors(page);
    try {
      await page.goto(`${server.url}/fr/?at=2026-06-21T21:30`);
      expect(page.url()).toBe(`${server.url}/fr/`);
      const badge = page.locator(".preview-badge");
      expect(await badge.isVisible()).toBe(true);
      expect((await badge.innerText()).replace(/\s+/g, " ")).toBe("Aperçu : 21 juin 21:30 Quitter l'aperçu");
      await page.screenshot({ path: join(SCREENSHOT_DIR, "preview-badge-phone.png") });
      // The festival is on at the preview minute: the time chips, not the off-season days.
      expect(await page.locator('#quick-chips [data-quick="now"]').count()).toBe(1);
      // Kept while browsing: a chip (htmx) and a full reload stay at 21:30.
      await page.locator('#quick-chips [data-quick="now"]').click();
      await page.waitForURL(/when=now/);
      await page.waitForFunction(() => document.querySelectorAll("#results article.card").length > 0);
      const live = await page.locator("#results .live-state:not([hidden])").allInnerTexts();
      expect(live.length).toBeGreaterThan(0);
      for (const label of live) expect(label).toMatch(/En cours · jusqu'à|Dernière heure/);
      await page.reload();
      expect(await page.locator(".preview-badge").isVisible()).toBe(true);
      await openNearMe(page);
      const names = (await venuesShown(page)).map((v) => v.name);
      expect(names).toContain("Quai de Jemmapes");
      expect(await page.locator("#near-me .card-title", { hasText: "Afternoon Brass" }).count()).toBe(0);
      await screenshot(page, "preview-clock-phone");
      // Leaving: back on the server's clock (May), where the chips say when the festival is.
      await page.locator(".preview-badge a").click();
      await page.locator(".quick-note").waitFor();
      expect(await page.locator(".quick-note").innerText()).toBe("Fête de la Musique : 19–22 juin");
      expect(await page.locator(".preview-badge").count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      ctx.clock.set(AT);
    }
  }, TIMEOUT);

  test("an invalid ?at= answers a page that says how to write it", async () => {
    const { context, page } = await phone();
    try {
      const response = await page.goto(`${server.url}/fr/?at=21h30`);
      expect(response!.status()).toBe(400);
      expect(await page.locator("main").innerText()).toContain("?at=AAAA-MM-JJTHH:MM");
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("in May near me says what it shows: every listed event near you, with the festival's dates", async () => {
    ctx.clock.set(BEFORE_EDITION);
    ctx.deps.renderCache.invalidate({ paths: ["/"] });
    const { context, page } = await phone({ clock: BEFORE_EDITION });
    try {
      await page.goto(`${server.url}/fr/`);
      await openNearMe(page);
      const panel = await page.locator("#near-me").innerText();
      expect(panel).toContain("Le festival a lieu 19–22 juin : voici tous les événements listés près de vous, quel que soit le jour.");
      // The cards are counted rather than read from innerText: a list item below the fold skips its
      // rendering (content-visibility: auto), and Chromium then leaves its text out of innerText.
      for (const name of ["Afternoon Brass", "Monday Chorus"]) expect(await page.locator("#near-me .card-title", { hasText: name }).count()).toBe(1);
      await page.locator("#near-me").screenshot({ path: join(SCREENSHOT_DIR, "near-me-off-season-phone.png") });
    } finally {
      await context.close();
      ctx.clock.set(AT);
      ctx.deps.renderCache.invalidate({ paths: ["/"] });
    }
  }, TIMEOUT);
});
