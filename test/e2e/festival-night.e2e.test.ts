// Festival night on a phone and a desktop, with the app clock and the browser clock at 21:30 on
// 21 June (Paris): the Now and Tonight chips narrow the list through htmx and through plain links
// with JavaScript off, the Finished divider, "Show more" appending the next cards (and a plain link
// without JavaScript), and "Near me" with geolocation granted (venues from the near-me fragment,
// distances measured in the page, never sent) and denied (the arrondissement picker).

import { describe, expect, test } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { collectConsoleErrors, newContext, screenshot, festivalSheetApp, useBrowserApp, VIEWPORTS } from "../helpers/browser.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const { server, browser } = useBrowserApp(festivalSheetApp(AT, 120));

async function open(viewport: keyof typeof VIEWPORTS, options: { javaScriptEnabled?: boolean; geolocation?: "granted" | "denied" } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const v = VIEWPORTS[viewport];
  const context =
    options.geolocation === undefined
      ? await newContext(browser, viewport, options)
      : await browser.newContext({
          viewport: { width: v.width, height: v.height },
          isMobile: v.isMobile,
          hasTouch: v.hasTouch,
          javaScriptEnabled: true,
          geolocation: { latitude: 48.8635, longitude: 2.3627 }, // 3e arrondissement
          permissions: options.geolocation === "granted" ? ["geolocation"] : [],
        });
  const page = await context.newPage();
  await page.clock.setFixedTime(AT);
  return { context, page };
}

const cardCount = (page: Page) => page.locator("#results ol.event-list > li > article.card").count();
const TIMEOUT = 90_000;

