// The home's first paint in Chromium with the app clock and the browser clock at 21:30 on 21 June
// (Paris), over the sample sheet and over 2,000 events: fewer than 1,500 elements on a phone and on
// a desktop (an element count, not a timing); on a phone the first card of the list within the
// first screen, the filters only in the sheet (Close and a tap outside close it), and a
// finished search bringing the list into view; on a desktop the filters beside the list.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { createClock, useTestApp } from "../helpers/app.ts";
import { collectConsoleErrors, launchBrowser, newContext, screenshot, VIEWPORTS } from "../helpers/browser.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";
import { bigSheet } from "../../bench/fixtures.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const TIMEOUT = 90_000;
/** The budget of the first paint, in elements (`document.getElementsByTagName("*")`). */
const MAX_ELEMENTS = 1500;
/** Where the first card may start on a 390×844 phone: within the first screen. */
const FIRST_CARD_MAX_TOP = 844;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

/**
 * The app over `csv` (saved to the event store as an upload at 21:30), served on a loopback port;
 * the file's one browser visits each describe's app.
 */
function useSheet(csv: () => string): { url: () => string } {
  const ctx = useTestApp({ clock: createClock(AT), env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } });
  let url: string | undefined;
  beforeAll(async () => {
    const saved = await saveStoreSheet(ctx.deps.db, csv(), { updatedBy: "admin-upload", origin: "manual", now: AT });
    if (!saved.ok) throw new Error(saved.error);
    url = ctx.listen();
  }, 120_000);
  return { url: () => url! };
}

async function openHome(url: string, viewport: keyof typeof VIEWPORTS): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await newContext(browser, viewport);
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.clock.setFixedTime(AT);
  await page.goto(`${url}/`);
  await page.waitForLoadState("load");
  return { page, errors, close: () => context.close() };
}

/** Elements on the page now, and where the first card of the list starts (page coordinates). */
function firstPaint(page: Page): Promise<{ elements: number; cards: number; firstCardTop: number }> {
  return page.evaluate(() => {
    const cards = document.querySelectorAll("#results ol.event-list > li > article.card");
    return {
      elements: document.getElementsByTagName("*").length,
      cards: cards.length,
      firstCardTop: cards.length > 0 ? cards[0].getBoundingClientRect().top + window.scrollY : -1,
    };
  });
}

const SHEETS = [
  { name: "the sample sheet", csv: () => readFileSync(new URL("../../data/events.csv", import.meta.url), "utf8") },
  { name: "2,000 events", csv: () => bigSheet(2000) },
];

for (const sheet of SHEETS) {
  describe(`first paint of / over ${sheet.name}`, () => {
    const app = useSheet(sheet.csv);

    for (const viewport of ["phone", "desktop"] as const) {
      test(`${viewport}: fewer than ${MAX_ELEMENTS} elements, with a full first page of cards`, async () => {
        const { page, errors, close } = await openHome(app.url(), viewport);
        try {
          const shown = await firstPaint(page);
          expect(shown.cards).toBe(25);
          expect(shown.elements).toBeLessThan(MAX_ELEMENTS);
          expect(errors).toEqual([]);
        } finally {
          await close();
        }
      }, TIMEOUT);
    }

    test(`phone: the first card starts above ${FIRST_CARD_MAX_TOP} px, with the spotlight strip and map toggle above it`, async () => {
      const { page, close } = await openHome(app.url(), "phone");
      try {
        const shown = await firstPaint(page);
        expect(shown.firstCardTop).toBeGreaterThan(0);
        expect(shown.firstCardTop).toBeLessThan(FIRST_CARD_MAX_TOP);
        // The spotlight and the map toggle are shown above the list (the stats are left out on a
        // phone: the counts are in the search bar and the list's heading), and the filters wait in
        // the sheet.
        const tops = await page.evaluate(() =>
          Object.fromEntries(
            ["#spotlight", "#stats", "#map-card", "#results"].map((selector) => {
              const box = document.querySelector(selector)!.getBoundingClientRect();
              return [selector, box.height > 0 ? box.top + window.scrollY : -1];
            }),
          ),
        );
        expect(tops["#spotlight"]).toBeGreaterThan(0);
        expect(tops["#stats"]).toBe(-1);
        expect(tops["#spotlight"]).toBeLessThan(tops["#map-card"]);
        expect(tops["#map-card"]).toBeLessThan(tops["#results"]);
        expect(await page.locator("#filters").isVisible()).toBe(false);
        expect(await page.locator("#sticky-bar").isVisible()).toBe(true);
        await screenshot(page, `first-paint-phone-${sheet.name === "2,000 events" ? "2000" : "sample"}`);
      } finally {
        await close();
      }
    }, TIMEOUT);
  });
}

