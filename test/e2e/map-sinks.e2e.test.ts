// Sheet values reach the browser's map as text, never as HTML: a venue cell holding markup (a meta
// refresh that would send the visitor elsewhere, an image with a handler) shows as those characters
// in the map's popups (here the estimated-position badge of each arrondissement, which lists its
// venues by name), and no element of it is ever created.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newContext, useBrowserApp } from "../helpers/browser.ts";

const BROWSER_TEST_MS = 60_000;

const HOSTILE_VENUES = [
  `<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/away">Le Piège`,
  `<img src=x onerror="document.title='owned'">Cave <b>bold</b>`,
];

// The local sheet: the shipped CSV's header and two events whose Location cells are hostile.
const csvDir = mkdtempSync(join(tmpdir(), "finder-map-sinks-"));
const csvFile = join(csvDir, "events.csv");
const header = readFileSync("data/events.csv", "utf8").split("\n")[0];
const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
const row = (title: string, venue: string, area: string) =>
  [title, "", "2026-06-21", "", "20:00", "23:00", "FR", quote(venue), area, "Free", "Jazz", "https://example.com/e", "All ages", "Outdoor", "FR", "", "", "", "", ""].join(",");
writeFileSync(csvFile, [header, row("Hostile One", HOSTILE_VENUES[0], "11"), row("Hostile Two", HOSTILE_VENUES[1], "3")].join("\n") + "\n");

const { server, browser } = useBrowserApp({ env: { DATA_MODE: "local", LOCAL_EVENTS_CSV: csvFile } });

describe("map sinks take text only", () => {
  test("hostile venue names show as text in the map's popups; no element of them exists and the page stays put", async () => {
    const context = await newContext(browser, "desktop");
    const page = await context.newPage();
    // Any navigation away (a meta refresh) would hit this address; nothing may request it.
    const away: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/away")) away.push(request.url());
    });
    try {
      await page.goto(`${server.url}/`);
      const title = await page.title();
      await page.locator("#map-card summary").click();
      await page.locator(".leaflet-container").waitFor();
      await page.waitForFunction(() => document.querySelectorAll("#event-map path[data-area]").length === 20);
      // Without a geocoding key both venues sit at their arrondissement's centre: each area's badge
      // popup lists its venues by name (the badge's own title and the popup's headings are the sinks).
      const badges = page.locator(".approx-badge");
      await badges.first().waitFor();
      expect(await badges.count()).toBe(2);
      const seen: string[] = [];
      for (const index of [0, 1]) {
        await badges.nth(index).click({ force: true });
        const popup = page.locator(".leaflet-popup [data-approx-popup]").last();
        await popup.waitFor();
        seen.push(...(await popup.locator("h3").allInnerTexts()));
        expect(await page.locator(".leaflet-popup meta, .leaflet-popup img, .leaflet-popup b").count()).toBe(0);
        await page.keyboard.press("Escape");
      }
      for (const venue of HOSTILE_VENUES) expect(seen).toContain(venue);
      // Give a planted refresh time to fire: the page is still here, untouched.
      await page.waitForTimeout(500);
      expect(away).toEqual([]);
      expect(page.url()).toBe(`${server.url}/`);
      expect(await page.title()).toBe(title);
      expect(await page.locator("#event-map meta, #event-map img:not(.leaflet-tile)").count()).toBe(0);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);
});