describe("festival night", () => {
  for (const viewport of ["phone", "desktop"] as const) {
    test(`${viewport}: Now narrows the list with htmx, Show more appends 25 cards, Finished divider`, async () => {
      const { context, page } = await open(viewport);
      const errors = collectConsoleErrors(page);
      try {
        await page.goto(`${server.url}/`);
        expect(await cardCount(page)).toBe(25);
        expect(await page.locator("#results .finished-divider").count()).toBeLessThanOrEqual(1);
        await page.locator("[data-show-more]").click();
        await page.waitForFunction(() => document.querySelectorAll("#results ol.event-list > li > article.card").length === 50);
        expect(page.url()).toBe(`${server.url}/`);
        await page.getByRole("link", { name: "Now", exact: true }).click();
        await page.waitForURL(`${server.url}/?when=now`);
        await page.waitForFunction(() => document.querySelector("#quick-chips [data-quick=now]")?.classList.contains("is-active"));
        const now = await cardCount(page);
        expect(now).toBeGreaterThan(0);
        expect(now).toBeLessThan(25);
        if (viewport === "phone") await screenshot(page, "festival-now-phone");
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    }, TIMEOUT);
  }

  test("phone: the sticky bar shows the count and opens the filter sheet; a filter change brings the list into view", async () => {
    const { context, page } = await open("phone");
    try {
      await page.goto(`${server.url}/`);
      const bar = page.locator("#sticky-bar");
      const barText = () => bar.evaluate((el) => el.textContent!.replace(/\s+/g, " ").trim());
      expect(await barText()).toBe("120 events · Filters");
      await bar.click();
      await page.waitForFunction(() => document.body.classList.contains("filters-open"));
      expect(await page.locator(".browse-filters").evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
      await page.locator("details.filter-section summary", { hasText: "Preferences" }).click();
      await page.getByRole("checkbox", { name: "Show only curated picks" }).check();
      await page.waitForURL(/pick=1/);
      await page.waitForFunction(() => !document.body.classList.contains("filters-open"));
      await page.waitForFunction(() => {
        const text = document.getElementById("sticky-bar")!.textContent!.replace(/\s+/g, " ").trim();
        return /^\d+ events? · Filters$/.test(text) && !text.startsWith("120 ");
      });
      const top = await page.locator("#results").evaluate((el) => el.getBoundingClientRect().top);
      // The list starts in the upper half of the screen (a short list cannot scroll to the very top).
      expect(top).toBeGreaterThanOrEqual(-1);
      expect(top).toBeLessThan(844 / 2);
      await screenshot(page, "festival-after-filter-phone");
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("desktop: no sticky bar, the filters stay beside the list", async () => {
    const { context, page } = await open("desktop");
    try {
      await page.goto(`${server.url}/`);
      expect(await page.locator("#sticky-bar").isVisible()).toBe(false);
      expect(await page.locator(".browse-filters").evaluate((el) => getComputedStyle(el).position)).not.toBe("fixed");
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("phone, JavaScript off: chips and Show more are plain links", async () => {
    const { context, page } = await open("phone", { javaScriptEnabled: false });
    try {
      await page.goto(`${server.url}/`);
      await page.getByRole("link", { name: "Tonight", exact: true }).click();
      await page.waitForURL(`${server.url}/?when=tonight`);
      const tonight = await cardCount(page);
      expect(tonight).toBeGreaterThan(0);
      await page.goto(`${server.url}/`);
      await page.locator("[data-show-more]").click();
      await page.waitForURL(`${server.url}/?p=2`);
      expect(await cardCount(page)).toBe(25);
      await page.getByText("Events 26–50 of 120").waitFor();
      // Near me without JavaScript jumps to the arrondissement picker.
      await page.goto(`${server.url}/`);
      await page.locator("[data-near-me]").click();
      await page.waitForURL(`${server.url}/#near-me`);
      expect(await page.locator("#near-me .area-picker a").count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  for (const viewport of ["phone", "desktop"] as const)
  test(`${viewport}, geolocation granted: nearby venues by distance within the radius; the position is never sent`, async () => {
    const { context, page } = await open(viewport, { geolocation: "granted" });
    const sent: string[] = [];
    page.on("request", (request) => sent.push(request.url() + (request.postData() ?? "")));
    try {
      await page.goto(`${server.url}/`);
      await page.locator("[data-near-me]").click();
      await page.locator("#near-me .near-venue").first().waitFor();
      await page.locator("[data-near-radius]").selectOption("5");
      await page.waitForFunction(() => /within 5 km/.test(document.querySelector("[data-near-status]")?.textContent ?? ""));
      // The sheet's venues are not geocoded in tests: every one is an estimate ("in the 11th"),
      // listed while its arrondissement's centre is within the radius plus the estimate's slack.
      const rows = await page.locator("#near-me .near-venue").evaluateAll((items) =>
        items.map((item) => ({ lat: Number(item.getAttribute("data-lat")), lng: Number(item.getAttribute("data-lng")), distance: item.querySelector(".near-distance")!.textContent!.trim() })),
      );
      const here = { lat: 48.8635, lng: 2.3627 };
      const km = rows.map((row) => {
        const rad = Math.PI / 180;
        const h = Math.sin(((row.lat - here.lat) * rad) / 2) ** 2 + Math.cos(here.lat * rad) * Math.cos(row.lat * rad) * Math.sin(((row.lng - here.lng) * rad) / 2) ** 2;
        return 12742 * Math.asin(Math.sqrt(h));
      });
      expect(rows.length).toBeGreaterThan(0);
      // Only the nearest 20 venues are shown (the sheet has 300 venues, most within 5 km).
      expect(rows.length).toBe(20);
      for (const row of rows) expect(row.distance).toMatch(/^in the \d+(st|nd|rd|th)$/);
      expect(km.every((d) => d <= 6)).toBe(true);
      expect([...km].sort((a, b) => a - b)).toEqual(km);
      expect(sent.some((text) => text.includes("48.86") || text.includes("2.362"))).toBe(false);
      await screenshot(page, `festival-near-me-${viewport}`);
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  for (const viewport of ["phone", "desktop"] as const)
  test(`${viewport}, geolocation denied: the arrondissement picker is offered`, async () => {
    const { context, page } = await open(viewport, { geolocation: "denied" });
    try {
      await page.goto(`${server.url}/`);
      await page.locator("[data-near-me]").click();
      await page.waitForFunction(() => /Location not shared/.test(document.querySelector("[data-near-status]")?.textContent ?? ""));
      expect(await page.locator("#near-me .area-picker a").first().isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  }, TIMEOUT);
});