describe("results first on a phone, desktop layout kept (sample sheet)", () => {
  const app = useSheet(SHEETS[0].csv);

  test("phone: the filter sheet opens from the bar and closes with Close, a tap outside and Escape", async () => {
    const { page, errors, close } = await openHome(app.url(), "phone");
    const isOpen = () => page.evaluate(() => document.body.classList.contains("filters-open"));
    try {
      await page.locator("#sticky-bar").click();
      await page.waitForFunction(() => document.body.classList.contains("filters-open"));
      expect(await page.locator("#filters").isVisible()).toBe(true);
      await page.getByRole("button", { name: "Close", exact: true }).click();
      expect(await isOpen()).toBe(false);
      expect(await page.locator("#filters").isVisible()).toBe(false);
      // The bar has the focus back, so the keyboard does not land on a hidden control.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("sticky-bar");

      await page.locator("#sticky-bar").click();
      await page.waitForFunction(() => document.body.classList.contains("filters-open"));
      await page.mouse.click(195, 40); // above the sheet, on the dimmed page
      expect(await isOpen()).toBe(false);

      await page.locator("#sticky-bar").click();
      await page.waitForFunction(() => document.body.classList.contains("filters-open"));
      await page.keyboard.press("Escape");
      expect(await isOpen()).toBe(false);
      // Nothing was changed, so nothing was asked of the server.
      expect(page.url()).toBe(`${app.url()}/`);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, TIMEOUT);

  test("phone: a search sent with Enter closes the keyboard, shrinks the hero and brings the list into view", async () => {
    const { page, errors, close } = await openHome(app.url(), "phone");
    try {
      const heroBefore = await page.locator(".hero").evaluate((el) => el.getBoundingClientRect().height);
      const box = page.getByRole("searchbox", { name: "Search events" });
      await box.fill("house");
      await box.press("Enter");
      await page.waitForURL(`${app.url()}/?q=house`);
      await page.waitForFunction(() => document.body.classList.contains("is-interacted"));
      // A dozen matches: enough for the list to scroll up to the top of the screen (less the
      // page's 5rem scroll padding).
      await page.waitForFunction(() => {
        const top = document.getElementById("results")!.getBoundingClientRect().top;
        return top >= -1 && top <= 81;
      });
      expect(await page.evaluate(() => document.activeElement?.id)).not.toBe("search-q");
      expect(await page.locator("#results article.card").count()).toBeGreaterThan(0);
      const heroAfter = await page.locator(".hero").evaluate((el) => el.getBoundingClientRect().height);
      expect(heroAfter).toBeLessThan(heroBefore);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, TIMEOUT);

  test("phone, JavaScript off: the filters stay in the page and the bar links to them", async () => {
    const context = await newContext(browser, "phone", { javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url()}/`);
      expect(await page.locator("#filters").isVisible()).toBe(true);
      await page.locator("#sticky-bar").click();
      await page.waitForURL(`${app.url()}/#filters`);
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("desktop: the filters sit beside the list, no sticky bar, sections open", async () => {
    const { page, close } = await openHome(app.url(), "desktop");
    try {
      expect(await page.locator("#sticky-bar").isVisible()).toBe(false);
      const filters = (await page.locator(".browse-filters").boundingBox())!;
      const results = (await page.locator("#results").boundingBox())!;
      expect(filters.x + filters.width).toBeLessThanOrEqual(results.x);
      expect(Math.abs(filters.y - results.y)).toBeLessThan(40);
      expect(await page.locator("details.filter-section[open]").count()).toBe(4);
      // Stats are three boxes in a row, the map its full-width card.
      const stats = await page.locator("#stats .stat").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
      expect(new Set(stats).size).toBe(1);
      expect(await page.locator("#map-card > summary .muted").isVisible()).toBe(true);
    } finally {
      await close();
    }
  }, TIMEOUT);
});
