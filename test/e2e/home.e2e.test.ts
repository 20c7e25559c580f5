// The homepage in Chromium on a phone and a desktop viewport: loads clean, search and filters narrow
// the list and the URL, the card opens the modal (Escape closes it, focus returns), the share URL
// opens the same modal, Add to Calendar downloads the .ics and sends a calendar_sync beacon, the
// map loads on demand, and everything works with JavaScript switched off.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { collectConsoleErrors, newContext, openFilterSection, screenshot, useBrowserApp } from "../helpers/browser.ts";

const { server, browser } = useBrowserApp();

/**
 * Tracking beacons the page sends, read where the browser hands them over (the tracking endpoints
 * belong to another area of the app; here every call is answered 202 like the real ones).
 */
async function captureBeacons(page: Page): Promise<Array<{ url: string; body: Record<string, unknown> }>> {
  const beacons: Array<{ url: string; body: Record<string, unknown> }> = [];
  await page.route(/\/api\/track(\/discovery)?$/, async (route) => {
    const request = route.request();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(request.postDataBuffer()?.toString("utf8") ?? "{}");
    } catch {}
    beacons.push({ url: new URL(request.url()).pathname, body });
    await route.fulfill({ status: 202, contentType: "application/json", body: '{"success":true}' });
  });
  return beacons;
}

async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent?.trim() === t, [selector, text] as const, { timeout: 5000 });
}

async function waitFor<T>(read: () => T, ok: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (ok(value) || Date.now() - started > timeoutMs) return value;
    await Bun.sleep(50);
  }
}

const BROWSER_TEST_MS = 60_000;
const CANAL_MODAL = "/?event=evt_fixture000001&slug=canal-amapiano-sunset";

