// The first screen of / on a 390×844 phone in French at 21:30 on 21 June (Paris; app clock and
// browser clock), over the sample sheet: the first card of the list shows without scrolling, under
// the spotlight strip, above the sticky filter bar; the header is one row (brand, festival pill,
// account) over the nav, in French and in English; the rows that scroll sideways (nav, quick chips)
// fade at the edge that has more; nothing moves after the first paint (no layout shift); going to My
// night from the header loads that page once. Desktop keeps the header and the spotlight grid.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { createClock } from "../helpers/app.ts";
import { collectConsoleErrors, newContext, screenshot, useBrowserApp } from "../helpers/browser.ts";
import { saveStoreSheet } from "../../src/lib/store/store.ts";

const AT = new Date("2026-06-21T19:30:00Z");
const TIMEOUT = 90_000;
const { ctx, server, browser } = useBrowserApp({
  ...{ clock: createClock(AT), env: { DATA_MODE: "remote", LOCAL_EVENTS_CSV: "/nonexistent/events.csv" } },
  seed: async (ctx) => {
    const csv = readFileSync(new URL("../../data/events.csv", import.meta.url), "utf8");
    const saved = await saveStoreSheet(ctx.deps.db, csv, { updatedBy: "admin-upload", origin: "manual", now: AT });
    if (!saved.ok) throw new Error(saved.error);
  },
});

async function openHome(viewport: "phone" | "desktop", locale: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await newContext(browser, viewport, { locale });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.clock.setFixedTime(AT);
  await page.goto(`${server.url}${locale.startsWith("fr") ? "/fr/" : "/"}`);
  await page.waitForLoadState("load");
  return { page, errors, close: () => context.close() };
}

type Box = { top: number; bottom: number; left: number; right: number };
const box = (page: Page, selector: string): Promise<Box> =>
  page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
  });

describe("the first screen on a phone at 21:30 on 21 June", () => {
  test("the first card of the list shows without scrolling, under the spotlight strip and above the filter bar", async () => {
    const { page, errors, close } = await openHome("phone", "fr-FR");
    try {
      expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const card = await box(page, "#results ol.event-list > li > article.card");
      const title = await box(page, "#results ol.event-list > li > article.card .card-title");
      const when = await box(page, "#results ol.event-list > li > article.card .card-when");
      const bar = await box(page, "#sticky-bar");
      const strip = await box(page, "#spotlight .card-grid-spotlight > .card");
      await page.screenshot({ path: `${import.meta.dir}/screenshots/first-screen-phone-fr.png` });
      expect(card.top).toBeGreaterThan(0);
      // Its title and time are on the screen, clear of the sticky bar.
      expect(title.bottom).toBeLessThanOrEqual(bar.top);
      expect(when.bottom).toBeLessThanOrEqual(bar.top);
      expect(strip.bottom).toBeLessThanOrEqual(card.top);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  }, TIMEOUT);

  for (const locale of ["fr-FR", "en-GB"]) {
    test(`${locale}: the header is one row (brand, festival pill, account) over the nav`, async () => {
      const { page, close } = await openHome("phone", locale);
      try {
        const brand = await box(page, ".site-header .brand");
        const pill = await box(page, ".site-header .countdown");
        const account = await box(page, ".site-header .account");
        const nav = await box(page, ".site-header nav");
        const middle = (b: Box) => (b.top + b.bottom) / 2;
        expect(Math.abs(middle(pill) - middle(brand))).toBeLessThan(8);
        expect(Math.abs(middle(account) - middle(brand))).toBeLessThan(8);
        expect(brand.right).toBeLessThanOrEqual(pill.left);
        expect(pill.right).toBeLessThanOrEqual(account.left);
        expect(account.right).toBeLessThanOrEqual(390);
        expect(nav.top).toBeGreaterThanOrEqual(Math.max(brand.bottom, account.bottom) - 1);
        // The whole festival value ("Aujourd'hui", "Today") is readable; only the label may shorten.
        expect(await page.locator(".countdown-value").evaluate((el) => el.scrollWidth <= Math.ceil(el.getBoundingClientRect().width))).toBe(true);
      } finally {
        await close();
      }
    }, TIMEOUT);
  }

  test("rows that scroll sideways fade at the edge that has more", async () => {
    const { page, close } = await openHome("phone", "fr-FR");
    try {
      for (const selector of [".site-header nav", "#quick-chips ul"]) {
        const row = await page.locator(selector).evaluate((el) => {
          const style = getComputedStyle(el);
          return { overflows: el.scrollWidth > el.clientWidth, image: style.backgroundImage, attachment: style.backgroundAttachment };
        });
        expect(row.overflows).toBe(true);
        // Covers that scroll with the content over edge shadows that stay: a shadow shows only where more is hidden.
        expect(row.image.match(/linear-gradient/g)?.length).toBe(4);
        expect(row.attachment.replace(/\s/g, "")).toBe("local,local,scroll,scroll");
      }
    } finally {
      await close();
    }
  }, TIMEOUT);

  test("nothing moves after the first paint: no layout shift while the scripts start", async () => {
    const context = await newContext(browser, "phone", { locale: "fr-FR" });
    const page = await context.newPage();
    await page.clock.setFixedTime(AT);
    await page.addInitScript(() => {
      (window as unknown as { shifts: number[] }).shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) (window as unknown as { shifts: number[] }).shifts.push((entry as unknown as { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    try {
      await page.goto(`${server.url}/fr/`);
      await page.waitForLoadState("networkidle");
      // The save buttons are shown by then (my-night.js ran).
      await page.locator("#results article.card [data-save]").first().waitFor({ state: "visible" });
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)).toEqual([]);
    } finally {
      await context.close();
    }
  }, TIMEOUT);

  test("My night from the header loads once, with the saved events", async () => {
    const { page, close } = await openHome("phone", "fr-FR");
    try {
      const firstKey = await page.locator("#results article.card").first().getAttribute("data-event-key");
      await page.locator("#results article.card [data-save]").first().click();
      const documents: string[] = [];
      page.on("request", (request) => {
        if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname + new URL(request.url()).search);
      });
      await page.locator("[data-my-night-link]").click();
      await page.waitForURL(/\/my-night\?e=/);
      await page.locator("li.night-stop").first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(documents).toEqual([`/fr/my-night?e=${firstKey}`]);
      expect(await page.locator("li.night-stop").evaluateAll((items) => items.map((li) => li.getAttribute("data-event-key")))).toEqual([firstKey]);
    } finally {
      await close();
    }
  }, TIMEOUT);

  test("desktop keeps its header row and the spotlight grid", async () => {
    const { page, close } = await openHome("desktop", "fr-FR");
    try {
      const brand = await box(page, ".site-header .brand");
      const nav = await box(page, ".site-header nav");
      const account = await box(page, ".site-header .account");
      expect(Math.abs(nav.top - brand.top)).toBeLessThan(30);
      expect(Math.abs(account.top - brand.top)).toBeLessThan(30);
      const spotlightCards = await page.locator("#spotlight .card-grid-spotlight > .card").evaluateAll((cards) => cards.map((c) => Math.round(c.getBoundingClientRect().top)));
      expect(new Set(spotlightCards).size).toBe(1); // side by side
      expect(await page.locator("#stats").isVisible()).toBe(true);
      await screenshot(page, "first-screen-desktop-fr");
    } finally {
      await close();
    }
  }, TIMEOUT);
});