describe("homepage in the browser", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    test(`${viewport}: loads with no console errors`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const errors = collectConsoleErrors(page);
      try {
        const response = await page.goto(`${server.url}/`);
        expect(response?.status()).toBe(200);
        await page.getByRole("heading", { name: "Discover events across the city" }).waitFor();
        await waitForText(page, "#result-count", "14 available");
        expect(await page.locator("#results article.card").count()).toBe(14);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
        expect(await page.locator("main").count()).toBe(1);
        await page.waitForLoadState("networkidle");
        await screenshot(page, `home-${viewport}`);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, BROWSER_TEST_MS);

    test(`${viewport}: search and two filters narrow the list and update the URL; chips clear them`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const beacons = await captureBeacons(page);
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(`${server.url}/`);
        await openFilterSection(page, "Date & Times");
        await page.getByRole("checkbox", { name: "Night (after 22:00)" }).check();
        await page.waitForURL(`${server.url}/?dn=night`);
        await waitForText(page, "#result-count", "7 found");
        await openFilterSection(page, "Location");
        await page.getByRole("checkbox", { name: "11e" }).check();
        await page.waitForURL(`${server.url}/?dn=night&arr=11`);
        await waitForText(page, "#result-count", "2 found");
        await page.getByRole("searchbox", { name: "Search events" }).fill("garage");
        await page.waitForURL(`${server.url}/?dn=night&arr=11&q=garage`);
        await waitForText(page, "#result-count", "1 found");
        expect(await page.locator("#results article.card").count()).toBe(1);
        await expect(page.locator("#results .card-link").textContent()).resolves.toBe("Oberkampf UK Garage");
        expect(await page.locator("#stats strong").first().innerText()).toBe("1");
        await screenshot(page, `home-filtered-${viewport}`);

        // The tracked discovery actions (docs/filters-and-search.md): two filter_apply, one search
        // after the pause.
        const discovery = await waitFor(
          () => beacons.filter((b) => b.url === "/api/track/discovery").map((b) => b.body),
          (list) => list.length >= 3,
        );
        expect(discovery).toContainEqual(expect.objectContaining({ actionType: "filter_apply", filterGroup: "day_night", filterValue: "night" }));
        expect(discovery).toContainEqual(expect.objectContaining({ actionType: "filter_apply", filterGroup: "arrondissement", filterValue: "11" }));
        expect(discovery).toContainEqual(expect.objectContaining({ actionType: "search", searchQuery: "garage" }));
        const sessionId = discovery[0].sessionId as string;
        expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
        expect(await page.evaluate(() => localStorage.getItem("finder:event-engagement-session"))).toBe(sessionId);
        expect(await page.evaluate(() => localStorage.getItem("finder:event-filters:v1"))).toBe("dn=night&arr=11&q=garage");

        // Removing a chip puts the form back in step and tracks filter_clear.
        await page.getByRole("link", { name: "11e (remove filter)" }).click();
        await page.waitForURL(`${server.url}/?dn=night&q=garage`);
        await waitForText(page, "#result-count", "1 found");
        await page.waitForFunction(() => !(document.querySelector('input[name="arr"][value="11"]') as HTMLInputElement).checked);
        await waitFor(() => beacons.some((b) => b.body.actionType === "filter_clear" && b.body.filterGroup === "arrondissement"), Boolean);
        // Back restores the previous filter state.
        await page.goBack();
        await page.waitForURL(`${server.url}/?dn=night&arr=11&q=garage`);
        await page.waitForFunction(() => document.getElementById("results")?.getAttribute("data-query") === "dn=night&arr=11&q=garage");
        // (read from the form itself: on a phone the panel is out of sight until the sheet opens)
        expect(await page.locator('#filters input[name="arr"][value="11"]').isChecked()).toBe(true);
        await page.getByRole("link", { name: "Clear all" }).click();
        await page.waitForURL(`${server.url}/?q=garage`);
        await page.waitForFunction(() => !(document.querySelector('input[name="dn"][value="night"]') as HTMLInputElement).checked);
        expect(errors.filter((e) => !e.includes("404"))).toEqual([]);
      } finally {
        await context.close();
      }
    }, BROWSER_TEST_MS);

    test(`${viewport}: a card opens the modal (tracked), Escape closes it and focus returns to the card`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const beacons = await captureBeacons(page);
      try {
        await page.goto(`${server.url}/`);
        const card = page.locator('#results article[data-event-key="evt_fixture000001"] .card-link');
        await card.click();
        const dialog = page.getByRole("dialog", { name: "Canal Amapiano Sunset" });
        await dialog.waitFor();
        await page.waitForURL(`${server.url}${CANAL_MODAL}`);
        expect(await page.evaluate(() => document.querySelector("#event-modal")!.matches(":modal"))).toBe(true);
        expect(await page.evaluate(() => document.getElementById("event-modal")!.contains(document.activeElement))).toBe(true);
        // Focus stays inside the dialog.
        for (let i = 0; i < 12; i++) await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.getElementById("event-modal")!.contains(document.activeElement))).toBe(true);
        await screenshot(page, `home-modal-${viewport}`);
        await waitFor(() => beacons.find((b) => b.url === "/api/track" && b.body.actionType === "click"), Boolean);
        expect(beacons.find((b) => b.url === "/api/track" && b.body.actionType === "click")?.body).toMatchObject({ eventKey: "evt_fixture000001", source: "event_open" });

        await page.keyboard.press("Escape");
        await page.waitForURL(`${server.url}/`);
        await page.waitForFunction(() => !document.getElementById("event-modal"));
        expect(await page.evaluate(() => document.activeElement?.closest("article")?.getAttribute("data-event-key"))).toBe("evt_fixture000001");
        // The close button does the same.
        await card.click();
        await dialog.waitFor();
        await page.getByRole("link", { name: "Close" }).click();
        await page.waitForURL(`${server.url}/`);
        await page.waitForFunction(() => !document.getElementById("event-modal"));
      } finally {
        await context.close();
      }
    }, BROWSER_TEST_MS);

    test(`${viewport}: the share URL opens the same modal; Add to Calendar downloads the .ics and sends calendar_sync`, async () => {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const beacons = await captureBeacons(page);
      try {
        await page.goto(`${server.url}/event/evt_fixture000001/an-old-slug`);
        await page.waitForURL(`${server.url}${CANAL_MODAL}`);
        const dialog = page.getByRole("dialog", { name: "Canal Amapiano Sunset" });
        await dialog.waitFor();
        expect(await page.evaluate(() => document.querySelector("#event-modal")!.matches(":modal"))).toBe(true);
        expect(await page.title()).toBe("Canal Amapiano Sunset | finder");

        const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Add to Calendar" }).click()]);
        expect(download.suggestedFilename()).toBe("canal-amapiano-sunset-2026-06-21.ics");
        const ics = readFileSync((await download.path())!, "utf8");
        expect(ics).toContain("BEGIN:VCALENDAR");
        expect(ics).toContain("SUMMARY:Canal Amapiano Sunset");
        const sync = await waitFor(() => beacons.find((b) => b.url === "/api/track" && b.body.actionType === "calendar_sync"), Boolean);
        expect(sync?.body).toMatchObject({ eventKey: "evt_fixture000001", actionType: "calendar_sync", source: "modal_calendar_sync" });
        expect(typeof sync?.body.sessionId).toBe("string");

        // Opened by the server: closing drops the parameters without leaving the page.
        await page.keyboard.press("Escape");
        await page.waitForFunction(() => !document.getElementById("event-modal"));
        expect(page.url()).toBe(`${server.url}/`);
      } finally {
        await context.close();
      }
    }, BROWSER_TEST_MS);

    test(`${viewport}: works with JavaScript disabled (form submit filters, event links open the modal page)`, async () => {
      const context = await newContext(browser, viewport, { javaScriptEnabled: false });
      const page = await context.newPage();
      try {
        await page.goto(`${server.url}/`);
        await page.getByRole("checkbox", { name: "Night (after 22:00)" }).check();
        await page.getByRole("checkbox", { name: "11e" }).check();
        await page.getByRole("button", { name: "Apply filters" }).first().click();
        await page.waitForURL(`${server.url}/?dn=night&arr=11`);
        await expect(page.locator("#result-count").innerText()).resolves.toBe("2 found");
        await page.getByRole("searchbox", { name: "Search events" }).fill("garage");
        await page.getByRole("searchbox", { name: "Search events" }).press("Enter");
        await page.waitForURL(`${server.url}/?dn=night&arr=11&q=garage`);
        await expect(page.locator("#result-count").innerText()).resolves.toBe("1 found");
        await screenshot(page, `home-nojs-filtered-${viewport}`);

        await page.locator("#results .card-link", { hasText: "Oberkampf UK Garage" }).click();
        await page.waitForURL(`${server.url}/?event=evt_fixture000011&slug=oberkampf-uk-garage`);
        const dialog = page.locator("dialog#event-modal[open]");
        await dialog.waitFor();
        await expect(dialog.getByRole("heading", { level: 2 }).innerText()).resolves.toBe("Oberkampf UK Garage");
        await expect(dialog.getByRole("link", { name: "Add to Calendar" }).getAttribute("href")).resolves.toBe("/api/events/evt_fixture000011/calendar.ics");
        await screenshot(page, `home-nojs-modal-${viewport}`);
        await dialog.getByRole("link", { name: "Close" }).click();
        await page.waitForURL(`${server.url}/`);
        await page.getByRole("link", { name: "Sat 20 June" }).click();
        await page.waitForURL(`${server.url}/?df=2026-06-20&dt=2026-06-20`);
        await expect(page.locator("#result-count").innerText()).resolves.toBe("3 found");
      } finally {
        await context.close();
      }
    }, BROWSER_TEST_MS);
  }

  test("desktop: the map loads when opened, follows the filters, and a marker popup opens the event", async () => {
    const context = await newContext(browser, "desktop");
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/?arr=11`);
      expect(await page.locator(".leaflet-container").count()).toBe(0);
      await page.locator("#map-card summary").click();
      await page.locator(".leaflet-container").waitFor();
      await expect(page.locator(".leaflet-control-attribution").innerText()).resolves.toContain("OpenStreetMap");
      await expect(page.locator(".leaflet-control-attribution").innerText()).resolves.toContain("Arrondissements © Ville de Paris, ODbL");
      // The 20 arrondissement outlines, and the venues of the filtered list (the map's JSON is
      // fetched from the address on the area list when the map opens). Without a geocoding key
      // every venue is an estimate: listed in its arrondissement's "≈ N venues" badge.
      const venueCount = () => page.evaluate(() => fetch(document.getElementById("map-areas")!.getAttribute("data-map-src")!).then((r) => r.json()).then((d) => d.venues.length as number));
      const badgesMatch = (count: number) =>
        page.waitForFunction((n) => document.querySelectorAll("#event-map path[data-area]").length === 20 && Array.from(document.querySelectorAll(".approx-badge")).reduce((sum, b) => sum + Number((b.textContent ?? "").replace(/\D+/g, "")), 0) === n, count);
      const venues = await venueCount();
      await badgesMatch(venues);
      expect(venues).toBeGreaterThan(0);
      await screenshot(page, "home-map-desktop");
      await page.locator(".approx-badge").first().click();
      const popupLink = page.locator(".leaflet-popup a[data-map-event]").first();
      await popupLink.waitFor();
      const key = await popupLink.getAttribute("data-map-event");
      await popupLink.click();
      await page.locator(`dialog#event-modal[data-event-key="${key}"]`).waitFor();
      await page.waitForURL(new RegExp(`event=${key}`));
      await page.keyboard.press("Escape");
      await page.waitForURL(`${server.url}/?arr=11`);
      // The map follows a filter change.
      await openFilterSection(page, "Location");
      await page.getByRole("checkbox", { name: "17e" }).check();
      await page.waitForURL(`${server.url}/?arr=11%2C17`);
      await page.waitForFunction((before) => !document.getElementById("map-areas")!.getAttribute("data-map-src")!.includes(before), "arr=11&");
      const more = await venueCount();
      expect(more).toBeGreaterThan(venues);
      await badgesMatch(more);
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);

  test("desktop: Sign in opens the sign-in form in a dialog; success closes it and the header shows the email", async () => {
    const context = await newContext(browser, "desktop");
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/`);
      await page.getByRole("banner").getByRole("link", { name: "Sign in" }).click();
      const dialog = page.locator("#sign-in-dialog");
      const email = dialog.getByLabel("Email", { exact: true });
      await email.waitFor();
      expect(await page.evaluate(() => document.getElementById("sign-in-dialog")!.matches(":modal"))).toBe(true);
      await email.fill("Visitor@Example.com");
      await dialog.getByRole("checkbox").check();
      await screenshot(page, "home-sign-in-desktop");
      await dialog.locator('button[type="submit"]').click();
      await page.waitForFunction(() => !document.getElementById("sign-in-dialog")!.hasAttribute("open"));
      await expect(page.locator("[data-account-email]").textContent()).resolves.toBe("visitor@example.com");
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    } finally {
      await context.close();
    }
  }, BROWSER_TEST_MS);
});
